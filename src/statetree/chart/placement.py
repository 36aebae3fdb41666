"""A chart machine's situation, read out and put back without running a hook.

A *situation* is everything discrete about a running chart: which states are active, which
child each state resumes (its history) and which levels the host holds. With the clock and
the running timers it is all there is to a chart machine between two calls, so a machine
placed in the situation (and given the timers) of another behaves exactly as that one from
then on. Batches derive their tables this way, and saved machines are restored this way.

Placing enters each active state through the core's own ``apply_transition``, but as a
*placer*: a subclass of the state's class whose hooks do nothing, swapped for the state's
class once entered (chart classes add no slots, as hot reload relies on). So no enter or
exit action, handler or listener runs, and nothing is traced.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from statetree.chart.events import Event
from statetree.chart.registry import TIMER
from statetree.chart.runtime import Timer
from statetree.chart.states import ChartState
from statetree.core.transition import CONCURRENT, INNER, SIBLING, Transition
from statetree.errors import UsageError

if TYPE_CHECKING:
    from statetree.chart.compile import CompiledChart
    from statetree.chart.machine import ChartMachine

__all__ = [
    "RunningTimer",
    "Situation",
    "place",
    "place_timers",
    "problem",
    "running_timers",
    "situation_of",
    "vacate",
]


@dataclass(frozen=True, slots=True)
class Situation:
    """The discrete side of a running chart.

    Attributes:
        active: the numbers of the active states, ascending (the order of
            ``CompiledChart.classes``: parents before children).
        history: for every state, the index of the child it resumes (0 for a leaf).
        held: the level events the host holds on (any, used by the chart or not).
    """

    active: tuple[int, ...]
    history: tuple[int, ...]
    held: frozenset[Event] = frozenset()


@dataclass(frozen=True, slots=True)
class RunningTimer:
    """A timer a chart state runs: its name, the path of the state owning it, when it
    expires, and its start order (timers due together fire in that order)."""

    name: str
    state: str
    due: float
    order: int = 0


def situation_of(machine: ChartMachine) -> Situation:
    """The situation of ``machine`` (between two calls)."""
    runtime = machine._runtime
    active = tuple(n for n, state in enumerate(runtime.live) if state is not None)
    return Situation(active, tuple(runtime.history), frozenset(runtime.held))


def running_timers(machine: ChartMachine) -> tuple[RunningTimer, ...]:
    """The running timers of ``machine``, in the order they will fire."""
    live = sorted(entry for entry in machine._runtime.timers if entry[2].alive)
    return tuple(
        RunningTimer(timer.event.name, timer.owner, due, order) for due, order, timer in live
    )


_PLACERS: WeakKeyDictionary[CompiledChart, tuple[type[ChartState], ...]] = WeakKeyDictionary()


def _placers(compiled: CompiledChart) -> tuple[type[ChartState], ...]:
    """The placer of each state class of ``compiled`` (made once per compiled chart)."""
    found = _PLACERS.get(compiled)
    if found is None:
        found = tuple(_placer(cls) for cls in compiled.classes)
        _PLACERS[compiled] = found
    return found


def _placer(cls: type[ChartState]) -> type[ChartState]:
    def quiet(self: ChartState) -> None:
        """Placing runs no hook."""

    namespace = {"__slots__": (), "__qualname__": cls.__qualname__, "on_enter": quiet}
    namespace["on_exit"] = quiet
    return type(cls.__name__, (cls,), namespace)


def place(machine: ChartMachine, situation: Situation) -> None:
    """Put ``machine``, which has not started, in ``situation`` without running a hook.

    Raises:
        UsageError: the machine has started, or ``situation`` is not one of its chart's
            (a state whose parent is not active, several children of a non-concurrent
            state, a history naming no child).
    """
    runtime = machine._runtime
    compiled = runtime.compiled
    _check(compiled, situation)
    if machine.machine.started:
        raise UsageError("place() needs a machine that has not started")
    core = machine.machine
    extras = core._extras
    tracer = extras.tracer if extras is not None else None
    if extras is not None:
        extras.tracer = None  # placing is no change of the machine's: nothing traces it
    try:
        _place(machine, situation)
    finally:
        if extras is not None:
            extras.tracer = tracer
    runtime.history = list(situation.history)
    runtime.held = set(situation.held)
    runtime.levels = [event in situation.held for event in compiled.levels]


def vacate(machine: ChartMachine) -> None:
    """Take every state out of ``machine``, running no hook: it reads as not started, its
    timers gone (what a machine is put somewhere else from)."""
    runtime = machine._runtime
    placers = _placers(runtime.compiled)
    for number, state in enumerate(runtime.live):
        if state is not None:
            state.__class__ = placers[number]  # leaves as a placer: its exit does nothing
    extras = machine.machine._extras
    tracer = extras.tracer if extras is not None else None
    if extras is not None:
        extras.tracer = None
    try:
        machine.machine.stop()
    finally:
        if extras is not None:
            extras.tracer = tracer
    runtime.live = [None] * len(runtime.live)
    runtime.timers = []
    runtime.dead = 0


def _place(machine: ChartMachine, situation: Situation) -> None:
    runtime = machine._runtime
    compiled = runtime.compiled
    placers = _placers(compiled)
    core = machine.machine
    active = set(situation.active)
    for number in situation.active:
        cls = compiled.classes[number]
        parent = cls._parent_id
        if parent < 0:
            core.initial = Transition(SIBLING, placers[number])
            core.start()
            core.initial = Transition(SIBLING, cls)
        elif runtime.live[number] is None:
            host = runtime.live[parent]
            assert host is not None
            _enter(machine, host, number, active)
        _adopt(machine, number)


def _enter(machine: ChartMachine, host: ChartState, number: int, active: set[int]) -> None:
    """Enter state ``number`` (as a placer) under its active parent ``host``."""
    placers = _placers(machine._runtime.compiled)
    core = machine.machine
    if host._regions is None:
        core.apply_transition(host, Transition(INNER, placers[number]))
        return
    roots = _children(machine._runtime.compiled)[host._id]
    regions = tuple(placers[root] for root in roots)
    core.apply_transition(host, Transition(CONCURRENT, regions[0], regions=regions))
    for root in roots:  # regions not in the situation leave again, still quiet placers
        if root not in active:
            state = core.get_state(placers[root])
            assert state is not None
            core.exit(state)


def _adopt(machine: ChartMachine, number: int) -> None:
    """Give the placer of state ``number`` its class and the run-time fields of a state
    entered before the current processing."""
    runtime = machine._runtime
    cls = runtime.compiled.classes[number]
    placer = _placers(runtime.compiled)[number]
    parent = runtime.live[cls._parent_id] if cls._parent_id >= 0 else None
    # Found right under its parent: a search of the whole configuration for each state
    # made placing a chart of many regions take a time square in its states.
    state: Any = (
        machine.machine.get_state(placer)
        if parent is None
        else parent.get_immediate_inner_state(placer)
    )
    assert state is not None
    state.__class__ = cls
    state.entry = 0
    state.child = None
    state.timers = None
    state.parent = parent
    if parent is not None and parent._regions is None:
        parent.child = state
    runtime.live[number] = state


def problem(compiled: CompiledChart, situation: Situation) -> str | None:
    """What makes ``situation`` impossible for ``compiled``'s machines, or ``None``."""
    classes = compiled.classes
    active = set(situation.active)
    if len(situation.history) != len(classes) or not active <= set(range(len(classes))):
        return f"it does not fit chart {compiled.chart.name!r}"
    every = _children(compiled)
    for number, cls in enumerate(classes):
        children = every[number]
        resumed = situation.history[number]
        if not 0 <= resumed < max(len(children), 1):
            return f"the history of {cls._path} names no child of it"
        if number not in active:
            continue
        if cls._parent_id >= 0 and cls._parent_id not in active:
            return f"{cls._path} is active without its parent"
        on = [index for index, child in enumerate(children) if child in active]
        if cls._regions is None and len(on) > 1:
            return f"several children of {cls._path} are active"
        if cls._regions is None and on and on[0] != resumed:
            return f"the history of {cls._path} is not its active child"
    return None


