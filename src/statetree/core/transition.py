"""Transitions: the values a state's ``transition()`` returns.

A transition is an immutable description (kind, target class, arguments for the target's
``on_enter``). Because it is a plain value it can be stored and returned later (a *deferred*
transition) or passed to another state as an argument (a *reusable* state's done transition).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from statetree.core import capi
from statetree.core.refs import Ref, class_of
from statetree.core.state import BUILT_BY_CALL, COMPILED, HAS_ENTER, State, set_up
from statetree.errors import StateArgumentError, TransitionTargetError

__all__ = [
    "Transition",
    "TransitionKind",
    "concurrent",
    "inner",
    "inner_entry",
    "load_transition",
    "sibling",
]


class TransitionKind(enum.IntEnum):
    """How a transition changes the stack (see the processing algorithm in the docs)."""

    SIBLING = 0
    """Pop the state and all its inners, innermost first, then push the target."""
    INNER = 1
    """Make the target the immediate inner, replacing any other inner."""
    INNER_ENTRY = 2
    """Push the target as immediate inner only when there is no inner yet."""
    CONCURRENT = 3
    """When there is no inner yet, enter every region root: all stay active at once."""


SIBLING: Final = TransitionKind.SIBLING
INNER: Final = TransitionKind.INNER
INNER_ENTRY: Final = TransitionKind.INNER_ENTRY
CONCURRENT: Final = TransitionKind.CONCURRENT

_NO_KWARGS: Final[Mapping[str, Any]] = MappingProxyType({})


# Compiled, an extension type (``transition.pxd``), which Cython makes a dataclass too: without
# ``slots=True``, which it refuses, and which the fields of an extension type make needless.
@dataclass(frozen=True, repr=False)
class Transition:
    """An immutable request to change the state stack.

    Build one with :func:`sibling`, :func:`inner` or :func:`inner_entry`; ``None`` means
    "no transition".

    Raises:
        TransitionTargetError: ``target`` is not a ``State`` subclass, or ``kind`` is not a
            ``TransitionKind``.
    """

    kind: TransitionKind
    target: type[State[Any]]
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=lambda: _NO_KWARGS, hash=False)
    regions: tuple[type[State[Any]], ...] = ()
    """For a concurrent transition, the root of each region (``target`` is the first)."""
    # What every entry of the target needs to know, read here once from its class's hooks
    # (``State._st_hooks``): a flag costs an entry less than testing a bit.
    has_arguments: bool = field(init=False, compare=False, hash=False, repr=False)
    enters: bool = field(init=False, compare=False, hash=False, repr=False)
    """Whether the target defines ``on_enter``."""
    built_by_call: bool = field(init=False, compare=False, hash=False, repr=False)
    """Whether the target's states are made by calling it (``BUILT_BY_CALL``)."""

    def __post_init__(self) -> None:
        if type(self.kind) is not TransitionKind:  # the stack is moved by the kind's identity
            raise TransitionTargetError(
                f"a transition's kind must be a TransitionKind (st.TransitionKind.SIBLING, "
                f"INNER, INNER_ENTRY or CONCURRENT), got {self.kind!r}"
            )
        kwargs = self.kwargs
        if type(self.args) is not tuple or not (
            type(kwargs) is dict or type(kwargs) is MappingProxyType or isinstance(kwargs, Mapping)
        ):
            raise StateArgumentError(
                f"a transition's args must be a tuple and its kwargs a mapping, got "
                f"{type(self.args).__name__} and {type(kwargs).__name__}: build it with "
                "st.sibling(Target, *args, **kwargs) and the like"
            )
        if type(self.regions) is not tuple or bool(self.regions) != (self.kind is CONCURRENT):
            raise TransitionTargetError(
                f"a concurrent transition, and it alone, has regions (a tuple of State "
                f"subclasses): got {self.kind.name.lower()} with regions {self.regions!r}; "
                "build it with st.concurrent(A, B)"
            )
        object.__setattr__(self, "has_arguments", bool(self.args or self.kwargs))
        for target in self.regions or (self.target,):
            self._check_target(target)
        hooks = self.target._st_hooks
        object.__setattr__(self, "enters", bool(hooks & HAS_ENTER))
        object.__setattr__(self, "built_by_call", bool(hooks & BUILT_BY_CALL))
        if self.has_arguments and not self.enters:
            raise StateArgumentError(
                f"{self!r}: {self.target.__qualname__} takes no state arguments because its "
                "class statement defines no on_enter (a hook assigned to the class later is "
                "not seen); add on_enter(self, ...) with those parameters to the class"
            )

    def _check_target(self, target: object) -> None:
        if not (isinstance(target, type) and issubclass(target, State)):
            name = self.kind.name.lower()
            raise TransitionTargetError(
                f"{name}() needs a State subclass as its target, got {target!r} "
                f"({type(target).__name__}); pass the class itself, e.g. st.{name}(Stand)"
            )
        set_up(target)

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its kind, its targets' names and its arguments."""
        regions = tuple(Ref(root) for root in self.regions)
        saved = (int(self.kind), Ref(self.target), self.args, dict(self.kwargs), regions)
        return (load_transition, saved)

    def __repr__(self) -> str:
        targets = self.regions or (self.target,)
        params = [target.__qualname__ for target in targets] + list(map(repr, self.args))
        params += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"{self.kind.name.lower()}({', '.join(params)})"


