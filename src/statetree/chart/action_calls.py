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

__all__ = ["ActionCall", "Handler", "Phase"]

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


Handler = Callable[[ActionCall], None]
"""What the host registers for an action type: called with the action's record."""
