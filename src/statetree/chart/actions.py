"""Enter and exit actions, compiled: built-ins run by the runtime, the rest by host handlers.

Each action of each state becomes one performer when the chart is compiled, holding an
immutable :class:`ActionCall` that describes it; handlers and listeners receive that same
record every time, so performing an action allocates nothing. A machine with an owner gets
its own copies of the records, made once, carrying that owner (see :func:`owned_calls`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from statetree.chart.action_calls import ActionCall, Handler, Phase
from statetree.chart.events import Event
from statetree.chart.model import ActionDef
from statetree.chart.registry import CLEAR_HISTORY, EVENT, RAISE, START_TIMER, TIMER

if TYPE_CHECKING:
    from statetree.chart.runtime import ChartRuntime
    from statetree.chart.states import ChartState

__all__ = [
    "ActionCall",
    "Handler",
    "Performer",
    "Phase",
    "make_performer",
    "owned_calls",
    "perform_all",
]


class Performer:
    """Performs one action of one state (the state tells the listener first).

    Attributes:
        call: the action's record, without an owner.
        index: the place of that record in the compiled chart's ``calls``, where a
            runtime finds the record it hands out (its owner's copy).
    """

    __slots__ = ("call", "index")

    def __init__(self, call: ActionCall, index: int = 0) -> None:
        self.call = call
        self.index = index

    def perform(self, state: ChartState, runtime: ChartRuntime) -> None:
        """Do the action."""


def perform_all(
    performers: tuple[Performer, ...], state: ChartState, runtime: ChartRuntime
) -> None:
    """Perform ``performers`` in order, each announced to the runtime's listener first."""
    listener = runtime.listener
    for performer in performers:
        if listener is not None:
            listener(runtime.calls[performer.index])
        performer.perform(state, runtime)


class HostAction(Performer):
    __slots__ = ("slot",)

    def __init__(self, call: ActionCall, index: int, slot: int) -> None:
        super().__init__(call, index)
        self.slot = slot

    def perform(self, state: ChartState, runtime: ChartRuntime) -> None:
        runtime.handlers[self.slot](runtime.calls[self.index])


class StartTimer(Performer):
    __slots__ = ("delay", "event")

    def __init__(self, call: ActionCall, index: int) -> None:
        super().__init__(call, index)
        self.event = Event(TIMER, str(call.params["name"]))
        self.delay = float(call.params["delay"])

    def perform(self, state: ChartState, runtime: ChartRuntime) -> None:
        runtime.start_timer(state, self.event, self.delay)


class RaiseEvent(Performer):
    __slots__ = ("event",)

    def __init__(self, call: ActionCall, index: int) -> None:
        super().__init__(call, index)
        self.event = Event(EVENT, str(call.params["name"]))

    def perform(self, state: ChartState, runtime: ChartRuntime) -> None:
        runtime.latch(self.event)


class ClearHistory(Performer):
    __slots__ = ()

    def perform(self, state: ChartState, runtime: ChartRuntime) -> None:
        runtime.history[state._id] = 0


_BUILTINS: dict[str, Callable[[ActionCall, int], Performer]] = {
    START_TIMER: StartTimer,
    RAISE: RaiseEvent,
    CLEAR_HISTORY: ClearHistory,
}


def make_performer(
    action: ActionDef, state: str, phase: Phase, slots: Mapping[str, int], index: int
) -> Performer:
    """The performer of ``action`` of the state at path ``state``.

    Args:
        slots: the handler slot of each host action type; any other type is built in.
        index: the place of its record in the compiled chart's ``calls``.
    """
    call = ActionCall(action.type, action.arguments, state, phase)
    slot = slots.get(action.type)
    if slot is not None:
        return HostAction(call, index, slot)
    return _BUILTINS[action.type](call, index)


def owned_calls(calls: tuple[ActionCall, ...], owner: object) -> tuple[ActionCall, ...]:
    """``calls`` as a machine owned by ``owner`` hands them out (the same ones if ``None``)."""
    if owner is None:
        return calls
    return tuple(ActionCall(c.type, c.params, c.state, c.phase, owner) for c in calls)