# Transitions without arguments are immutable, so one instance per (kind, target) serves
# every call: returning them from transition() every frame allocates nothing. Each is kept on
# its target class (``State._st_sibling``...), so it lives exactly as long as the class.
# Compiled, the helpers read it from the class's own dictionary (``capi.cached``): an
# attribute read makes two type lookups. As Python, an attribute read finds an instance's
# class's transition, or a base class's, so its target is checked.


def _first(kind: TransitionKind, target: type[State[Any]]) -> Transition:
    """Build (and validate) the shared argument-less transition to ``target``."""
    transition = Transition(kind, target)
    if target is not State:  # the base class itself is never a useful target
        if kind is SIBLING:
            target._st_sibling = transition
        elif kind is INNER:
            target._st_inner = transition
        else:
            target._st_inner_entry = transition
    return transition


def sibling(target: type[State[Any]], /, *args: Any, **kwargs: Any) -> Transition:
    """Exit this state (and its inners, innermost first) and enter ``target`` in its place.

    A sibling to the state's own class restarts it as a new instance. ``args`` and
    ``kwargs`` are passed to ``target.on_enter``.

    Raises:
        TransitionTargetError: ``target`` is not a ``State`` subclass.
        StateArgumentError: arguments are given but ``target`` has no ``on_enter``.
    """
    if args or kwargs:
        return Transition(SIBLING, target, args, kwargs)
    if COMPILED:
        shared = capi.cached(target, "_st_sibling")
        return shared if shared is not None else _first(SIBLING, target)
    shared = getattr(target, "_st_sibling", None)
    return shared if shared is not None and shared.target is target else _first(SIBLING, target)


def inner(target: type[State[Any]], /, *args: Any, **kwargs: Any) -> Transition:
    """Make ``target`` this state's immediate inner, replacing any other inner.

    Does nothing when the immediate inner is already an instance of exactly ``target``.

    Raises:
        TransitionTargetError: ``target`` is not a ``State`` subclass.
        StateArgumentError: arguments are given but ``target`` has no ``on_enter``.
    """
    if args or kwargs:
        return Transition(INNER, target, args, kwargs)
    if COMPILED:
        shared = capi.cached(target, "_st_inner")
        return shared if shared is not None else _first(INNER, target)
    shared = getattr(target, "_st_inner", None)
    return shared if shared is not None and shared.target is target else _first(INNER, target)


def inner_entry(target: type[State[Any]], /, *args: Any, **kwargs: Any) -> Transition:
    """Push ``target`` as this state's immediate inner if it has no inner yet.

    Raises:
        TransitionTargetError: ``target`` is not a ``State`` subclass.
        StateArgumentError: arguments are given but ``target`` has no ``on_enter``.
    """
    if args or kwargs:
        return Transition(INNER_ENTRY, target, args, kwargs)
    if COMPILED:
        shared = capi.cached(target, "_st_inner_entry")
        return shared if shared is not None else _first(INNER_ENTRY, target)
    shared = getattr(target, "_st_inner_entry", None)
    return shared if shared is not None and shared.target is target else _first(INNER_ENTRY, target)


def concurrent(*roots: type[State[Any]]) -> Transition:
    """Enter every class in ``roots`` as the root of its own region, if there is no inner yet.

    All regions stay active at once, each with its own inner stack; they are processed in
    the order given and exited in reverse order. Like :func:`inner_entry`, this does
    nothing once the state has inners.

    Raises:
        TransitionTargetError: no root given, or a root is not a ``State`` subclass.
    """
    try:
        shared = roots[0]._st_concurrent
        if shared is not None:
            return shared[roots]
    except (IndexError, AttributeError, KeyError, TypeError):
        pass  # no root, not a State subclass, not made yet
    return _first_concurrent(roots)


def _first_concurrent(roots: tuple[type[State[Any]], ...]) -> Transition:
    """Build (and validate) the shared concurrent transition to ``roots``, kept by the
    first root (so freed with it)."""
    if not roots:
        raise TransitionTargetError(
            "concurrent() needs at least one region root, e.g. st.concurrent(Upper, Lower)"
        )
    transition = Transition(CONCURRENT, roots[0], regions=roots)
    first = roots[0]
    if first is not State:
        if first._st_concurrent is None:
            first._st_concurrent = {}
        first._st_concurrent[roots] = transition
    return transition


def load_transition(
    kind: int,
    target: object,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    regions: tuple[object, ...],
) -> Transition:
    """The loader of a saved transition (named in saves): the shared one when it takes no
    arguments, as ``st.sibling(Target)`` and the like return."""
    chosen = TransitionKind(kind)
    if chosen is CONCURRENT:
        return concurrent(*(class_of(root, State) for root in regions))
    cls = class_of(target, State)
    if args or kwargs:
        return Transition(chosen, cls, tuple(args), kwargs)
    if chosen is SIBLING:
        return sibling(cls)
    return inner(cls) if chosen is INNER else inner_entry(cls)
