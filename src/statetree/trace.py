"""Tracing: what a machine did, as records (:class:`Step`) and as the book's text lines."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from statetree.state import State

__all__ = ["Step", "StepKind", "TraceLevel", "format_step", "logger"]

logger = logging.getLogger("statetree")
"""Trace lines go here (at INFO level) when a machine has no ``trace_sink``."""


class TraceLevel(enum.IntEnum):
    """How much a machine traces: NONE, BASIC (transitions) or DIAGNOSTIC (plus pops)."""

    NONE = 0
    BASIC = 1
    DIAGNOSTIC = 2


class StepKind(enum.Enum):
    """What one change of the stack was, with the label and level of its trace line."""

    INIT = ("Init", 1)
    ENTRY = ("Entry", 1)
    INNER = ("Inner", 1)
    SIBLING = ("Sibling", 1)
    POP = ("Pop", 2)

    def __init__(self, label: str, level: int) -> None:
        self.label = label
        self.level = level


@dataclass(frozen=True, slots=True)
class Step:
    """One change of a machine's stack: a state pushed (by a transition kind) or popped.

    Attributes:
        machine: the machine's name.
        kind: what happened.
        state: the class of the state pushed or popped.
        depth: its depth on the stack (0 is outermost).
    """

    machine: str
    kind: StepKind
    state: type[State[Any]]
    depth: int


def format_step(step: Step) -> str:
    """The book's trace line for ``step``, e.g. ``HSM_1_Hero:  Entry   : States.Move``."""
    indent = " " * step.depth
    label = f"{step.kind.label:<8}"
    return f"HSM_{step.kind.level}_{step.machine}: {indent}{label}: {step.state.__qualname__}"


StepListener = Callable[[Step], None]
"""A callable that receives every :class:`Step` of a machine it listens to."""
