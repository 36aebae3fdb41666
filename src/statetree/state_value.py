"""StateValue: a value that active states set and that is restored when they exit."""

from __future__ import annotations

from typing import Generic, TypeVar

from statetree.errors import StateValueError

__all__ = ["StateValue"]

T = TypeVar("T")


class StateValue(Generic[T]):
    """A read-only value (for code outside states) that states override while active.

    A state sets it with ``self.set_state_value(value_obj, new)`` (or edits an aggregate in
    place through ``self.modify_state_value(value_obj)``); the value the state found is
    restored right after that state's ``on_exit``. Several states restore in reverse order,
    so the value always reflects the states on the stack.
    """

    __slots__ = ("_holders", "_value")

    def __init__(self, initial: T) -> None:
        self._value = initial
        self._holders = 0

    @property
    def value(self) -> T:
        """The current value."""
        return self._value

    @value.setter
    def value(self, _new: T) -> None:
        raise StateValueError(
            "a StateValue cannot be assigned directly: set it from an active state with "
            "self.set_state_value(...), or reset it while no state holds it with "
            "set_initial_value(...)"
        )

    def set_initial_value(self, value: T) -> None:
        """Reset the value outside any state, e.g. when the owner is reset.

        Raises:
            StateValueError: an active state currently holds an override of this value.
        """
        if self._holders:
            raise StateValueError(
                f"set_initial_value({value!r}) while {self._holders} active state(s) hold an "
                "override of this StateValue; their exit would overwrite it. Reset it before "
                "the machine starts or after stop()"
            )
        self._value = value

    def __repr__(self) -> str:
        return f"StateValue({self._value!r})"
