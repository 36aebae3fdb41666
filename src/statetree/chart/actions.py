"""Enter and exit actions, compiled: built-ins run by the runtime, the rest by host handlers.

Each action of each state becomes one performer when the chart is compiled, holding an
immutable :class:`ActionCall` that describes it; handlers and listeners receive that same
record every time, so performing an action allocates nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from statetree.chart.events import Event
from statetree.chart.model import ActionDef, ParamValue
from statetree.chart.registry import CLEAR_HISTORY, EVENT, RAISE, START_TIMER, TIMER

if TYPE_CHECKING:
    from statetree.chart.runtime import ChartRuntime
    from statetree.chart.states import ChartState

__all__ = ["ActionCall", "Handler", "Performer", "make_performer", "perform_all"]

Phase = Literal["enter", "exit"]


@dataclass(frozen=True, slots=True)
class ActionCall:
    """One action of one state, as handlers and listeners receive it.

    Attributes:
        type: the action type, e.g. ``play_animation``.
        params: its parameters (read-only), e.g. ``{"name": "Idle", "loop": True}``.
        state: the path of the state whose action it is.
        phase: ``"enter"`` or ``"exit"``.
    """

    type: str
    params: Mapping[str, ParamValue] = field(default_factory=lambda: MappingProxyType({}))
    state: str = ""
    phase: Phase = "enter"

    def __str__(self) -> str:
        inside = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.phase} {self.state}: {self.type}({inside})"


Handler = Callable[[ActionCall], None]
"""What the host registers for an action type: called with the action's record."""


class Performer:
    """Performs one action of one state (the state tells the listener first)."""

    __slots__ = ("call",)

    def __init__(self, call: ActionCall) -> None:
        self.call = call

    def __call__(self, state: ChartState, runtime: ChartRuntime) -> None:
        """Do the action."""


def perform_all(
    performers: tuple[Performer, ...], state: ChartState, runtime: ChartRuntime
) -> None:
    """Perform ``performers`` in order, each announced to the runtime's listener first."""
    listener = runtime.listener
    for perform in performers:
        if listener is not None:
            listener(perform.call)
        perform(state, runtime)


class HostAction(Performer):
    __slots__ = ("slot",)

    def __init__(self, call: ActionCall, slot: int) -> None:
        super().__init__(call)
        self.slot = slot

    def __call__(self, state: ChartState, runtime: ChartRuntime) -> None:
        runtime.handlers[self.slot](self.call)


class StartTimer(Performer):
    __slots__ = ("delay", "event")

    def __init__(self, call: ActionCall) -> None:
        super().__init__(call)
        self.event = Event(TIMER, str(call.params["name"]))
        self.delay = float(call.params["delay"])

    def __call__(self, state: ChartState, runtime: ChartRuntime) -> None:
        runtime.start_timer(state, self.event, self.delay)


class RaiseEvent(Performer):
    __slots__ = ("event",)

    def __init__(self, call: ActionCall) -> None:
        super().__init__(call)
        self.event = Event(EVENT, str(call.params["name"]))

    def __call__(self, state: ChartState, runtime: ChartRuntime) -> None:
        runtime.latch(self.event)


class ClearHistory(Performer):
    __slots__ = ()

    def __call__(self, state: ChartState, runtime: ChartRuntime) -> None:
        runtime.history[state._id] = 0


_BUILTINS: dict[str, Callable[[ActionCall], Performer]] = {
    START_TIMER: StartTimer,
    RAISE: RaiseEvent,
    CLEAR_HISTORY: ClearHistory,
}


def make_performer(
    action: ActionDef, state: str, phase: Phase, slots: Mapping[str, int]
) -> Performer:
    """The performer of ``action`` of the state at path ``state``.

    Args:
        slots: the handler slot of each host action type; any other type is built in.
    """
    call = ActionCall(action.type, action.arguments, state, phase)
    slot = slots.get(action.type)
    return HostAction(call, slot) if slot is not None else _BUILTINS[action.type](call)
