"""Explicit targets for transitions the code does not show, such as deferred transitions.

.. code-block:: python

    @targets(sibling=("Crouch",))          # a name: the class is defined further down
    class Stand(st.State["Character"]):
        def transition(self):
            return self.next                 # set in update(); not a call the scan can read
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

from statetree.core.state import State
from statetree.core.transition import TransitionKind
from statetree.errors import DefinitionError

__all__ = ["TargetRef", "Targets", "declared_targets", "resolve_reference", "targets"]

S = TypeVar("S", bound=type)
TargetRef: TypeAlias = "type[State[Any]] | str"
"""A state class, or its name: ``"Stand"`` or ``"MyStates.Stand"``, looked up in the
declaring class, then the classes enclosing it, then its module."""

_ATTRIBUTE = "__statetree_targets__"


@dataclass(frozen=True, slots=True)
class Targets:
    """The transitions a state declares it can make, by kind."""

    sibling: tuple[TargetRef, ...] = ()
    inner: tuple[TargetRef, ...] = ()
    inner_entry: tuple[TargetRef, ...] = ()

    def items(self) -> Iterator[tuple[TransitionKind, TargetRef]]:
        """Every ``(kind, target)`` pair, siblings first."""
        for kind, refs in (
            (TransitionKind.SIBLING, self.sibling),
            (TransitionKind.INNER, self.inner),
            (TransitionKind.INNER_ENTRY, self.inner_entry),
        ):
            for ref in refs:
                yield kind, ref


def _refs(value: TargetRef | Iterable[TargetRef], kind: str) -> tuple[TargetRef, ...]:
    refs = (value,) if isinstance(value, (str, type)) else tuple(value)
    for ref in refs:
        valid = isinstance(ref, str) or (isinstance(ref, type) and issubclass(ref, State))
        if not valid:
            raise DefinitionError(
                f"targets({kind}=...): {ref!r} is neither a State subclass nor a state name"
            )
    return refs


def targets(
    *,
    sibling: TargetRef | Iterable[TargetRef] = (),
    inner: TargetRef | Iterable[TargetRef] = (),
    inner_entry: TargetRef | Iterable[TargetRef] = (),
) -> Callable[[S], S]:
    """Class decorator: declare the transitions a state can make that its code hides.

    The declared edges are added to the derived structure, and the state's transitions
    count as fully described: the structure no longer reports them as unresolved. Applied
    to a base class, the declaration holds for every state deriving from it.

    Raises:
        DefinitionError: a target is neither a ``State`` subclass nor a string, or the
            decorated class is not a ``State`` subclass.
    """
    declared = Targets(
        _refs(sibling, "sibling"), _refs(inner, "inner"), _refs(inner_entry, "inner_entry")
    )

    def decorate(cls: S) -> S:
        if not issubclass(cls, State):
            raise DefinitionError(
                f"@targets(...) decorates State subclasses; {cls.__qualname__} is not one"
            )
        setattr(cls, _ATTRIBUTE, declared)
        return cls

    return decorate


def declared_targets(cls: type) -> tuple[tuple[type, Targets], ...]:
    """The declarations of ``cls`` and its bases, as ``(declaring class, targets)`` pairs."""
    found = ((owner, vars(owner).get(_ATTRIBUTE)) for owner in cls.__mro__)
    return tuple((owner, t) for owner, t in found if isinstance(t, Targets))


def _scopes(cls: type) -> Iterator[object]:
    """``cls``, the classes enclosing it (innermost first), then its module."""
    yield cls
    module = sys.modules.get(cls.__module__)
    parts = cls.__qualname__.split(".")[:-1]
    if module is None or "<locals>" in parts:
        return
    chain: list[object] = [module]
    for part in parts:
        chain.append(inspect.getattr_static(chain[-1], part, None))
    yield from reversed(chain)


def resolve_reference(ref: TargetRef, declaring: type) -> type[State[Any]] | None:
    """The state class ``ref`` names, seen from ``declaring``, or ``None`` if there is none."""
    if not isinstance(ref, str):
        return ref
    first, *rest = ref.split(".")
    for scope in _scopes(declaring):
        value = declaring if first == declaring.__name__ else _lookup(scope, first)
        for part in rest:
            value = _lookup(value, part)
        if isinstance(value, type) and issubclass(value, State):
            return value
    return None


def _lookup(scope: object, name: str) -> object:
    if scope is None:
        return None
    return inspect.getattr_static(scope, name, None)
