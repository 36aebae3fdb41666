"""The parts of a machine that few machines use: tracing, overrides, causes, bounds.

They live in one optional object per machine, created on first use, so a plain machine
stays small (thousands of NPCs each own one).
"""

from __future__ import annotations

import contextlib
import operator
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, SupportsIndex

from statetree.core.cause import Cause, require_cause
from statetree.core.events import caused_by, find_event
from statetree.core.state import State
from statetree.core.state_value import StateValue
from statetree.core.trace import StepListener, TraceLevel, Tracer, trace_level
from statetree.core.transition import Transition
from statetree.core.tree import Regions, walk
from statetree.errors import TransitionTargetError, UsageError, require_name

__all__ = ["DEFAULT_MAX_TRANSITIONS", "Extras", "Options"]

DEFAULT_MAX_TRANSITIONS = 1000

# Tools on other threads (the inspector's server) attach and remove listeners while the
# program runs the machine: every change of a machine's configuration holds this lock, and
# the machine reads each setting once per use, so it sees the old or the new one, whole.
_CONFIGURING = threading.RLock()


class Extras:
    """What few machines use, kept out of every machine's own footprint."""

    __slots__ = (
        "cause",
        "events",
        "max_transitions",
        "overrides",
        "regions",
        "saved",
        "sink",
        "timers",
        "tracer",
    )

    def __init__(self) -> None:
        self.cause = Cause.TRANSITION
        self.tracer: Tracer | None = None
        self.sink: Callable[[str], None] | None = None
        self.overrides: dict[type, type] = {}
        self.regions: Regions = {}
        # The state values each active state changed (by the state's id, since a state
        # class may define __eq__), in the order it first changed them.
        self.saved: dict[int, list[StateValue[Any]]] = {}
        self.max_transitions = DEFAULT_MAX_TRANSITIONS
        self.events: list[object] = []  # posted, not yet taken nor discarded
        # Time in each active state (by id), when the machine tracks it; else None.
        self.timers: dict[int, float] | None = None

    def restore_values(self, state: State[Any]) -> None:
        """``state`` left the stack: give back the values it changed, last changed first."""
        changed = self.saved.pop(id(state), None)
        if changed:
            for state_value in changed[::-1]:
                state_value._release(state)


