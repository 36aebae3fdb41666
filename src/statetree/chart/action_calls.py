"""The record of one action of one state, as handlers and listeners receive it.

Kept apart from the performers (:mod:`statetree.chart.actions`), which are compiled with
the core where a compiler exists, so that this public record stays a plain dataclass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from statetree.chart.model import ParamValue

__all__ = ["ActionCall", "Handler", "Phase", "load_call"]

Phase = Literal["enter", "exit"]


@dataclass(frozen=True, slots=True)
class ActionCall:
    """One action of one state, as handlers and listeners receive it.

    Attributes:
        type: the action type, e.g. ``play_animation``.
        params: its parameters (read-only), e.g. ``{"name": "Idle", "loop": True}``.
        state: the path of the state whose action it is.
        phase: ``"enter"`` or ``"exit"``.
        owner: the ``owner`` of the machine performing it (``ChartMachine(owner=...)``),
            so one handler can serve many machines; ``None`` if it has none. Not part of
            equality: two machines performing the same action perform equal calls.
    """

    type: str
    params: Mapping[str, ParamValue] = field(default_factory=lambda: MappingProxyType({}))
    state: str = ""
    phase: Phase = "enter"
    owner: Any = field(default=None, compare=False)

    def __str__(self) -> str:
        inside = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.phase} {self.state}: {self.type}({inside})"

    def __reduce__(self) -> tuple[Any, ...]:
        # A host may keep calls to perform later: they save with it (the read-only view of
        # the parameters does not pickle as it is).
        return (load_call, (self.type, dict(self.params), self.state, self.phase, self.owner))


def load_call(
    type: str, params: dict[str, ParamValue], state: str, phase: Phase, owner: Any
) -> ActionCall:
    """The loader of a saved action call (named in saves)."""
    return ActionCall(type, MappingProxyType(params), state, phase, owner)


Handler = Callable[[ActionCall], None]
"""What the host registers for an action type: called with the action's record."""
