"""Declared child order: the states inside a parent, in an order that does not move when
the code is refactored.

The order of the states that can be active at one place decides their indexes on the wire
(a packet says "the 2nd of 3 children"), where plots draw them and how a schema lists them.
Derived from code, it follows the order in which the transitions are written, so swapping
two ``if`` branches would change it. Declare it instead:

.. code-block:: python

    @children("Locomotion", "Jump")        # the states directly inside Alive, in order
    @outermost("Alive", "Dead")            # on the initial state: the outermost states
    class Alive(st.State["Character"]):
        ...

Names are looked up as for :func:`~statetree.structure.targets` (the declaring class, then
the classes enclosing it, then its module), so states defined further down can be named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from statetree import State
from statetree.errors import DefinitionError
from statetree.structure.declare import TargetRef, resolve_reference

__all__ = ["Order", "children", "declared_order", "outermost"]

S = TypeVar("S", bound=type)
_CHILDREN = "__statetree_children__"
_OUTERMOST = "__statetree_outermost__"


@dataclass(frozen=True, slots=True)
class Order:
    """An ordered list of states, as declared (classes or names).

    Attributes:
        states: the states, in order.
        owner: the class that declared the order (names are resolved from it).
    """

    states: tuple[TargetRef, ...]
    owner: type

    def resolved(self, name_of: Callable[[type[State[Any]]], str]) -> tuple[str, ...]:
        """The states' names: ``name_of(cls)`` for each state found, else the text given."""
        found = (resolve_reference(ref, self.owner) for ref in self.states)
        return tuple(
            name_of(cls) if cls is not None else str(ref)
            for ref, cls in zip(self.states, found, strict=True)
        )


def _declare(attribute: str, decorator: str, states: tuple[TargetRef, ...]) -> Callable[[S], S]:
    if not states:
        raise DefinitionError(f"@{decorator}() needs the states in order, e.g. @{decorator}(A, B)")
    for ref in states:
        if not (isinstance(ref, str) or (isinstance(ref, type) and issubclass(ref, State))):
            raise DefinitionError(
                f"@{decorator}(...): {ref!r} is neither a State subclass nor a state name"
            )
    labels = [ref if isinstance(ref, str) else ref.__qualname__ for ref in states]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise DefinitionError(f"@{decorator}(...) lists {', '.join(repeated)} more than once")

    def decorate(cls: S) -> S:
        if not issubclass(cls, State):
            raise DefinitionError(
                f"@{decorator}(...) decorates State subclasses; {cls.__qualname__} is not one"
            )
        setattr(cls, attribute, Order(states, cls))
        return cls

    return decorate


def children(*states: TargetRef) -> Callable[[S], S]:
    """Class decorator: the states that can be directly inside this one, in a fixed order.

    List every state that can be its inner state (the targets of its inner and inner-entry
    transitions, and their siblings) and, for a state hosting concurrent regions, every state
    that can be active at the top of one of its regions. Each place keeps the declared order
    of its own states: a state's index on the wire is its position among them. Applied to a
    base class, the declaration holds for every state deriving from it.

    Raises:
        DefinitionError: no state given, one given twice, or a value that is neither a
            ``State`` subclass nor a name; or the decorated class is not a ``State``.
    """
    return _declare(_CHILDREN, "children", states)


def outermost(*states: TargetRef) -> Callable[[S], S]:
    """Class decorator for a machine's initial state: the outermost states, in a fixed order.

    The outermost states are the initial state and every state its sibling transitions
    reach, directly or not (``Alive`` and ``Dead``). Another outermost state may carry the
    declaration instead of the initial state.

    Raises:
        DefinitionError: as for :func:`children`.
    """
    return _declare(_OUTERMOST, "outermost", states)


def declared_order(cls: type, kind: str) -> Order | None:
    """The order ``cls`` declares (or inherits): ``kind`` is ``children`` or ``outermost``."""
    found = getattr(cls, _CHILDREN if kind == "children" else _OUTERMOST, None)
    return found if isinstance(found, Order) else None
