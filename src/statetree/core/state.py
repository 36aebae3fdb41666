"""State: the base class of every state, with its hooks and its view of the stack."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, TypeVar

from statetree.core.cause import Cause
from statetree.core.refs import Ref, attributes, new_instance, set_attributes
from statetree.core.state_value import StateValue, plain_value
from statetree.errors import StateValueError, UsageError

if TYPE_CHECKING:
    from statetree.core.machine import StateMachine
    from statetree.core.transition import Transition

__all__ = [
    "BUILT_BY_CALL",
    "COMPILED",
    "HAS_ENTER",
    "HAS_EXIT",
    "HAS_UPDATE",
    "UNPLACED",
    "State",
    "StateCore",
    "set_up_class",
]

OwnerT = TypeVar("OwnerT")
S = TypeVar("S", bound="State[Any]")
T = TypeVar("T")


HAS_ENTER: Final = 1
HAS_EXIT: Final = 2
HAS_UPDATE: Final = 4
BUILT_BY_CALL: Final = 8
"""The class's states need more than ``__new__``: it has an ``__init__`` of its own (run
once the state knows its machine and owner) or a metaclass (whose call makes them). The
others are made by ``__new__`` alone when compiled (a C call, where calling the class adds
the type call and ``object.__init__``); as source, calling the class is the faster of the
two."""

try:
    import cython
except ModuleNotFoundError:  # only compiling the core needs Cython
    COMPILED = False
else:
    COMPILED = cython.compiled
"""Whether the core runs compiled (its modules are compiled together, or none is)."""


def _copy_of(state_value: StateValue[T], state: State[Any]) -> T:
    """A deep copy of ``state_value``'s value, which ``state`` is about to edit.

    Raises:
        StateValueError: the value cannot be copied.
    """
    try:
        return copy.deepcopy(state_value._current())
    except Exception as error:
        raise StateValueError(
            f"modify_state_value() needs a value it can copy (copy.deepcopy), to "
            f"restore it when {type(state).__qualname__} exits: {error}; use "
            "set_state_value() with a new value instead"
        ) from error


def set_up(cls: type[State[Any]]) -> None:
    """Set ``cls`` up (:func:`set_up_class`) unless it is: a transition to it and a load of
    its states do it for a class whose base's ``__init_subclass__`` did not call
    ``super().__init_subclass__()`` (the class would otherwise run its base's hooks)."""
    if "_st_hooks" not in cls.__dict__:
        set_up_class(cls)


def set_up_class(cls: type[State[Any]]) -> None:
    """Give ``cls`` its own ``_st_`` fields: its hooks, and no shared transitions yet (what
    ``State.__init_subclass__`` does)."""
    # Each class has its own (a subclass must not find its base's transitions).
    cls._st_sibling = cls._st_inner = cls._st_inner_entry = None
    cls._st_concurrent = None
    hooks = HAS_ENTER if cls.on_enter is not State.on_enter else 0
    hooks |= HAS_EXIT if cls.on_exit is not State.on_exit else 0
    hooks |= HAS_UPDATE if cls.update is not State.update else 0
    plain = cls.__init__ is State.__init__ and type(cls) is type
    cls._st_hooks = hooks | (0 if plain else BUILT_BY_CALL)
    cls._st_exits = bool(hooks & HAS_EXIT)


class Unplaced:
    """What a state's ``owner`` and ``machine`` hold while its own ``__init__`` runs: both
    are set after it, before ``on_enter``; reading through them is refused."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy and pickle ask for their hooks: it has none
            raise AttributeError(name)
        raise UsageError(
            "a state's owner and machine are not set in its __init__, nor its stack: they "
            "are set before on_enter, so read them and query the stack from on_enter"
        )

    def __repr__(self) -> str:
        return "<not set in __init__: see on_enter>"

    def __reduce__(self) -> str:
        return "UNPLACED"  # the one instance, by its module's name: copies are the same


UNPLACED: Final = Unplaced()


def first_instance(states: Iterable[object], cls: type[S], call: str) -> S | None:
    """The first of ``states`` that is a ``cls``, or ``None``: the answer of the query
    ``call``.

    Raises:
        UsageError: ``cls`` is not a class (nor a tuple of classes).
    """
    if isinstance(cls, tuple):  # isinstance() stops at the first of its classes that fits
        check_query(cls, call)
    try:
        for state in states:
            if isinstance(state, cls):
                return state
    except TypeError:
        check_query(cls, call)
        raise
    check_query(cls, call)
    return None


def check_query(cls: object, call: str) -> None:
    """Refuse a query for something that is no state class (``is_in_state("Jump")``).

    Raises:
        UsageError: ``cls`` is not a class, nor a tuple of classes.
    """
    classes = cls if isinstance(cls, tuple) else (cls,)
    if not classes or not all(isinstance(each, type) for each in classes):
        raise UsageError(
            f"{call}() takes a state class (or a tuple of them), got {cls!r}; e.g. "
            f"{call}(Jump), not {call}('Jump')"
        )


class StateCore:
    """The base of :class:`State`, which every state subclasses instead.

    Compiled, an extension type (``state.pxd``): a state's instance dictionary is then made
    only if the state sets an attribute of its own, where a plain class makes one with every
    instance. (An extension type cannot be generic, so :class:`State` is a class of its own.)
    """

    __slots__ = ("__weakref__",)


class State(StateCore, Generic[OwnerT]):
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

    # Thousands of entities each hold a stack of states: a state keeps only these two (its
    # depth is its place on the stack, the values it saved are kept by the machine). Slots
    # of a plain class in both builds: the states' own code reads them the fastest way.
    __slots__ = ("machine", "owner")

    owner: OwnerT
    machine: StateMachine[Any]

    # What the machine must do for a class's states (HAS_ENTER, HAS_EXIT, HAS_UPDATE,
    # BUILT_BY_CALL), computed once per class so that it skips the calls that would do
    # nothing; ``_st_exits`` is the HAS_EXIT bit as a flag, which each exit reads for less.
    _st_hooks: ClassVar[int] = 0
    _st_exits: ClassVar[bool] = False

    # The shared argument-less transitions to this class (``st.sibling(cls)``...), made on
    # first use. Kept on the class rather than in a module-level cache, so that a class made
    # at run time (a reloaded chart's) is freed with its transitions when it is dropped.
    _st_sibling: ClassVar[Transition | None] = None
    _st_inner: ClassVar[Transition | None] = None
    _st_inner_entry: ClassVar[Transition | None] = None
    _st_concurrent: ClassVar[dict[tuple[type, ...], Transition] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        set_up_class(cls)

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

    # -- one-shot events and time in state ---------------------------------------------------

    def received(self, kind: object) -> Any:
        """The oldest pending event of ``kind`` (an instance of it, if it is a class or a
        tuple of classes; else an event for which ``event == kind`` is true), left for other
        states to see too; ``None`` if there is none.

        Raises:
            UsageError: ``kind`` is ``None``, or ``==`` with a pending event gives no truth
                value (nothing is taken).
        """
        return self.machine._event(kind, False)

    def take(self, kind: object) -> Any:
        """As :meth:`received`, and the event is consumed: no other state sees it. A state
        that moves on an event takes it, so one event moves one state."""
        return self.machine._event(kind, True)

    @property
    def time_in_state(self) -> float:
        """Seconds this state has been active: the sum of the ``dt`` of every
        ``update_states`` call since it was entered (0 until the first).

        Raises:
            UsageError: the machine does not track time (``time_in_state=True``), or this
                state is no longer active.
        """
        return self.machine._time_in(self)

    @property
    def cause(self) -> Cause:
        """Why this state's hook runs now: a transition, a network update, a prediction..."""
        return self.machine.cause

    # -- stack queries ---------------------------------------------------------------------

    @property
    def depth(self) -> int:
        """How many states are outside this one: 0 for the outermost (a region's root is
        one deeper than its host).

        Raises:
            UsageError: this state is not active (it exited).
        """
        return self.machine._depth_of(self)

    def get_state(self, cls: type[S]) -> S | None:
        """The instance of ``cls`` anywhere on the stack, or ``None``."""
        return self.machine._find(cls, "get_state")

    def get_outer_state(self, cls: type[S]) -> S | None:
        """The nearest instance of ``cls`` outside this state, or ``None``."""
        return first_instance(self.machine._outer_of(self)[::-1], cls, "get_outer_state")

    def get_inner_state(self, cls: type[S]) -> S | None:
        """The nearest instance of ``cls`` inside this state (regions included), or ``None``."""
        return first_instance(self.machine._inner_of(self), cls, "get_inner_state")

    def get_immediate_inner_state(self, cls: type[S]) -> S | None:
        """This state's immediate inner (or region root) that is a ``cls``, else ``None``."""
        inners = self.machine._immediate_inner_of(self)
        return first_instance(inners, cls, "get_immediate_inner_state")

    def is_in_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is anywhere on the stack."""
        return self.machine._find(cls, "is_in_state") is not None

    # The is_in_* queries name themselves in their errors, so each calls first_instance.

    def is_in_outer_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is outside this state."""
        outer = self.machine._outer_of(self)
        return first_instance(outer, cls, "is_in_outer_state") is not None

    def is_in_inner_state(self, cls: type[State[Any]]) -> bool:
        """Whether an instance of ``cls`` is inside this state."""
        inner = self.machine._inner_of(self)
        return first_instance(inner, cls, "is_in_inner_state") is not None

    def is_in_immediate_inner_state(self, cls: type[State[Any]]) -> bool:
        """Whether this state's immediate inner is an instance of ``cls``."""
        inners = self.machine._immediate_inner_of(self)
        return first_instance(inners, cls, "is_in_immediate_inner_state") is not None

    def get_state_override(self, cls: type[State[Any]]) -> type[State[Any]]:
        """The class registered with ``machine.add_state_override(cls, ...)``, else ``cls``."""
        return self.machine.get_state_override(cls)

    # -- state values ----------------------------------------------------------------------

    def set_state_value(self, state_value: StateValue[T], value: T) -> None:
        """Set ``state_value`` while this state is active; restored after its ``on_exit``.

        Raises:
            StateValueError: ``state_value`` is not a ``StateValue``, or this state is not on
                a stack (e.g. called from ``__init__`` or after it exited).
        """
        plain_value(value, "set_state_value")  # checked first: a refused call holds nothing
        self._hold(state_value, "set_state_value")
        state_value._value = value

    def modify_state_value(self, state_value: StateValue[T]) -> T:
        """Return the live value of ``state_value`` for in-place edits of an aggregate.

        The state edits a deep copy of the value it finds, made at its first edit (and again
        if an object was given since, e.g. by its own ``set_state_value``: a given object is
        never changed); the value it found is restored after its ``on_exit``, so every field
        edited through the returned object is undone.

        Raises:
            StateValueError: this state is not on a stack, or the value cannot be copied
                (nothing changed).
        """
        if not isinstance(state_value, StateValue):
            self._hold(state_value, "modify_state_value")  # refuses it, naming what it got
        if not state_value._held_by(self) or not state_value._editable():
            # Copied before anything is held: a value that cannot be copied changes nothing.
            # Copied again if a freed state put its value back meanwhile (the copy can run
            # the collector): the state must edit a copy of the value it finds.
            copied = _copy_of(state_value, self)
            while state_value._freed:
                copied = _copy_of(state_value, self)
            self._hold(state_value, "modify_state_value")  # the saved entry keeps the found
            state_value._edited_by(self, copied)
        return state_value._current()

    def _hold(self, state_value: StateValue[Any], verb: str) -> bool:
        """Save the value ``state_value`` has before this state first changes it."""
        if not isinstance(state_value, StateValue):
            raise StateValueError(
                f"{verb}() needs a StateValue (st.StateValue(initial)), got {state_value!r}"
            )
        if not self._is_on_stack():
            raise StateValueError(
                f"{verb}() called on {type(self).__qualname__}, which is not on a state "
                "stack; state values can only be set by active states (from on_enter, "
                "transition, update or on_exit), never from __init__ or after exit"
            )
        if state_value._held_by(self):  # the per-frame case: nothing to find out
            return False
        if not state_value._hold(self, self.machine._place_of(self)):
            return False
        self.machine._extra().saved.setdefault(id(self), []).append(state_value)
        return True

    def _is_on_stack(self) -> bool:
        machine = getattr(self, "machine", None)
        return machine is not None and machine is not UNPLACED and machine._holds(self)

    def __repr__(self) -> str:
        where = f" depth={self.depth}" if self._is_on_stack() else ""
        return f"<{type(self).__qualname__}{where}>"

    # -- saving (pickle, copy.deepcopy): see statetree.core.refs -----------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its class's name and its attributes; loaded without ``__init__``."""
        return (new_instance, (Ref(type(self)), State), attributes(self))

    def __setstate__(self, values: dict[str, Any]) -> None:
        set_attributes(self, values)
