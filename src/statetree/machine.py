"""StateMachine: the state stack and the book's processing algorithm."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from statetree.arguments import check_arguments
from statetree.errors import NotStartedError, TransitionTargetError, UsageError
from statetree.loops import KEPT_CHANGES, LoopWatch
from statetree.state import State
from statetree.trace import Step, StepKind, StepListener, TraceLevel, Tracer
from statetree.transition import CONCURRENT, INNER, SIBLING, Transition, sibling
from statetree.tree import Regions, Stack, ancestors, descendants, immediate_inners, walk

__all__ = ["StateMachine"]

OwnerT = TypeVar("OwnerT")
S = TypeVar("S", bound=State[Any])

_PUSH_STEP = {SIBLING: StepKind.SIBLING, INNER: StepKind.INNER}
DEFAULT_MAX_TRANSITIONS = 1000


class _Extras:
    """What few machines use, kept out of every machine's own footprint."""

    __slots__ = ("max_transitions", "overrides", "regions", "tracer")

    def __init__(self) -> None:
        self.tracer: Tracer | None = None
        self.overrides: dict[type, type] = {}
        self.regions: Regions = {}
        self.max_transitions = DEFAULT_MAX_TRANSITIONS


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

    __slots__ = ("_busy", "_extras", "_initial", "_stack", "name", "owner")

    def __init__(
        self,
        initial: type[State[OwnerT]] | Transition,
        owner: OwnerT = None,  # type: ignore[assignment]
        *,
        name: str = "",
        trace: TraceLevel = TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
    ) -> None:
        self._initial = initial if isinstance(initial, Transition) else sibling(initial)
        self.owner = owner
        self.name = name
        self._stack: Stack = []
        self._busy = False
        self._extras: _Extras | None = None
        if max_transitions != DEFAULT_MAX_TRANSITIONS:
            self.max_transitions = max_transitions
        tracer = Tracer(TraceLevel(trace), trace_sink)
        if not tracer.idle:
            self._extra().tracer = tracer

    def _extra(self) -> _Extras:
        if self._extras is None:
            self._extras = _Extras()
        return self._extras

    @property
    def max_transitions(self) -> int:
        """How many stack changes one processing call may make before it raises."""
        return self._extras.max_transitions if self._extras else DEFAULT_MAX_TRANSITIONS

    @max_transitions.setter
    def max_transitions(self, bound: int) -> None:
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
        old = (self._extras.tracer if self._extras else None) or Tracer()
        tracer = Tracer(
            changes.get("level", old.level), old.sink, changes.get("listeners", old.listeners)
        )
        self._extra().tracer = None if tracer.idle else tracer

    # -- state overrides -------------------------------------------------------------------

    def add_state_override(self, cls: type[State[Any]], override: type[State[Any]]) -> None:
        """Make ``get_state_override(cls)`` return ``override`` for this machine.

        Raises:
            TransitionTargetError: ``override`` is not a ``State`` subclass.
        """
        sibling(override)  # validates the class with the usual message
        self._extra().overrides[cls] = override

    def remove_state_override(self, cls: type[State[Any]]) -> None:
        """Forget the override of ``cls`` (no error if there is none)."""
        if self._extras:
            self._extras.overrides.pop(cls, None)

    def get_state_override(self, cls: type[State[Any]]) -> type[State[Any]]:
        """The class that overrides ``cls`` on this machine, or ``cls`` itself."""
        return self._extras.overrides.get(cls, cls) if self._extras else cls

    # -- queries ---------------------------------------------------------------------------

    @property
    def stack(self) -> tuple[State[Any], ...]:
        """The active states, outermost first; regions follow their host, depth first."""
        return tuple(self.walk())

    def walk(self) -> list[State[Any]]:
        """The active states in processing order (as ``stack``, without the tuple copy)."""
        regions = self._regions()
        return list(walk(self._stack, regions)) if regions else self._stack.copy()

    def regions(self, host: State[Any]) -> tuple[tuple[State[Any], ...], ...]:
        """The region stacks of ``host`` (empty unless it entered ``st.concurrent``)."""
        return tuple(tuple(region) for region in self._regions().get(host, ()))

    @property
    def started(self) -> bool:
        """Whether the machine has active states."""
        return bool(self._stack)

    def get_state(self, cls: type[S]) -> S | None:
        """The first active instance of ``cls`` (subclasses included), or ``None``."""
        for state in self.walk() if self._regions() else self._stack:
            if isinstance(state, cls):
                return state
        return None

    def is_in_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is active."""
        return self.get_state(cls) is not None

    def _regions(self) -> Regions:
        return self._extras.regions if self._extras else {}

    def _outer_of(self, state: State[Any]) -> list[State[Any]]:
        stack = self._stack
        depth = state.depth
        if depth < len(stack) and stack[depth] is state:
            return stack[:depth]
        return ancestors(state, stack, self._regions())

    def _inner_of(self, state: State[Any]) -> list[State[Any]]:
        stack = self._stack
        depth = state.depth
        if not self._regions() and depth < len(stack) and stack[depth] is state:
            return stack[depth + 1 :]
        return list(descendants(state, stack, self._regions()))

    def _immediate_inner_of(self, state: State[Any]) -> list[State[Any]]:
        stack = self._stack
        depth = state.depth + 1
        if not self._regions():
            return stack[depth : depth + 1]
        return immediate_inners(state, stack, self._regions())

    def _holds(self, state: State[Any]) -> bool:
        depth = state.depth
        stack = self._stack
        if depth < len(stack) and stack[depth] is state:
            return True
        return any(s is state for s in walk(stack, self._regions()))

    # -- running ---------------------------------------------------------------------------

    def process_state_transitions(self) -> None:
        """Apply transitions, outermost state first, until the stack settles.

        After every change of the stack (or of a region's stack), processing starts again
        from the outermost state.

        Raises:
            TransitionLoopError: the stack changed more than ``max_transitions`` times.
            UsageError: called from inside one of this machine's hooks.
            Exception: whatever a state's hook raised, unchanged (see the errors guide for
                the state the stack is left in).
        """
        if self._busy:
            raise UsageError(self._reentry_message("process_state_transitions"))
        self._busy = True
        try:
            if not self._stack:
                self._push(self._stack, 0, self._initial, StepKind.INIT)
            changes = 0
            watch: LoopWatch | None = None
            found = self._first_change(self._stack)
            while found is not None:
                changes += 1
                if changes > self.max_transitions - KEPT_CHANGES:
                    watch = LoopWatch.note(watch, self, found[0], changes)
                self._apply(*found)
                found = self._first_change(self._stack)
        finally:
            self._busy = False

    def _first_change(self, stack: Stack) -> tuple[Transition, Stack, int] | None:
        """One pass of the book's ProcessStateTransitionsOnce, without changing anything.

        Returns the first transition, outermost first, that would change ``stack`` (or a
        region of its last state), with the stack and index of the state that chose it.
        """
        last = len(stack) - 1
        for index, state in enumerate(stack):
            chosen = state.transition()
            if chosen is None:
                continue
            try:
                kind = chosen.kind
            except AttributeError:
                _not_a_transition(state, chosen)
            if kind is INNER:
                if index < last and stack[index + 1].__class__ is chosen.target:
                    continue
            elif kind is not SIBLING and (index < last or self._has_regions(state)):
                continue  # inner_entry and concurrent only act when there is no inner
            return chosen, stack, index
        extras = self._extras
        if extras is not None and extras.regions and stack:
            return self._first_change_in_regions(stack[-1], extras.regions)
        return None

    def _has_regions(self, state: State[Any]) -> bool:
        extras = self._extras
        return extras is not None and state in extras.regions

    def _first_change_in_regions(
        self, host: State[Any], regions: Regions
    ) -> tuple[Transition, Stack, int] | None:
        for region in regions.get(host, ()):
            found = self._first_change(region)
            if found is not None:
                return found
        return None

    def update_states(self, *args: Any, **kwargs: Any) -> None:
        """Call ``update(*args, **kwargs)`` on each active state, outermost first.

        Raises:
            NotStartedError: the machine has no active state yet.
            UsageError: called from inside one of this machine's hooks.
        """
        if not self._stack:
            raise NotStartedError(
                f"update_states() on {self._label()}, which has no active state: call "
                "process_state_transitions() first (after stop(), call it again to restart)"
            )
        if self._busy:
            raise UsageError(self._reentry_message("update_states"))
        self._busy = True
        try:
            for state in self.walk() if self._regions() else self._stack:
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
            self._pop_to(self._stack, 0)
        finally:
            self._busy = False

    # -- changing the stack ----------------------------------------------------------------

    def _apply(self, chosen: Transition, stack: Stack, index: int) -> None:
        kind = chosen.kind
        if kind is SIBLING:
            depth = stack[index].depth
            self._pop_to(stack, index)
            self._push(stack, depth, chosen, StepKind.SIBLING)
            return
        host = stack[index]
        self._pop_to(stack, index + 1)
        if kind is CONCURRENT:
            self._enter_regions(host, chosen)
        else:
            self._push(stack, host.depth + 1, chosen, _PUSH_STEP.get(kind, StepKind.ENTRY))

    def _enter_regions(self, host: State[Any], chosen: Transition) -> None:
        stacks: list[Stack] = []
        self._extra().regions[host] = stacks
        for root in chosen.regions:
            region: Stack = []
            stacks.append(region)
            self._push(region, host.depth + 1, sibling(root), StepKind.REGION)

    def _push(self, stack: Stack, depth: int, chosen: Transition, step: StepKind) -> None:
        cls = chosen.target
        state = cls()
        state.owner = self.owner
        state.machine = self
        state.depth = depth
        state._saved = None
        stack.append(state)
        tracer = self._extras.tracer if self._extras else None
        if tracer is not None:
            tracer.record(Step(self.name, step, cls, depth))
        if cls._st_enter:
            try:
                state.on_enter(*chosen.args, **chosen.kwargs)
            except BaseException as error:
                # A state whose on_enter failed was never entered: drop it without on_exit.
                stack.pop()
                state._restore_values()
                if isinstance(error, TypeError):
                    check_arguments(chosen, error)
                raise

    def _pop_to(self, stack: Stack, size: int) -> None:
        """Exit states from the end of ``stack`` until it holds ``size``, innermost first."""
        while len(stack) > size:
            state = stack[-1]
            extras = self._extras
            if extras is not None:
                self._exit_regions(state, extras)
                if extras.tracer is not None:
                    step = Step(self.name, StepKind.POP, type(state), state.depth)
                    extras.tracer.record(step)
            try:
                if state._st_exit:
                    state.on_exit()
            finally:
                # Even when on_exit raises, the state counts as exited: it leaves the stack
                # and gives back its state values, so the stack only holds entered states.
                stack.pop()
                state._restore_values()

    def _exit_regions(self, host: State[Any], extras: _Extras) -> None:
        """Exit ``host``'s regions, last region first, each innermost first."""
        stacks = extras.regions.get(host)
        if stacks is None:
            return
        for region in reversed(stacks):
            self._pop_to(region, 0)
        del extras.regions[host]

    def _label(self) -> str:
        return f"machine {self.name!r}" if self.name else "the machine"

    def _reentry_message(self, call: str) -> str:
        return (
            f"{call}() called on {self._label()} while it is already running one of its "
            "states' hooks; hooks must not drive their own machine. Set data the states "
            "read, return a transition, or defer the call to after this one returns"
        )

    def __repr__(self) -> str:
        names = ", ".join(type(state).__qualname__ for state in self.walk())
        return f"<StateMachine {self.name!r} [{names}]>"


def _not_a_transition(state: State[Any], returned: object) -> None:
    raise TransitionTargetError(
        f"{type(state).__qualname__}.transition() returned {returned!r}; return "
        "st.sibling(...), st.inner(...), st.inner_entry(...), st.concurrent(...) or None"
    ) from None
