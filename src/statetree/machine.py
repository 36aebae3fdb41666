"""StateMachine: the state stack and the book's processing algorithm."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from statetree.arguments import check_arguments
from statetree.errors import NotStartedError, TransitionTargetError, UsageError
from statetree.loops import KEPT_CHANGES, LoopWatch
from statetree.state import State
from statetree.trace import Step, StepKind, StepListener, TraceLevel, Tracer
from statetree.transition import INNER, INNER_ENTRY, SIBLING, Transition, sibling

__all__ = ["StateMachine"]

OwnerT = TypeVar("OwnerT")
S = TypeVar("S", bound=State[Any])

_PUSH_STEP = {SIBLING: StepKind.SIBLING, INNER: StepKind.INNER, INNER_ENTRY: StepKind.ENTRY}


class StateMachine(Generic[OwnerT]):
    """A hierarchical state machine: a stack of active states, outermost first.

    Args:
        initial: the state class pushed by the first ``process_state_transitions`` (or a
            transition such as ``st.sibling(First, arg)`` to give it arguments).
        owner: the object every state reaches as ``self.owner``.
        name: used in trace lines and error messages.
        trace: the trace level; lines go to ``trace_sink`` or the ``"statetree"`` logger.
        trace_sink: a callable receiving each trace line.
        max_transitions: how many stack changes one ``process_state_transitions`` call may
            make before it raises :class:`TransitionLoopError`.

    Raises:
        TransitionTargetError: ``initial`` is not a ``State`` subclass.
    """

    __slots__ = (
        "_busy",
        "_initial",
        "_overrides",
        "_stack",
        "_tracer",
        "max_transitions",
        "name",
        "owner",
    )

    def __init__(
        self,
        initial: type[State[OwnerT]] | Transition,
        owner: OwnerT = None,  # type: ignore[assignment]
        *,
        name: str = "",
        trace: TraceLevel = TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
        max_transitions: int = 1000,
    ) -> None:
        self._initial = initial if isinstance(initial, Transition) else sibling(initial)
        self.owner = owner
        self.name = name
        self.max_transitions = max_transitions
        self._stack: list[State[Any]] = []
        self._overrides: dict[type, type] | None = None
        self._busy = False
        tracer = Tracer(TraceLevel(trace), trace_sink)
        self._tracer: Tracer | None = None if tracer.idle else tracer

    # -- observation -----------------------------------------------------------------------

    def set_debug_info(self, name: str, level: TraceLevel) -> None:
        """Set the name used in trace lines and the trace level."""
        self.name = name
        self._retrace(level=TraceLevel(level))

    @property
    def trace_level(self) -> TraceLevel:
        """The current trace level."""
        return self._tracer.level if self._tracer else TraceLevel.NONE

    def add_listener(self, listener: StepListener) -> None:
        """Call ``listener`` with a :class:`Step` record for every change of the stack."""
        listeners = self._tracer.listeners if self._tracer else ()
        self._retrace(listeners=(*listeners, listener))

    def remove_listener(self, listener: StepListener) -> None:
        """Stop calling ``listener``.

        Raises:
            UsageError: ``listener`` was not added.
        """
        remaining = list(self._tracer.listeners if self._tracer else ())
        if listener not in remaining:
            raise UsageError(f"{listener!r} is not a listener of {self._label()}")
        remaining.remove(listener)
        self._retrace(listeners=tuple(remaining))

    def _retrace(self, **changes: Any) -> None:
        old = self._tracer or Tracer()
        tracer = Tracer(
            changes.get("level", old.level), old.sink, changes.get("listeners", old.listeners)
        )
        self._tracer = None if tracer.idle else tracer

    # -- state overrides -------------------------------------------------------------------

    def add_state_override(self, cls: type[State[Any]], override: type[State[Any]]) -> None:
        """Make ``get_state_override(cls)`` return ``override`` for this machine.

        Raises:
            TransitionTargetError: ``override`` is not a ``State`` subclass.
        """
        sibling(override)  # validates the class with the usual message
        if self._overrides is None:
            self._overrides = {}
        self._overrides[cls] = override

    def remove_state_override(self, cls: type[State[Any]]) -> None:
        """Forget the override of ``cls`` (no error if there is none)."""
        if self._overrides:
            self._overrides.pop(cls, None)

    def get_state_override(self, cls: type[S]) -> type[S]:
        """The class that overrides ``cls`` on this machine, or ``cls`` itself."""
        overrides = self._overrides
        return overrides.get(cls, cls) if overrides else cls

    # -- queries ---------------------------------------------------------------------------

    @property
    def stack(self) -> tuple[State[Any], ...]:
        """The active states, outermost first (empty before the first processing)."""
        return tuple(self._stack)

    @property
    def started(self) -> bool:
        """Whether the machine has active states."""
        return bool(self._stack)

    def get_state(self, cls: type[S]) -> S | None:
        """The outermost active instance of ``cls`` (subclasses included), or ``None``."""
        for state in self._stack:
            if isinstance(state, cls):
                return state
        return None

    def is_in_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is on the stack."""
        return self.get_state(cls) is not None

    # -- running ---------------------------------------------------------------------------

    def process_state_transitions(self) -> None:
        """Apply transitions, outermost state first, until the stack settles.

        After every change of the stack, processing starts again from the outermost state.

        Raises:
            TransitionLoopError: the stack changed more than ``max_transitions`` times.
            UsageError: called from inside one of this machine's hooks.
            Exception: whatever a state's hook raised, unchanged (see the errors guide for
                the state the stack is left in).
        """
        if self._busy:
            raise UsageError(self._reentry_message("process_state_transitions"))
        self._busy = True
        stack = self._stack
        try:
            if not stack:
                self._push(self._initial, 0, StepKind.INIT)
            changes = 0
            watch: LoopWatch | None = None
            # The book's loop, inlined because a settled frame runs it once per state:
            # passes from the outermost state until one pass changes nothing.
            while True:
                last = len(stack) - 1
                for depth, state in enumerate(stack):
                    chosen = state.transition()
                    if chosen is None:
                        continue
                    kind = chosen.kind
                    # Only an inner or inner-entry with an inner in place can leave the
                    # stack as it is: entry never replaces, inner keeps its own target.
                    if depth < last and (
                        kind is INNER_ENTRY
                        or (kind is INNER and stack[depth + 1].__class__ is chosen.target)
                    ):
                        continue
                    break
                else:
                    return
                changes += 1
                if changes > self.max_transitions - KEPT_CHANGES:
                    watch = LoopWatch.note(watch, self, chosen, changes)
                self._apply(chosen, depth)
        except AttributeError as error:
            _check_returned_transition(error, state, chosen)
            raise
        finally:
            self._busy = False

    def update_states(self, *args: Any, **kwargs: Any) -> None:
        """Call ``update(*args, **kwargs)`` on each active state, outermost first.

        Raises:
            NotStartedError: the machine has no active state yet.
            UsageError: called from inside one of this machine's hooks.
        """
        stack = self._stack
        if not stack:
            raise NotStartedError(
                f"update_states() on {self._label()}, which has no active state: call "
                "process_state_transitions() first (after stop(), call it again to restart)"
            )
        if self._busy:
            raise UsageError(self._reentry_message("update_states"))
        self._busy = True
        try:
            for state in stack:
                if state._st_update:
                    state.update(*args, **kwargs)
        finally:
            self._busy = False

    def stop(self) -> None:
        """Exit every active state, innermost first. The next processing starts again.

        Raises:
            UsageError: called from inside one of this machine's hooks.
        """
        if self._busy:
            raise UsageError(self._reentry_message("stop"))
        self._busy = True
        try:
            self._pop_to(0)
        finally:
            self._busy = False

    # -- the algorithm's pieces ------------------------------------------------------------

    def _apply(self, chosen: Transition, depth: int) -> None:
        if chosen.kind is SIBLING:
            self._pop_to(depth)
            self._push(chosen, depth, StepKind.SIBLING)
        else:
            self._pop_to(depth + 1)
            self._push(chosen, depth + 1, _PUSH_STEP[chosen.kind])

    def _push(self, chosen: Transition, depth: int, step: StepKind) -> None:
        cls = chosen.target
        state = cls()
        state.owner = self.owner
        state.machine = self
        state.depth = depth
        state._saved = None
        self._stack.append(state)
        if self._tracer is not None:
            self._tracer.record(Step(self.name, step, cls, depth))
        if cls._st_enter:
            try:
                state.on_enter(*chosen.args, **chosen.kwargs)
            except BaseException as error:
                # A state whose on_enter failed was never entered: drop it without on_exit.
                self._stack.pop()
                state._restore_values()
                if isinstance(error, TypeError):
                    check_arguments(chosen, error)
                raise

    def _pop_to(self, depth: int) -> None:
        stack = self._stack
        while len(stack) > depth:
            state = stack[-1]
            if self._tracer is not None:
                self._tracer.record(Step(self.name, StepKind.POP, type(state), state.depth))
            try:
                if state._st_exit:
                    state.on_exit()
            finally:
                # Even when on_exit raises, the state counts as exited: it leaves the stack
                # and gives back its state values, so the stack only holds entered states.
                stack.pop()
                state._restore_values()

    def _label(self) -> str:
        return f"machine {self.name!r}" if self.name else "the machine"

    def _reentry_message(self, call: str) -> str:
        return (
            f"{call}() called on {self._label()} while it is already running one of its "
            "states' hooks; hooks must not drive their own machine. Set data the states "
            "read, return a transition, or defer the call to after this one returns"
        )

    def __repr__(self) -> str:
        names = ", ".join(type(state).__qualname__ for state in self._stack)
        return f"<StateMachine {self.name!r} [{names}]>"


def _check_returned_transition(error: AttributeError, state: State[Any], chosen: object) -> None:
    """Turn the AttributeError of reading ``chosen.kind`` into a clear error.

    An AttributeError raised in ``process_state_transitions``'s own frame (its traceback
    has no deeper entry) can only come from reading ``chosen.kind``: ``transition()``
    returned something else than a Transition. Checking after the fact keeps that test off
    the per-frame path; errors from user code (deeper frames) propagate unchanged.

    Raises:
        TransitionTargetError: ``chosen`` is not a transition.
    """
    if error.__traceback__ is not None and error.__traceback__.tb_next is None:
        raise TransitionTargetError(
            f"{type(state).__qualname__}.transition() returned {chosen!r}; return "
            "st.sibling(...), st.inner(...), st.inner_entry(...) or None"
        ) from None