def _check(compiled: CompiledChart, situation: Situation) -> None:
    found = problem(compiled, situation)
    if found is not None:
        raise UsageError(f"the situation is impossible: {found}")


_CHILDREN: WeakKeyDictionary[CompiledChart, tuple[tuple[int, ...], ...]] = WeakKeyDictionary()


def _children(compiled: CompiledChart) -> tuple[tuple[int, ...], ...]:
    """The children of each state of ``compiled``, by number."""
    found = _CHILDREN.get(compiled)
    if found is None:
        parents = [cls._parent_id for cls in compiled.classes]
        found = tuple(
            tuple(n for n, up in enumerate(parents) if up == number)
            for number in range(len(parents))
        )
        _CHILDREN[compiled] = found
    return found


def place_timers(machine: ChartMachine, timers: Iterable[RunningTimer]) -> None:
    """Give ``machine`` (just placed) ``timers``, each owned by its active state.

    Raises:
        UsageError: a timer's state is not active.
    """
    runtime = machine._runtime
    for timer in sorted(timers, key=lambda t: (t.due, t.order)):
        owner = machine.state(timer.state)
        if owner is None:
            raise UsageError(f"timer {timer.name!r} belongs to {timer.state}, which is not active")
        running = Timer(Event(TIMER, timer.name), timer.due, timer.state)
        if owner.timers is None:
            owner.timers = []
        owner.timers.append(running)
        runtime.sequence += 1
        heapq.heappush(runtime.timers, (timer.due, runtime.sequence, running))
