"""StateValue: a value that active states set and that is restored when they exit."""

from __future__ import annotations

import weakref
from typing import Any, Generic, TypeVar

from statetree.errors import StateValueError

__all__ = ["StateValue"]

T = TypeVar("T")


class StateValue(Generic[T]):
    """A read-only value (for code outside states) that states override while active.

    A state sets it with ``self.set_state_value(value_obj, new)`` (or edits an aggregate in
    place through ``self.modify_state_value(value_obj)``); the value the state found at its
    first change is restored right after that state's ``on_exit``, as the book and its C++
    library do: each state puts back what it saved, whatever other states did since. A
    state freed without exiting (its machine dropped without ``stop()``) puts its value back
    when Python frees it, as the C++ destructor does.

    It has no truth value and compares by identity: read ``.value``.
    """

    __slots__ = ("__weakref__", "_holders", "_value")

    def __init__(self, initial: T) -> None:
        self._value = initial
        # (state, value it found) for each active state that set this value, oldest first.
        # The state is held weakly: a value shared by many machines keeps none of them alive.
        self._holders: list[tuple[weakref.ref[Any], T]] = []

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
                f"set_initial_value({value!r}) while {len(self._holders)} active state(s) hold an "
                "override of this StateValue; their exit would overwrite it. Reset it before "
                "the machine starts or after stop()"
            )
        self._value = value

    def _held_by(self, state: object) -> bool:
        """Whether ``state`` has changed this value and not exited since."""
        return any(holder() is state for holder, _ in self._holders)

    def _hold(self, state: object) -> bool:
        """Remember the value ``state`` found, unless it already holds this value."""
        if self._held_by(state):
            return False
        self._holders.append((weakref.ref(state, self._freed), self._value))
        return True

    def _release(self, state: object) -> None:
        """``state`` exited: restore the value it found at its first change."""
        holders = self._holders
        # Indexed, allocating no container: the collector (whose callbacks may remove
        # entries, see _freed) cannot run between finding an entry and deleting it.
        for index in range(len(holders)):
            holder, found = holders[index]
            if holder() is state:
                del holders[index]
                self._value = found
                return

    def _freed(self, gone: weakref.ref[Any]) -> None:
        """A holding state was freed without exiting: restore the value it found."""
        holders = self._holders
        for index in range(len(holders)):
            holder, found = holders[index]
            if holder is gone:
                del holders[index]
                self._value = found
                return

    def __bool__(self) -> bool:
        raise StateValueError(
            f"{self!r} has no truth value: test its .value (if owner.flag.value: ...)"
        )

    def __repr__(self) -> str:
        return f"StateValue({self._value!r})"

    # -- saving (pickle, copy.deepcopy) -------------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its value and the value each holding state found."""
        holders = [(h(), found) for h, found in self._holders if h() is not None]
        return (load_state_value, (), {"value": self._value, "holders": holders})

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self._value = saved["value"]
        self._holders = [(weakref.ref(h, self._freed), found) for h, found in saved["holders"]]


def load_state_value() -> StateValue[Any]:
    """The loader of a saved state value (its ``__setstate__`` fills it); named in saves."""
    return StateValue(None)
