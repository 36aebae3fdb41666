"""Enter and exit actions performed for many agents at once.

Each action of each state becomes one vector performer when the plan is built. A host
action calls its handler once with every agent performing it (a :class:`BatchCall`); the
built-ins change the working set's arrays, exactly as :mod:`statetree.chart.actions`
changes one runtime.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from statetree.chart.actions import ActionCall, Phase
from statetree.chart.batch.arrays import Indexes
from statetree.chart.events import Event
from statetree.chart.model import ParamValue
from statetree.chart.registry import CLEAR_HISTORY, EVENT, RAISE, START_TIMER

if TYPE_CHECKING:
    from statetree.chart.batch.work import Work

__all__ = ["BatchCall", "BatchHandler", "Performer", "Performers", "make_performer"]


@dataclass(frozen=True, slots=True, eq=False)
class BatchCall:
    """One action of one state, performed by several agents at once.

    Attributes:
        action: the action as a ``ChartMachine``'s handler receives it.
        entities: the indexes of the agents performing it, ascending (read-only).
    """

    action: ActionCall
    entities: Indexes

    @property
    def type(self) -> str:
        """The action type, e.g. ``play_animation``."""
        return self.action.type

    @property
    def params(self) -> Mapping[str, ParamValue]:
        """The action's parameters (read-only), e.g. ``{"name": "Idle", "loop": True}``."""
        return self.action.params

    @property
    def state(self) -> str:
        """The path of the state whose action it is."""
        return self.action.state

    @property
    def phase(self) -> Phase:
        """``"enter"`` or ``"exit"``."""
        return self.action.phase

    def __str__(self) -> str:
        return f"{self.action} x{len(self.entities)}"


BatchHandler = Callable[[BatchCall], None]
"""What the host registers for an action type in a batch: called with a :class:`BatchCall`."""


class Host(Protocol):
    """What performers need from the engine running them."""

    def call_host(self, slot: int, call: ActionCall, work: Work, positions: Indexes) -> None:
        """Call the handler of ``slot`` for the agents at ``positions`` of ``work``."""

    def next_sequence(self) -> int:
        """A number larger than any handed out before (orders timers started together)."""


Performer = Callable[["Host", "Work", Indexes], None]
"""Performs one action for the agents at some positions of a working set."""
Performers = tuple[Performer, ...]


def _host(call: ActionCall, slot: int) -> Performer:
    def perform(host: Host, work: Work, positions: Indexes) -> None:
        host.call_host(slot, call, work, positions)

    return perform


def _start_timer(row: int, delay: float) -> Performer:
    def perform(host: Host, work: Work, positions: Indexes) -> None:
        work.due[row, positions] = work.clock[positions] + delay
        if work.sequence.size:
            work.sequence[row, positions] = host.next_sequence()

    return perform


def _raise(edge: int) -> Performer:
    def perform(host: Host, work: Work, positions: Indexes) -> None:
        work.serial[positions] += 1
        if edge >= 0:
            work.latched[edge, positions] = work.serial[positions]

    return perform


def _clear_history(row: int) -> Performer:
    def perform(host: Host, work: Work, positions: Indexes) -> None:
        work.history[row, positions] = 0

    return perform


def _nothing(host: Host, work: Work, positions: Indexes) -> None:
    """A timer started by an exit action, which dies with its state at once."""


@dataclass(frozen=True, slots=True)
class Context:
    """What building a performer needs to know about its state and the chart."""

    phase: Phase
    history_row: int
    timer_row: Callable[[str], int]
    edges: Mapping[Event, int]
    slots: Mapping[str, int]


def make_performer(call: ActionCall, context: Context) -> Performer:
    """The vector performer of the action ``call`` of one state.

    A host action is one the chart's registry does not declare built in, whatever its name
    (as ``ChartMachine`` decides it): its handler is called with the agents performing it.
    """
    slot = context.slots.get(call.type)
    if slot is not None:
        return _host(call, slot)
    if call.type == START_TIMER:
        if context.phase == "exit":
            return _nothing
        row = context.timer_row(str(call.params["name"]))
        return _start_timer(row, float(call.params["delay"]))
    if call.type == RAISE:
        return _raise(context.edges.get(Event(EVENT, str(call.params["name"])), -1))
    if call.type == CLEAR_HISTORY:
        return _clear_history(context.history_row) if context.history_row >= 0 else _nothing
    raise AssertionError(f"unknown built-in action {call.type!r}")  # the registry refuses it
