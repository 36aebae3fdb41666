"""Outcomes: what an operation does to an agent, found by running the per-agent runtime.

A batch holds no chart semantics of its own. To learn what a processing (or a reload, a
received configuration, a despawn) does to an agent in some situation, it places a
``ChartMachine`` in that situation (see :mod:`statetree.chart.placement`), gives it one
placeholder timer per timer whose owner is active, runs the operation with handlers that
only note their calls, and reads what changed. Both engines therefore agree by
construction; the differential test checks the batch's bookkeeping around it.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from statetree.chart.actions import ActionCall, Handler
from statetree.chart.batch.errors import Failure
from statetree.chart.events import Event
from statetree.chart.machine import ChartMachine
from statetree.chart.placement import Situation, place, situation_of
from statetree.chart.registry import TIMER
from statetree.chart.runtime import Timer
from statetree.core.trace import Step, StepKind
from statetree.errors import TransitionLoopError

if TYPE_CHECKING:
    from statetree.chart.batch.table import Layout
    from statetree.chart.compile import CompiledChart

__all__ = ["KILL", "START", "Noting", "Outcome", "derive", "processing", "row_sources"]

KILL, START = -1, -2
"""Row sources besides an old row's number: the row stops running, or starts a timer."""

Operation = Callable[[ChartMachine], object]
"""What is done to the placed machine."""


def processing(event: Event | None) -> Callable[..., None]:
    """One processing of ``event`` (``None``: none) on a started machine, as ``send``,
    ``hold`` and the other calls make once they have set what they set (called with the
    machine, and the agent's index when a batch replays a call)."""

    def process(machine: ChartMachine, agent: int = 0) -> None:
        machine._process(event)

    return process


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one operation did to an agent, as its ``ChartMachine`` did it.

    Attributes:
        situation: where the agent ends, levels of the chart only.
        running: the timers whose owner was active before, as (state path, timer name).
        kept: those of them still running after.
        started: the timers started and still running, in start order, as (state path,
            timer name, delay).
        calls: the host calls made, in order, each with its *moment*: calls of agents
            at equal moments are made together (see :class:`_Moments`).
        failure: why the agent could not settle, if it could not (it ends where it stopped).
    """

    situation: Situation
    running: frozenset[tuple[str, str]]
    kept: frozenset[tuple[str, str]]
    started: tuple[tuple[str, str, float], ...]
    calls: tuple[tuple[int, ActionCall], ...]
    failure: Failure | None


def derive(layout: Layout, situation: Situation, operation: Operation, bound: int) -> Outcome:
    """The outcome of ``operation`` on a machine of ``layout``'s chart in ``situation``."""
    moments = _Moments()
    machine = ChartMachine(layout.compiled, Noting(moments.call), max_transitions=bound)
    place(machine, situation)
    placeholders = _placeholders(layout, machine, situation)
    moments.machine = machine
    machine.machine.add_listener(moments.step)
    failure: Failure | None = None
    try:
        operation(machine)
    except TransitionLoopError as error:
        failure = Failure.of(error)
    runtime = machine._runtime
    ending = situation_of(machine)
    levels = frozenset(machine.compiled.levels)
    running = frozenset((t.owner, t.event.name) for t in placeholders)
    kept = frozenset((t.owner, t.event.name) for t in placeholders if t.alive)
    fresh = sorted(e for e in runtime.timers if e[2].alive and e[2] not in placeholders)
    started = tuple((t.owner, t.event.name, due) for due, _, t in fresh)
    return Outcome(
        Situation(ending.active, ending.history, ending.held & levels),
        running,
        kept,
        started,
        tuple(moments.calls),
        failure,
    )


class Noting(dict[str, Handler]):
    """The handlers of a derivation: one for every action type, even of a chart reloaded
    into the machine, which notes the call."""

    def __init__(self, note: Handler) -> None:
        super().__init__()
        self.note = note

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> Handler:
        return self.note


