"""StateMachine: the state stack and the book's processing algorithm."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

from statetree.core.arguments import check_arguments
from statetree.core.loops import KEPT_CHANGES, LoopWatch
from statetree.core.options import DEFAULT_MAX_TRANSITIONS, Extras, Options
from statetree.core.state import State
from statetree.core.trace import Step, StepKind, TraceLevel
from statetree.core.transition import (
    CONCURRENT,
    INNER,
    INNER_ENTRY,
    SIBLING,
    Transition,
    TransitionKind,
    sibling,
)
from statetree.core.tree import (
    Regions,
    Stack,
    ancestors,
    descendants,
    home_of,
    immediate_inners,
    walk,
)
from statetree.errors import NotStartedError, TransitionTargetError, UsageError

__all__ = ["StateMachine"]

OwnerT = TypeVar("OwnerT")
S = TypeVar("S", bound=State[Any])

# Enum member lookups cost about 100 ns each on CPython 3.11; the hot paths use these names.
_INIT, _ENTRY, _INNER, _SIBLING, _REGION, _POP = (
    StepKind.INIT,
    StepKind.ENTRY,
    StepKind.INNER,
    StepKind.SIBLING,
    StepKind.REGION,
    StepKind.POP,
)


class StateMachine(Options, Generic[OwnerT]):
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

    __slots__ = ("_busy", "_initial", "_stack", "owner")

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
        self.initial = initial
        self.owner = owner
        self.name = name
        self._stack: Stack = []
        self._busy = False
        self._extras: Extras | None = None
        if max_transitions != DEFAULT_MAX_TRANSITIONS:
            self.max_transitions = max_transitions
        if trace_sink is not None:
            self._extra().sink = trace_sink
        if trace is not TraceLevel.NONE:
            self._retrace(level=TraceLevel(trace))

    # -- queries ---------------------------------------------------------------------------

    @property
    def initial(self) -> Transition:
        """The transition that enters the first state (a sibling to the initial class).

        Assign a state class or a transition to change what the next start enters (a hot
        reload that replaces the root state does).
        """
        return self._initial

    @initial.setter
    def initial(self, initial: type[State[Any]] | Transition) -> None:
        self._initial = initial if isinstance(initial, Transition) else sibling(initial)

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
        self._locate(state)
        return ancestors(state, stack, self._regions())

    def _inner_of(self, state: State[Any]) -> list[State[Any]]:
        stack = self._stack
        depth = state.depth
        if not self._regions() and depth < len(stack) and stack[depth] is state:
            return stack[depth + 1 :]
        self._locate(state)
        return list(descendants(state, stack, self._regions()))

    def _immediate_inner_of(self, state: State[Any]) -> list[State[Any]]:
        self._locate(state)
        return immediate_inners(state, self._stack, self._regions())

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
        stack = self._stack
        try:
            if not stack:
                self._push(stack, 0, self._initial, _INIT)
            if self._extras is not None:
                self._settle(self._first_change(stack))
                return
            # Plain machines (no regions, tracing or options) check the first pass inline:
            # a settled frame, the common case, then costs one loop and no call. The
            # decision is _first_change's with no regions to consider.
            innermost = stack[-1]
            for state in stack:
                chosen = state.transition()
                if chosen is None:
                    continue
                if state is not innermost:
                    kind = chosen.kind
                    if kind is INNER_ENTRY or kind is CONCURRENT:
                        continue
                    if kind is INNER and stack[stack.index(state) + 1].__class__ is chosen.target:
                        continue
                self._settle((chosen, stack, stack.index(state)))
                return
        except AttributeError as error:
            _check_returned_transition(error)
            raise
        finally:
            self._busy = False

    def _settle(self, found: tuple[Transition, Stack, int] | None) -> None:
        """Apply ``found`` and the changes after it until a pass changes nothing."""
        changes = 0
        watch: LoopWatch | None = None
        quiet = self.max_transitions - KEPT_CHANGES  # changes before the watch starts
        while found is not None:
            changes += 1
            if changes > quiet:
                watch = LoopWatch.note(watch, self, found[0], changes)
            self._apply(*found)
            found = self._first_change(self._stack)

    def _first_change(self, stack: Stack) -> tuple[Transition, Stack, int] | None:
        """One pass of the book's ProcessStateTransitionsOnce, without changing anything.

        Returns the first transition, outermost first, that would change ``stack`` (or a
        region of its last state), with the stack and index of the state that chose it.
        """
        innermost = stack[-1] if stack else None
        for state in stack:
            chosen = state.transition()
            if chosen is None:
                continue
            kind = chosen.kind
            if kind is INNER_ENTRY or kind is CONCURRENT:
                # They only act when there is no inner (a single one, or regions).
                if state is not innermost or self._has_regions(state, kind):
                    continue
            elif (
                kind is INNER
                and state is not innermost
                and stack[stack.index(state) + 1].__class__ is chosen.target
            ):
                continue
            return chosen, stack, stack.index(state)
        extras = self._extras
        if extras is not None and extras.regions and stack:
            return self._first_change_in_regions(stack[-1], extras.regions)
        return None

    def _has_regions(self, state: State[Any], kind: TransitionKind) -> bool:
        """Whether ``state`` hosts regions (for ``concurrent``: all of them active)."""
        stacks = self._extras.regions.get(state) if self._extras else None
        if stacks is None:
            return False
        return kind is not CONCURRENT or all(stacks)

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

    # -- tools: driving the stack directly -------------------------------------------------

    def exit(self, state: State[Any]) -> None:
        """Exit ``state`` and every state inside it now, innermost first.

        The next ``process_state_transitions`` lets the outer states choose again (a host
        re-enters an exited region through its ``st.concurrent``).

        Raises:
            UsageError: ``state`` is not active in this machine, or a hook is running.
        """
        with self._tool_call("exit"):
            home, index = self._locate(state)
            self._pop_to(home, index)

    def apply_transition(self, state: State[Any], transition: Transition) -> None:
        """Change the stack now as if ``state`` had chosen ``transition``.

        Unlike processing, the change is always made: a sibling replaces ``state``; an
        inner or inner-entry exits ``state``'s inners and pushes the target; a concurrent
        transition enters the regions that are not active. Used by tools that set a
        configuration (network updates, hot reload); games return transitions instead.

        Raises:
            UsageError: ``state`` is not active in this machine, or a hook is running.
        """
        with self._tool_call("apply_transition"):
            home, index = self._locate(state)
            self._apply(transition, home, index)

    def start(self) -> None:
        """Enter the initial state if the machine has none, without processing further.

        Raises:
            UsageError: a hook of this machine is running.
        """
        with self._tool_call("start"):
            if not self._stack:
                self._push(self._stack, 0, self._initial, _INIT)

    @contextlib.contextmanager
    def _tool_call(self, name: str) -> Iterator[None]:
        if self._busy:
            raise UsageError(self._reentry_message(name))
        self._busy = True
        try:
            yield
        finally:
            self._busy = False

    def _locate(self, state: State[Any]) -> tuple[Stack, int]:
        chain = home_of(state, self._stack, self._regions())
        if chain is None:
            raise UsageError(
                f"{state!r} is not an active state of {self._label()}: it exited, so it can "
                "no longer query or change the stack (do not keep references to states)"
            )
        home = chain[-1]
        return home, home.index(state)

    # -- changing the stack ----------------------------------------------------------------

    def _apply(self, chosen: Transition, stack: Stack, index: int) -> None:
        if chosen.__class__ is not Transition:
            raise _not_a_transition(stack[index], chosen)
        kind = chosen.kind
        if kind is SIBLING:
            depth = stack[index].depth
            self._pop_to(stack, index)
            self._push(stack, depth, chosen, _SIBLING)
            return
        host = stack[index]
        self._pop_to(stack, index + 1)
        if kind is CONCURRENT:
            self._enter_regions(host, chosen)
            return
        if self._extras is not None:
            self._exit_regions(host)  # an inner or inner-entry replaces a host's regions
        self._push(stack, host.depth + 1, chosen, _INNER if kind is INNER else _ENTRY)

    def _enter_regions(self, host: State[Any], chosen: Transition) -> None:
        """Enter the root of each region of ``host`` that is not active."""
        stacks = self._extra().regions.setdefault(host, [])
        for position, root in enumerate(chosen.regions):
            if position == len(stacks):
                stacks.append([])
            if not stacks[position]:
                self._push(stacks[position], host.depth + 1, sibling(root), _REGION)

    def _push(self, stack: Stack, depth: int, chosen: Transition, step: StepKind) -> None:
        cls = chosen.target
        state = cls()
        state.owner = self.owner
        state.machine = self
        state.depth = depth
        state._saved = None
        stack.append(state)
        extras = self._extras
        if extras is not None and extras.tracer is not None:
            extras.tracer.record(Step(self.name, step, cls, depth))
        if cls._st_enter:
            try:
                if chosen.has_arguments:
                    state.on_enter(*chosen.args, **chosen.kwargs)
                else:
                    state.on_enter()
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
                self._exit_regions(state)
                if extras.tracer is not None:
                    step = Step(self.name, _POP, type(state), state.depth)
                    extras.tracer.record(step)
            try:
                if state._st_exit:
                    state.on_exit()
            finally:
                # Even when on_exit raises, the state counts as exited: it leaves the stack
                # and gives back its state values, so the stack only holds entered states.
                stack.pop()
                if state._saved:
                    state._restore_values()

    def _exit_regions(self, host: State[Any]) -> None:
        """Exit ``host``'s regions, last region first, each innermost first."""
        if self._extras is None:
            return
        regions = self._extras.regions
        stacks = regions.get(host)
        if stacks is None:
            return
        for region in reversed(stacks):
            self._pop_to(region, 0)
        del regions[host]

    def _reentry_message(self, call: str) -> str:
        return (
            f"{call}() called on {self._label()} while it is already running one of its "
            "states' hooks; hooks must not drive their own machine. Set data the states "
            "read, return a transition, or defer the call to after this one returns"
        )

    def __repr__(self) -> str:
        names = ", ".join(type(state).__qualname__ for state in self.walk())
        return f"<StateMachine {self.name!r} [{names}]>"


def _check_returned_transition(error: AttributeError) -> None:
    """Turn the AttributeError of reading ``chosen.kind`` into a clear error.

    Raised in the frame of a processing pass itself (the last entry of the traceback), it
    can only come from reading ``chosen.kind``: ``transition()`` returned something else than a
    Transition. Checking after the fact keeps that test off the per-frame path; errors from
    user code (deeper frames) propagate unchanged.

    Raises:
        TransitionTargetError: ``transition()`` returned something else than a Transition.
    """
    entry = error.__traceback__
    while entry is not None and entry.tb_next is not None:
        entry = entry.tb_next
    if entry is None or entry.tb_frame.f_code not in _PASS_CODES:
        return
    scope = entry.tb_frame.f_locals
    raise _not_a_transition(scope.get("state"), scope.get("chosen")) from None


def _not_a_transition(state: object, returned: object) -> TransitionTargetError:
    return TransitionTargetError(
        f"{type(state).__qualname__}.transition() returned {returned!r}; return "
        "st.sibling(...), st.inner(...), st.inner_entry(...), st.concurrent(...) or None"
    )


_PASS_CODES = (
    StateMachine._first_change.__code__,
    StateMachine.process_state_transitions.__code__,
)
