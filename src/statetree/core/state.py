"""State: the base class of every state, with its hooks and its view of the stack."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from statetree.core.cause import Cause
from statetree.errors import StateValueError

if TYPE_CHECKING:
    from statetree.core.machine import StateMachine
    from statetree.core.state_value import StateValue
    from statetree.core.transition import Transition

__all__ = ["State"]

OwnerT = TypeVar("OwnerT")
S = TypeVar("S", bound="State[Any]")
T = TypeVar("T")


class State(Generic[OwnerT]):
    """Base class of states. Subclass it (``State[MyOwner]`` types ``self.owner``).

    An instance exists exactly while the state is on its machine's stack: it is created when
    pushed, ``on_enter`` runs, ``on_exit`` runs when it is popped, and then it is dropped.
    ``owner``, ``machine`` and ``depth`` are set before ``on_enter``; they are not available
    in ``__init__``.

    Override any of:
        ``transition()``: return ``st.sibling(...)``, ``st.inner(...)``,
        ``st.inner_entry(...)`` or ``None``. May be called many times per processing call,
        so it should only read data.
        ``on_enter(*args, **kwargs)``: receives the arguments given to the transition.
        ``on_exit()``, ``update(*args, **kwargs)`` (receives ``update_states`` arguments).
    """

    __slots__ = ("_saved", "depth", "machine", "owner")

    owner: OwnerT
    machine: StateMachine[Any]
    depth: int
    _saved: list[StateValue[Any]] | None

    # Which hooks a class overrides, computed once per class so the machine skips the
    # calls that would do nothing.
    _st_enter: ClassVar[bool] = False
    _st_exit: ClassVar[bool] = False
    _st_update: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._st_enter = cls.on_enter is not State.on_enter
        cls._st_exit = cls.on_exit is not State.on_exit
        cls._st_update = cls.update is not State.update

    # -- hooks -----------------------------------------------------------------------------

    def transition(self) -> Transition | None:
        """Return the transition this state wants now, or ``None`` for no transition."""
        return None

    def on_enter(self, *args: Any, **kwargs: Any) -> None:
        """Called once when the state is pushed, with the transition's arguments."""

    def on_exit(self) -> None:
        """Called once when the state is popped, before its state values are restored."""

    def update(self, *args: Any, **kwargs: Any) -> None:
        """Called by ``update_states`` on the settled stack, outermost first."""

    @property
    def cause(self) -> Cause:
        """Why this state's hook runs now: a transition, a network update, a prediction..."""
        return self.machine.cause

    # -- stack queries ---------------------------------------------------------------------

    def get_state(self, cls: type[S]) -> S | None:
        """The instance of ``cls`` anywhere on the stack, or ``None``."""
        return self.machine.get_state(cls)

    def get_outer_state(self, cls: type[S]) -> S | None:
        """The nearest instance of ``cls`` outside this state, or ``None``."""
        for state in reversed(self.machine._outer_of(self)):
            if isinstance(state, cls):
                return state
        return None

    def get_inner_state(self, cls: type[S]) -> S | None:
        """The nearest instance of ``cls`` inside this state (regions included), or ``None``."""
        for state in self.machine._inner_of(self):
            if isinstance(state, cls):
                return state
        return None

    def get_immediate_inner_state(self, cls: type[S]) -> S | None:
        """This state's immediate inner (or region root) that is a ``cls``, else ``None``."""
        for state in self.machine._immediate_inner_of(self):
            if isinstance(state, cls):
                return state
        return None

    def is_in_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is anywhere on the stack."""
        return self.get_state(cls) is not None

    def is_in_outer_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is outside this state."""
        return self.get_outer_state(cls) is not None

    def is_in_inner_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is inside this state."""
        return self.get_inner_state(cls) is not None

    def is_in_immediate_inner_state(self, cls: type[State[Any]]) -> bool:
        """Whether this state's immediate inner is an instance of ``cls``."""
        return self.get_immediate_inner_state(cls) is not None

    def get_state_override(self, cls: type[State[Any]]) -> type[State[Any]]:
        """The class registered with ``machine.add_state_override(cls, ...)``, else ``cls``."""
        return self.machine.get_state_override(cls)

    # -- state values ----------------------------------------------------------------------

    def set_state_value(self, state_value: StateValue[T], value: T) -> None:
        """Set ``state_value`` while this state is active; restored after its ``on_exit``.

        Raises:
            StateValueError: this state is not on a stack (e.g. called from ``__init__``
                or after it exited).
        """
        self._hold(state_value, "set_state_value")
        state_value._value = value

    def modify_state_value(self, state_value: StateValue[T]) -> T:
        """Return the live value of ``state_value`` for in-place edits of an aggregate.

        A deep copy of the value is saved first, and restored after this state's
        ``on_exit``, so every field edited through the returned object is undone.

        Raises:
            StateValueError: this state is not on a stack.
        """
        if self._hold(state_value, "modify_state_value"):
            # The saved entry holds the live object: swap in a copy for the state to edit.
            state_value._value = copy.deepcopy(state_value._value)
        return state_value._value

    def _hold(self, state_value: StateValue[Any], verb: str) -> bool:
        """Save the value ``state_value`` has before this state first changes it."""
        if not self._is_on_stack():
            raise StateValueError(
                f"{verb}() called on {type(self).__qualname__}, which is not on a state "
                "stack; state values can only be set by active states (from on_enter, "
                "transition, update or on_exit), never from __init__ or after exit"
            )
        if not state_value._hold(self):
            return False
        if self._saved is None:
            self._saved = []
        self._saved.append(state_value)
        return True

    def _is_on_stack(self) -> bool:
        machine = getattr(self, "machine", None)
        return machine is not None and machine._holds(self)

    def _restore_values(self) -> None:
        saved = self._saved
        if saved:
            for state_value in reversed(saved):
                state_value._release(self)
            self._saved = None

    def __repr__(self) -> str:
        depth = getattr(self, "depth", None)
        where = "" if depth is None else f" depth={depth}"
        return f"<{type(self).__qualname__}{where}>"