_RANKS: WeakKeyDictionary[CompiledChart, dict[int, int]] = WeakKeyDictionary()


def _ranks(compiled: CompiledChart) -> dict[int, int]:
    """The rank of each action record of ``compiled`` (by identity) in the order one change
    performs them: exits by descending state number, then entries by ascending number."""
    found = _RANKS.get(compiled)
    if found is None:
        exits = [p.call for cls in reversed(compiled.classes) for p in cls._exit]
        enters = [p.call for cls in compiled.classes for p in cls._enter]
        found = _RANKS[compiled] = {id(call): n for n, call in enumerate([*exits, *enters])}
    return found


class _Moments:
    """Numbers each host call of a machine with its moment: ``change * RANKS + rank``.

    A *change* is one transition of the stack: its exits, then its entries (a concurrent
    transition's several regions included); a step listener sees where each begins. Within
    a change, calls follow their static rank. Agents whose calls share a moment have them
    made in one handler call, as one pass of all agents would. Should a call ever come
    before the rank of the one it follows in the same change, it opens a new change, so
    every agent's calls stay in the order its machine made them.
    """

    RANKS = 1 << 20

    def __init__(self) -> None:
        self.machine: ChartMachine | None = None
        self.calls: list[tuple[int, ActionCall]] = []
        self.change = 0
        self.last: StepKind | None = None
        self.rank = -1

    def step(self, step: Step) -> None:
        kind, last = step.kind, self.last
        popping = kind is StepKind.POP
        if last is None or (
            last is not StepKind.POP
            and (popping or last is not StepKind.REGION or kind is not StepKind.REGION)
        ):
            self.change += 1
            self.rank = -1
        self.last = kind

    def call(self, call: ActionCall) -> None:
        assert self.machine is not None
        rank = _ranks(self.machine.compiled)[id(call)]
        if rank <= self.rank:
            self.change += 1
        self.rank = rank
        self.calls.append((self.change * self.RANKS + rank, call))


def _placeholders(layout: Layout, machine: ChartMachine, situation: Situation) -> set[Timer]:
    """One never-due timer for each timer whose owner is active: whether it is still
    running afterwards tells whether its row keeps its deadline."""
    runtime = machine._runtime
    active = set(situation.active)
    found: set[Timer] = set()
    for key in layout.keys:
        if key.owner in active:
            owner = runtime.live[key.owner]
            assert owner is not None
            timer = Timer(Event(TIMER, key.name), math.inf, layout.paths[key.owner])
            owner.timers = [*(owner.timers or ()), timer]
            runtime.sequence += 1
            heapq.heappush(runtime.timers, (math.inf, runtime.sequence, timer))
            found.add(timer)
    return found


def row_sources(
    outcome: Outcome, before: Layout, after: Layout
) -> tuple[list[int], list[float], list[int]]:
    """Each row of ``after``: the row of ``before`` it keeps, :data:`START` or :data:`KILL`;
    with the delay and start rank (from 1) of started timers."""
    # A row no timer of the agent ran in stays as it is (not running): within one chart
    # that is its own row; in another chart's layout it starts out stopped.
    sources = list(range(after.rows)) if after is before else [KILL] * after.rows
    for key in before.keys if after is before else ():
        if (before.paths[key.owner], key.name) in outcome.running:
            sources[key.row] = KILL
    delays = [0.0] * after.rows
    ranks = [0] * after.rows
    for path, name in outcome.kept:
        old = before.key(before.numbers[path], name)
        new = after.key(after.numbers[path], name)
        if old is not None and new is not None:
            sources[new.row] = old.row
    for rank, (path, name, delay) in enumerate(outcome.started, 1):
        new = after.key(after.numbers[path], name)
        assert new is not None  # every timer a chart starts has a key
        sources[new.row], delays[new.row], ranks[new.row] = START, delay, rank
    return sources, delays, ranks
