"""StateMachine: the state stack and the book's processing algorithm."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from importlib import import_module
from typing import TYPE_CHECKING, Any, Generic, SupportsIndex, TypeVar

from statetree.core import capi
from statetree.core.arguments import check_hooks, check_update
from statetree.core.events import add_frame_time
from statetree.core.options import DEFAULT_MAX_TRANSITIONS, Options
from statetree.core.refs import Ref, new_instance, shallow_copy_refused
from statetree.core.saving import machine_state, set_machine_state
from statetree.core.settle import (
    INIT_STEP,
    PLAIN_CHANGES,
    apply,
    enter,
    hook_returned,
    not_a_transition,
    pop_to,
    settle,
)
from statetree.core.state import HAS_UPDATE, State, first_instance
from statetree.core.trace import TraceLevel, trace_level
from statetree.core.transition import CONCURRENT, INNER, SIBLING, Transition, sibling
from statetree.core.tree import (
    Regions,
    Stack,
    ancestors,
    descendants,
    home_of,
    immediate_inners,
    index_in,
    place_of,
    walk,
)
from statetree.errors import NotStartedError, TransitionTargetError, UsageError, require_callable

if TYPE_CHECKING:
    from statetree.structure.model import Structure

__all__ = ["MachineCore", "StateMachine"]

OwnerT = TypeVar("OwnerT")
S = TypeVar("S", bound=State[Any])
_NO_TRACE = TraceLevel.NONE


class MachineCore(Options):
    """What every machine keeps and does: the stack, the processing and the queries.

    :class:`StateMachine` is the class to use; this one holds its work, compiled as an
    extension type (declared in ``machine.pxd``), which can be neither generic nor given
    the owner's type.
    """

    __slots__ = ()

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
        self._begin(_initial_transition(initial), self.name)

    @property
    def stack(self) -> tuple[State[Any], ...]:
        """The active states, outermost first; regions follow their host, depth first."""
        return tuple(self.walk())

    def walk(self) -> list[State[Any]]:
        """The active states in processing order (as ``stack``, without the tuple copy)."""
        regions = self._regions()
        return list(walk(self._stack, regions)) if regions else self._stack.copy()

    def regions(self, host: State[Any]) -> tuple[tuple[State[Any], ...], ...]:
        """The region stacks of ``host`` (empty unless it entered ``st.concurrent``).

        Raises:
            UsageError: ``host`` is not a state.
        """
        if not isinstance(host, State):
            raise UsageError(f"regions() takes a state, got {host!r}")
        return tuple(tuple(region) for region in self._regions().get(id(host), ()))

    @property
    def active_names(self) -> tuple[str, ...]:
        """The qualified names of the active states, in ``stack`` order
        (``("HeroStates.Alive", "HeroStates.Locomotion", "HeroStates.Walk")``)."""
        return tuple(type(state).__qualname__ for state in self.walk())

    @property
    def leaf_name(self) -> str:
        """The qualified name of the innermost state of the main stack (a state hosting
        regions is the innermost one there; ``regions(host)`` has the rest).

        Raises:
            NotStartedError: the machine has no active state.
        """
        if not self._stack:
            raise NotStartedError(f"{self._label()} has no active state, so no leaf")
        return type(self._stack[-1]).__qualname__

    @property
    def started(self) -> bool:
        """Whether the machine has active states."""
        return bool(self._stack)

    def get_state(self, cls: type[S]) -> S | None:
        """The first active instance of ``cls`` (subclasses included), or ``None``.

        Raises:
            UsageError: ``cls`` is not a class (nor a tuple of classes).
        """
        return self._find(cls, "get_state")

    def is_in_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is active.

        Raises:
            UsageError: ``cls`` is not a class (nor a tuple of classes).
        """
        return self._find(cls, "is_in_state") is not None

    def _find(self, cls: type[S], call: str) -> S | None:
        """The first active instance of ``cls``, for the query ``call``."""
        return first_instance(self.walk() if self._regions() else self._stack, cls, call)

    def _regions(self) -> Regions:
        return self._extras.regions if self._extras else {}

    def _outer_of(self, state: State[Any]) -> list[State[Any]]:
        stack = self._stack
        index = index_in(stack, state)
        if index >= 0:
            return stack[:index]
        self._locate(state, "get_outer_state")
        return ancestors(state, stack, self._regions())

    def _inner_of(self, state: State[Any]) -> list[State[Any]]:
        stack = self._stack
        index = index_in(stack, state)
        if index >= 0 and not self._regions():
            return stack[index + 1 :]
        self._locate(state, "get_inner_state")
        return list(descendants(state, stack, self._regions()))

    def _immediate_inner_of(self, state: State[Any]) -> list[State[Any]]:
        self._locate(state, "get_immediate_inner_state")
        return immediate_inners(state, self._stack, self._regions())

    def _holds(self, state: State[Any]) -> bool:
        stack = self._stack
        if index_in(stack, state) >= 0:
            return True
        return any(s is state for s in walk(stack, self._regions()))

    def _place_of(self, state: State[Any]) -> tuple[int, ...]:
        """Where the active ``state`` is in the machine's tree of stacks (see ``place_of``)."""
        index = index_in(self._stack, state)
        if index >= 0:
            return (index,)
        return place_of(state, self._stack, self._regions()) or ()

    def _depth_of(self, state: State[Any]) -> int:
        """``state.depth``: how many states are outside ``state``.

        Raises:
            UsageError: ``state`` is not active in this machine.
        """
        index = index_in(self._stack, state)
        return index if index >= 0 else self._locate(state, "depth")[2]

    # -- running ---------------------------------------------------------------------------

    def process_state_transitions(self) -> None:
        """Apply transitions, outermost state first, until the stack settles.

        After every change of the stack (or of a region's stack), processing starts again
        from the outermost state.

        Raises:
            TransitionLoopError: the stack changed more than ``max_transitions`` times.
            TransitionTargetError: a ``transition()`` returned something else than a
                transition or ``None``.
            UsageError: called from inside one of this machine's hooks, or while another
                thread processes this machine.
            Exception: whatever a state's hook raised, unchanged (see the errors guide for
                the state the stack is left in).

        Events posted before the call are visible to ``transition()`` during it; the ones
        not taken are discarded when it ends, however it ends.
        """
        if self._busy:
            raise UsageError(self._reentry_message("process_state_transitions"))
        self._busy = capi.thread_id()
        try:
            # Untyped: the states' hooks are called the Python way anyway, and a wrong return
            # value must reach the check below rather than a type check of its own.
            stack: list[Any] = self._stack
            changes = 0
            # A machine without extras (no regions, tracing or options) makes its passes
            # here: a settled frame, the common case, costs one pass and no other call. A
            # pass's decision is next_change's, with no regions to consider; in the main
            # stack a state's index is its depth. After PLAIN_CHANGES changes, settle goes on
            # and the loop watch notes the next ones.
            while stack and self._extras is None:
                last = len(stack) - 1
                index = 0
                for state in stack:
                    result = state.transition()
                    if result is not None:
                        if type(result) is not Transition:
                            raise not_a_transition(state, result)
                        chosen = result  # a Transition from here on (typed when compiled)
                        kind = chosen.kind
                        if (
                            index == last
                            or kind is SIBLING
                            or (kind is INNER and type(stack[index + 1]) is not chosen.target)
                        ):
                            break
                    index += 1
                else:
                    return
                changes += 1
                apply(self, stack, index, index, chosen)
                if changes == PLAIN_CHANGES:
                    break
            settle(self, changes)
        except TypeError as error:
            check_hooks(self.walk(), error)
            raise
        finally:
            self._busy = 0
            extras = self._extras
            if extras is not None and extras.events:
                extras.events.clear()

    def update_states(self, *args: Any, **kwargs: Any) -> None:
        """Call ``update(*args, **kwargs)`` on each active state, outermost first.

        Raises:
            NotStartedError: the machine has no active state yet.
            UsageError: called from inside one of this machine's hooks, or while another
                thread drives this machine.
        """
        if not self._stack:
            raise NotStartedError(
                f"update_states() on {self._label()}, which has no active state: call "
                "process_state_transitions() first (after stop(), call it again to restart)"
            )
        if self._busy:
            raise UsageError(self._reentry_message("update_states"))
        self._busy = capi.thread_id()
        try:
            extras = self._extras
            if extras is not None and extras.timers is not None:
                add_frame_time(extras.timers, args, kwargs, self._label())
            # Untyped, so that update is called the Python way (see settle.pop_to).
            states: list[Any] = self.walk() if self._regions() else self._stack
            state: Any = None
            try:  # around the loop, not each call: a frame pays for one
                for state in states:
                    if type(state)._st_hooks & HAS_UPDATE:
                        returned = state.update(*args, **kwargs)
                        if isinstance(returned, Transition):
                            raise hook_returned(state, "update", returned)
            except TypeError as error:
                if state is not None:
                    check_update(state, args, kwargs, error)
                raise
        finally:
            self._busy = 0

    def post(self, event: object) -> None:
        """Post a one-shot ``event`` (any object but ``None``: a string, an enum member, a
        dataclass).

        States see it from their ``transition()`` with ``self.received(kind)`` or
        ``self.take(kind)`` during the next ``process_state_transitions()``, which discards
        it when it ends, taken or not. Posted from a hook while the machine processes, it
        joins the current processing.

        Raises:
            UsageError: ``event`` is ``None``, or another thread is driving this machine
                (nothing is posted).
        """
        driver = self._busy
        if driver and driver != capi.thread_id():
            raise UsageError(self._reentry_message("post"))
        if event is None:
            raise UsageError(
                f"post(None) on {self._label()}: None is not an event (received() and take() "
                "give None when there is no event); post a string, an enum member or an object"
            )
        self._extra().events.append(event)

    def stop(self) -> None:
        """Exit every active state, innermost first. The next processing starts again.

        Raises:
            UsageError: called from inside one of this machine's hooks.
        """
        with self._tool_call("stop"):
            pop_to(self, self._stack, 0)

    # -- tools: driving the stack directly -------------------------------------------------

    def exit(self, state: State[Any]) -> None:
        """Exit ``state`` and every state inside it now, innermost first.

        The next ``process_state_transitions`` lets the outer states choose again (a host
        re-enters an exited region through its ``st.concurrent``).

        Raises:
            UsageError: ``state`` is not active in this machine, or a hook is running.
        """
        with self._tool_call("exit"):
            home, index, _ = self._locate(state, "exit")
            pop_to(self, home, index)

    def apply_transition(self, state: State[Any], transition: Transition | object) -> None:
        """Change the stack now as if ``state`` had chosen ``transition``.

        Unlike processing, the change is always made: a sibling replaces ``state``; an
        inner or inner-entry exits ``state``'s inners and pushes the target; a concurrent
        transition enters the regions that are not active. Used by tools that set a
        configuration (network updates, hot reload); games return transitions instead.

        Raises:
            TransitionTargetError: ``transition`` is not a transition.
            UsageError: ``state`` is not active in this machine, or a hook is running.
        """
        if type(transition) is not Transition:
            raise TransitionTargetError(
                f"apply_transition({state!r}, {transition!r}): the second argument must be "
                "a transition such as st.sibling(Target), got "
                f"{type(transition).__name__}"
            )
        with self._tool_call("apply_transition"):
            home, index, depth = self._locate(state, "apply_transition")
            apply(self, home, index, depth, transition)

    def start(self) -> None:
        """Enter the initial state if the machine has none, without processing further.

        Raises:
            UsageError: a hook of this machine is running.
        """
        with self._tool_call("start"):
            if not self._stack:
                enter(self, self._stack, self._initial, 0, INIT_STEP)

    @contextlib.contextmanager
    def _tool_call(self, name: str) -> Iterator[None]:
        if self._busy:
            raise UsageError(self._reentry_message(name))
        self._busy = capi.thread_id()
        try:
            yield
        finally:
            self._busy = 0

    def _locate(self, state: State[Any], call: str) -> tuple[Stack, int, int]:
        """The stack holding the active ``state``, its index there and its depth.

        Raises:
            UsageError: ``state`` is not active in this machine (``call`` names the call).
        """
        if isinstance(state, type):
            raise UsageError(
                f"{call}() takes an active state, got the class {state.__qualname__}; find its "
                f"instance with get_state({state.__name__})"
            )
        chain = home_of(state, self._stack, self._regions())
        if chain is not None:
            home = chain[-1]
            index = index_in(home, state)
            return home, index, sum(len(outer) for outer in chain[:-1]) + index
        if not isinstance(state, State):
            raise UsageError(f"{call}() takes an active state, got {state!r}")
        other = getattr(state, "machine", None)
        if isinstance(other, MachineCore) and other is not self:
            mine, theirs = self._label(), other._label()
            if mine == theirs:  # two machines without names: "another machine" tells them apart
                theirs = "another machine"
            raise UsageError(
                f"{call}({state!r}) on {mine}: that state belongs to {theirs}; call "
                f"{call}() on the machine whose stack holds it"
            )
        raise UsageError(
            f"{state!r} is not an active state of {self._label()}: it exited, so it can "
            "no longer query or change the stack (do not keep references to states)"
        )

    def _reentry_message(self, call: str) -> str:
        driver = self._busy
        if driver != capi.thread_id():
            return (
                f"{call}() called on {self._label()} from thread {capi.thread_id()} while thread "
                f"{driver} is processing it; a machine must be driven from one thread at a "
                "time (hand the work to the thread that owns the machine, or lock around it)"
            )
        return (
            f"{call}() called on {self._label()} while it is already running one of its "
            "states' hooks; hooks must not drive their own machine. Set data the states "
            "read, return a transition, or defer the call to after this one returns"
        )

    def __repr__(self) -> str:
        names = ", ".join(type(state).__qualname__ for state in self.walk())
        return f"<StateMachine {self.name!r} [{names}]>"

    # -- saving (pickle, copy.deepcopy): see statetree.core.saving --------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as data, loaded without running a hook (see the saving guide).

        Raises:
            SaveError: the machine is running one of its hooks.
        """
        return (new_instance, (Ref(type(self)), StateMachine), machine_state(self))

    def __setstate__(self, saved: dict[str, Any]) -> None:
        set_machine_state(self, saved)

    def __copy__(self) -> MachineCore:
        raise shallow_copy_refused(self._label())


class StateMachine(MachineCore, Generic[OwnerT]):
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
        time_in_state: keep each active state's time, the sum of the ``dt`` given to
            ``update_states`` while it is active (``state.time_in_state``).

    Raises:
        TransitionTargetError: ``initial`` is not a ``State`` subclass.
        UsageError: ``name`` is not a string.
    """

    __slots__ = ()

    owner: OwnerT

    def __init__(
        self,
        initial: type[State[OwnerT]] | Transition,
        owner: OwnerT = None,  # type: ignore[assignment]
        *,
        name: str = "",
        trace: TraceLevel = TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
        max_transitions: SupportsIndex = DEFAULT_MAX_TRANSITIONS,
        time_in_state: bool = False,
    ) -> None:
        self._fresh(_initial_transition(initial), name, owner, [])
        if max_transitions != DEFAULT_MAX_TRANSITIONS:
            self._bound_changes(max_transitions)
        if trace_sink is not None:
            require_callable(trace_sink, "trace_sink")
            self._extra().sink = trace_sink
        if trace is not _NO_TRACE:
            self._retrace(level=trace_level(trace))
        if time_in_state:
            self._track_time()

    @property
    def structure(self) -> Structure:
        """The machine's static structure, derived from its code (``statetree.structure.derive``):
        the states it can run, which can be pushed under which and by which transition, its
        state overrides followed (for plots, codecs and tools). Derived at each read."""
        # The structure package reads the core; the core needs it only when asked.
        derive: Callable[[StateMachine[Any]], Structure] = import_module(
            "statetree.structure"
        ).derive
        return derive(self)


def _initial_transition(initial: object) -> Transition:
    """The transition that enters ``initial`` (a state class, or already a transition).

    Raises:
        TransitionTargetError: ``initial`` is neither.
    """
    if isinstance(initial, Transition):
        if initial.kind is CONCURRENT:
            raise TransitionTargetError(
                f"StateMachine's initial transition cannot be {initial!r}: regions need a host "
                "state; start with a state whose transition() returns it"
            )
        return initial
    if isinstance(initial, type) and issubclass(initial, State):
        return sibling(initial)
    raise TransitionTargetError(
        "StateMachine's initial argument must be a State subclass (or a transition such as "
        f"st.sibling(First, arg)), got {initial!r} ({type(initial).__name__})"
    )
