"""The parts of a machine that few machines use: tracing, overrides, causes, bounds.

They live in one optional object per machine, created on first use, so a plain machine
stays small (thousands of NPCs each own one).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from statetree.core.cause import Cause
from statetree.core.state import State
from statetree.core.trace import StepListener, TraceLevel, Tracer
from statetree.core.tree import Regions
from statetree.errors import TransitionTargetError, UsageError

__all__ = ["DEFAULT_MAX_TRANSITIONS", "Extras", "Options"]

DEFAULT_MAX_TRANSITIONS = 1000

_CREATING = threading.Lock()


class Extras:
    """What few machines use, kept out of every machine's own footprint."""

    __slots__ = ("cause", "max_transitions", "overrides", "regions", "sink", "tracer")

    def __init__(self) -> None:
        self.cause = Cause.TRANSITION
        self.tracer: Tracer | None = None
        self.sink: Callable[[str], None] | None = None
        self.overrides: dict[type, type] = {}
        self.regions: Regions = {}
        self.max_transitions = DEFAULT_MAX_TRANSITIONS


class Options:
    """Mixin of :class:`StateMachine`: configuration kept in its optional ``Extras``."""

    __slots__ = ("_extras", "name")

    _extras: Extras | None
    name: str

    def _extra(self) -> Extras:
        if self._extras is None:
            # A tool on another thread (the inspector's server) may attach a listener while
            # the program configures the machine: only one of them may create the extras.
            with _CREATING:
                if self._extras is None:
                    self._extras = Extras()
        return self._extras

    @property
    def max_transitions(self) -> int:
        """How many stack changes one processing call may make before it raises."""
        return self._extras.max_transitions if self._extras else DEFAULT_MAX_TRANSITIONS

    @max_transitions.setter
    def max_transitions(self, bound: int) -> None:
        if bound < 1:
            raise UsageError(f"max_transitions must be at least 1, got {bound}")
        self._extra().max_transitions = bound

    # -- observation -----------------------------------------------------------------------

    def set_debug_info(self, name: str, level: TraceLevel) -> None:
        """Set the name used in trace lines and the trace level."""
        self.name = name
        self._retrace(level=TraceLevel(level))

    @property
    def trace_level(self) -> TraceLevel:
        """The current trace level."""
        tracer = self._extras.tracer if self._extras else None
        return tracer.level if tracer else TraceLevel.NONE

    def add_listener(self, listener: StepListener) -> None:
        """Call ``listener`` with a :class:`Step` record for every change of the stack."""
        self._retrace(listeners=(*self._listeners(), listener))

    def remove_listener(self, listener: StepListener) -> None:
        """Stop calling ``listener``.

        Raises:
            UsageError: ``listener`` was not added.
        """
        remaining = list(self._listeners())
        if listener not in remaining:
            raise UsageError(f"{listener!r} is not a listener of {self._label()}")
        remaining.remove(listener)
        self._retrace(listeners=tuple(remaining))

    def _listeners(self) -> tuple[StepListener, ...]:
        tracer = self._extras.tracer if self._extras else None
        return tracer.listeners if tracer else ()

    def _retrace(self, **changes: Any) -> None:
        """Rebuild the tracer from the current settings with ``changes`` applied."""
        extras = self._extras
        old = (extras.tracer if extras else None) or Tracer()
        sink = extras.sink if extras else None
        tracer = Tracer(
            changes.get("level", old.level), sink, changes.get("listeners", old.listeners)
        )
        if not tracer.idle:
            self._extra().tracer = tracer
        elif extras is not None:
            extras.tracer = None

    # -- state overrides -------------------------------------------------------------------

    def add_state_override(self, cls: type[State[Any]], override: type[State[Any]]) -> None:
        """Make ``get_state_override(cls)`` return ``override`` for this machine.

        Raises:
            TransitionTargetError: ``cls`` or ``override`` is not a ``State`` subclass.
        """
        for given in (cls, override):
            if not (isinstance(given, type) and issubclass(given, State)):
                raise TransitionTargetError(
                    f"add_state_override({cls!r}, {override!r}): both arguments must be "
                    f"State subclasses, got {given!r}"
                )
        self._extra().overrides[cls] = override

    def remove_state_override(self, cls: type[State[Any]]) -> None:
        """Forget the override of ``cls`` (no error if there is none)."""
        if self._extras:
            self._extras.overrides.pop(cls, None)

    def get_state_override(self, cls: type[State[Any]]) -> type[State[Any]]:
        """The class that overrides ``cls`` on this machine, or ``cls`` itself."""
        return self._extras.overrides.get(cls, cls) if self._extras else cls

    @property
    def cause(self) -> Cause:
        """Why states are being entered or exited right now (see :class:`Cause`)."""
        return self._extras.cause if self._extras else Cause.TRANSITION

    @contextlib.contextmanager
    def caused_by(self, cause: Cause) -> Iterator[None]:
        """Within the block, hooks see ``cause`` as the reason they run."""
        extras = self._extra()
        previous, extras.cause = extras.cause, cause
        try:
            yield
        finally:
            extras.cause = previous

    def _label(self) -> str:
        return f"machine {self.name!r}" if self.name else "the machine"
