"""The base class of bitmask states: rules as class attributes, hooks as methods."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypeVar

from statetree.bitmask.records import BitCause
from statetree.core.refs import Ref, attributes, new_instance, set_attributes

if TYPE_CHECKING:
    from statetree.bitmask.machine import BitmaskMachine

Owner = TypeVar("Owner")

StateRef: TypeAlias = "str | type[BitState[Any]]"
"""A state named by its name or, for class-declared states, by its class."""


class BitState(Generic[Owner]):
    """One state of a bitmask machine; subclass it to declare a state.

    Rules are class attributes naming other states (by name or class): ``requires`` (needed to
    activate and to stay active), ``terminates`` (deactivated when this activates) and
    ``blocked_by`` (any of them active prevents activation). ``retriggerable`` states exit and
    re-enter when activated again; ``predictable`` states may be activated by a client ahead of
    the server. A machine creates one instance per state (with no arguments) and sets
    ``owner``, ``machine``, ``name`` and ``index`` on it before any hook or check runs.
    """

    __slots__ = ("index", "machine", "name", "owner")

    requires: ClassVar[Collection[StateRef]] = ()
    terminates: ClassVar[Collection[StateRef]] = ()
    blocked_by: ClassVar[Collection[StateRef]] = ()
    retriggerable: ClassVar[bool] = False
    predictable: ClassVar[bool] = False

    owner: Owner
    machine: BitmaskMachine[Owner]
    name: str
    index: int

    def can_activate(self) -> bool:
        """Custom activation check (a cooldown, ammo); runs after the rules have passed.

        It must not change the machine and should not change anything else: ``explain``
        calls it too.

        Returns:
            True if the state may activate.
        """
        return True

    def on_activated(self, cause: BitCause) -> None:
        """Called right after this state became active; the mask already includes it."""

    def on_deactivated(self, cause: BitCause) -> None:
        """Called right after this state became inactive; states requiring it are gone."""

    @property
    def is_active(self) -> bool:
        """Whether this state is active in its machine."""
        return bool(self.machine.mask >> self.index & 1)

    def __repr__(self) -> str:
        name = getattr(self, "name", type(self).__name__)
        return f"<{type(self).__qualname__} {name}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its class's name and its attributes; loaded without ``__init__``."""
        return (new_instance, (Ref(type(self)), BitState), attributes(self))

    def __setstate__(self, values: dict[str, Any]) -> None:
        set_attributes(self, values)


def has_custom_check(cls: type[BitState[Any]]) -> bool:
    """Return whether ``cls`` overrides :meth:`BitState.can_activate`."""
    return cls.can_activate is not BitState.can_activate