class Options:
    """The base of :class:`StateMachine`: its data, and the configuration kept in its
    optional ``Extras``."""

    # Thousands of entities each own a machine: it keeps its stack, its owner, the thread
    # running one of its calls (0 when idle), its initial transition and its extras.
    __slots__ = ("__weakref__", "_busy", "_extras", "_owner", "_stack", "_start")

    _owner: Any
    _stack: list[State[Any]]
    _busy: int
    _extras: Extras | None
    # The initial transition, or (initial transition, name) for a named machine: one slot
    # for both, so that the thousands of unnamed machines of a crowd pay for no name.
    _start: Transition | tuple[Transition, str]

    @property
    def name(self) -> str:
        """The machine's name in trace lines and error messages (``""``: none)."""
        start = self._start
        return start[1] if isinstance(start, tuple) else ""

    @name.setter
    def name(self, name: str) -> None:
        self._begin(self._initial, name)

    @property
    def _initial(self) -> Transition:
        start = self._start
        return start[0] if isinstance(start, tuple) else start

    def _begin(self, initial: Transition, name: str) -> None:
        """Keep ``initial`` (what the next start enters) and ``name``.

        Raises:
            UsageError: ``name`` is not a string.
        """
        if type(name) is not str:
            require_name(name)
        self._start = (initial, name) if name else initial

    def _fresh(self, initial: Transition, name: str, owner: Any, stack: list[State[Any]]) -> None:
        """Set every field of a machine idle and without extras (a new one, or a loaded one
        before its extras). One call, so that compiled the fields are written directly,
        where the ``__init__`` of a Python subclass sets each through its descriptor."""
        self._begin(initial, name)
        self._owner = owner
        self._stack = stack
        self._busy = 0
        self._extras = None

    @property
    def owner(self) -> Any:
        """The object every state reaches as ``self.owner``; set, it reaches the active
        states too (those entered later get it when pushed)."""
        return self._owner

    @owner.setter
    def owner(self, owner: Any) -> None:
        self._owner = owner
        extras = self._extras
        for state in walk(self._stack, extras.regions if extras is not None else {}):
            state.owner = owner

    def _extra(self) -> Extras:
        if self._extras is None:
            with _CONFIGURING:  # only one of two threads may create them
                if self._extras is None:
                    self._extras = Extras()
        return self._extras

    @property
    def max_transitions(self) -> int:
        """How many stack changes one processing call may make before it raises."""
        return self._extras.max_transitions if self._extras else DEFAULT_MAX_TRANSITIONS

    @max_transitions.setter
    def max_transitions(self, bound: SupportsIndex) -> None:
        self._bound_changes(bound)

    def _bound_changes(self, bound: SupportsIndex) -> None:
        # A method rather than the setter itself: the compiled core cannot assign a
        # property whose setter takes a wider type than its getter returns.
        if isinstance(bound, bool) or not hasattr(bound, "__index__"):
            raise UsageError(
                f"max_transitions must be a whole number of changes, at least 1; got {bound!r} "
                f"({type(bound).__name__})"
            )
        whole = operator.index(bound)
        if whole < 1:
            raise UsageError(f"max_transitions must be at least 1, got {whole}")
        if whole > sys.maxsize:  # the compiled core counts changes in a C integer
            raise UsageError(f"max_transitions must be at most {sys.maxsize:,}, got {whole}")
        self._extra().max_transitions = whole

    # -- observation -----------------------------------------------------------------------

    def set_debug_info(self, name: str, level: TraceLevel) -> None:
        """Set the name used in trace lines and the trace level.

        Raises:
            UsageError: ``level`` is no trace level, or ``name`` no string (nothing
                changed).
        """
        chosen = trace_level(level)
        self.name = name
        self._retrace(level=chosen)

    @property
    def trace_level(self) -> TraceLevel:
        """The current trace level."""
        tracer = self._extras.tracer if self._extras else None
        return tracer.level if tracer else TraceLevel.NONE

    def add_listener(self, listener: StepListener) -> None:
        """Call ``listener`` with a :class:`Step` record for every change of the stack.

        Safe to call from another thread while the machine processes: each change is
        reported to the listeners attached when it is made.

        Raises:
            UsageError: ``listener`` is not callable.
        """
        if not callable(listener):
            raise UsageError(
                f"add_listener({listener!r}) on {self._label()}: a listener must be callable "
                f"with one Step, got {type(listener).__name__}"
            )
        with _CONFIGURING:
            self._retrace(listeners=(*self._listeners(), listener))

    def remove_listener(self, listener: StepListener) -> None:
        """Stop calling ``listener``.

        Raises:
            UsageError: ``listener`` was not added.
        """
        with _CONFIGURING:
            remaining = list(self._listeners())
            if listener not in remaining:
                raise UsageError(f"{listener!r} is not a listener of {self._label()}")
            remaining.remove(listener)
            self._retrace(listeners=tuple(remaining))

    def _listeners(self) -> tuple[StepListener, ...]:
        tracer = self._extras.tracer if self._extras else None
        return tracer.listeners if tracer else ()

    def _retrace(self, **changes: Any) -> None:
        """Rebuild the tracer from the current settings with ``changes`` applied.

        The machine holds its tracer in one attribute, replaced whole, never changed.
        """
        with _CONFIGURING:
            self._replace_tracer(changes)

    def _replace_tracer(self, changes: dict[str, Any]) -> None:
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
        """Forget the override of ``cls`` (no error if there is none).

        Raises:
            TransitionTargetError: ``cls`` is not a ``State`` subclass.
        """
        if not (isinstance(cls, type) and issubclass(cls, State)):
            raise TransitionTargetError(
                f"remove_state_override({cls!r}): the argument must be a State subclass"
            )
        if self._extras:
            self._extras.overrides.pop(cls, None)

    def get_state_override(self, cls: type[State[Any]]) -> type[State[Any]]:
        """The class that overrides ``cls`` on this machine, or ``cls`` itself.

        Raises:
            TransitionTargetError: ``cls`` is not a class.
        """
        if not isinstance(cls, type):  # a class check costs less than a dict's hash error
            raise TransitionTargetError(
                f"get_state_override({cls!r}): the argument must be a State subclass"
            )
        return self._extras.overrides.get(cls, cls) if self._extras else cls

    # -- one-shot events and time in state ---------------------------------------------------

    @property
    def events(self) -> tuple[object, ...]:
        """The events posted and not yet taken nor discarded, oldest first."""
        return tuple(self._extras.events) if self._extras else ()

    @property
    def tracks_time(self) -> bool:
        """Whether the machine keeps each active state's time (``time_in_state=True``)."""
        return self._extras is not None and self._extras.timers is not None

    def _track_time(self) -> None:
        self._extra().timers = {}

    def _event(self, kind: object, take: bool) -> Any:
        if kind is None:
            raise UsageError(
                f"{'take' if take else 'received'}(None) on {self._label()}: None is not an "
                "event kind; give a class, a string, an enum member or a value"
            )
        extras = self._extras
        if extras is None or not extras.events:
            return None
        try:
            return find_event(extras.events, kind, take)
        except UsageError as error:  # an event that compares with no truth value
            call = f"{'take' if take else 'received'}({kind!r})"
            cause = error.__cause__
            raise caused_by(UsageError(f"{call} on {self._label()}: {error}"), cause) from cause

    def _time_in(self, state: State[Any]) -> float:
        timers = self._extras.timers if self._extras else None
        if timers is None:
            raise UsageError(
                f"time_in_state read on {self._label()}, which does not track it: create "
                "the machine with StateMachine(..., time_in_state=True)"
            )
        spent = timers.get(id(state))
        if spent is None:
            raise UsageError(f"{state!r} is not active in {self._label()}: it has no time")
        return spent

    @property
    def cause(self) -> Cause:
        """Why states are being entered or exited right now (see :class:`Cause`)."""
        return self._extras.cause if self._extras else Cause.TRANSITION

    @contextlib.contextmanager
    def caused_by(self, cause: Cause) -> Iterator[None]:
        """Within the block, hooks see ``cause`` as the reason they run.

        Raises:
            UsageError: ``cause`` is not a :class:`Cause`.
        """
        require_cause(cause, f"caused_by({cause!r}) on {self._label()}")
        extras = self._extra()
        previous, extras.cause = extras.cause, cause
        try:
            yield
        finally:
            extras.cause = previous

    def _label(self) -> str:
        return f"machine {self.name!r}" if self.name else "the machine"
