"""Tracing: what a machine did, as records (:class:`Step`) and as the book's text lines."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from statetree.errors import UsageError

if TYPE_CHECKING:
    from statetree.core.state import State

__all__ = ["Step", "StepKind", "TraceLevel", "Tracer", "format_step", "logger", "trace_level"]

logger = logging.getLogger("statetree")
"""Trace lines go here (at INFO level) when a machine has no ``trace_sink``."""


class TraceLevel(enum.IntEnum):
    """How much a machine traces: NONE, BASIC (transitions) or DIAGNOSTIC (plus pops)."""

    NONE = 0
    BASIC = 1
    DIAGNOSTIC = 2


def trace_level(value: object) -> TraceLevel:
    """``value`` as a trace level (a :class:`TraceLevel`, or its number).

    Raises:
        UsageError: ``value`` is no trace level.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return TraceLevel(value)
        except ValueError:
            pass
    names = ", ".join(f"TraceLevel.{level.name}" for level in TraceLevel)
    raise UsageError(f"a trace level is one of {names}, got {value!r}")


class StepKind(enum.Enum):
    """What one change of the stack was; ``label`` and ``level`` are those of its trace line."""

    INIT = "Init"
    ENTRY = "Entry"
    INNER = "Inner"
    SIBLING = "Sibling"
    REGION = "Region"
    POP = "Pop"

    @property
    def label(self) -> str:
        """The word of the trace line, e.g. ``"Sibling"``."""
        return str(self.value)

    @property
    def level(self) -> int:
        """The trace level that shows it: pops at DIAGNOSTIC, the others at BASIC."""
        return TraceLevel.DIAGNOSTIC if self is StepKind.POP else TraceLevel.BASIC


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
    """The book's trace line for ``step``, e.g. ``HSM_1_Hero:  Entry   : States.Move``.

    Raises:
        UsageError: ``step`` is not a :class:`Step`.
    """
    if not isinstance(step, Step):
        raise UsageError(f"format_step() formats a Step (what listeners receive), got {step!r}")
    indent = " " * step.depth
    label = f"{step.kind.label:<8}"
    return f"HSM_{step.kind.level}_{step.machine}: {indent}{label}: {step.state.__qualname__}"


StepListener = Callable[[Step], None]
"""A callable that receives every :class:`Step` of a machine it listens to."""


class Tracer:
    """Where a machine's steps go: trace lines at a level, and listeners.

    A machine holds one only while something observes it, so an unobserved machine pays a
    single ``is None`` test per change of its stack.
    """

    __slots__ = ("level", "listeners", "sink")

    def __init__(
        self,
        level: TraceLevel = TraceLevel.NONE,
        sink: Callable[[str], None] | None = None,
        listeners: tuple[StepListener, ...] = (),
    ) -> None:
        self.level = level
        self.sink = sink
        self.listeners = listeners

    @property
    def idle(self) -> bool:
        """Whether nothing would be traced or notified."""
        return self.level is TraceLevel.NONE and not self.listeners

    def record(self, step: Step) -> None:
        """Write ``step``'s trace line if the level asks for it, then notify listeners."""
        if self.level >= step.kind.level:
            line = format_step(step)
            if self.sink is not None:
                self.sink(line)
            else:
                logger.info(line)
        for listener in self.listeners:
            listener(step)
