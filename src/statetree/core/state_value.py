"""StateValue: a value that active states set and that is restored when they exit."""

from __future__ import annotations

import threading
import weakref
from typing import Any, Generic, TypeVar

from statetree.errors import StateValueError

__all__ = ["StateValue", "plain_value"]

T = TypeVar("T")


class StateValue(Generic[T]):
    """A read-only value (for code outside states) that states override while active.

    A state sets it with ``self.set_state_value(value_obj, new)`` (or edits an aggregate in
    place through ``self.modify_state_value(value_obj)``); the value the state found at its
    first change is restored right after that state's ``on_exit``, as the book and its C++
    library do: each state puts back what it saved, whatever other states did since. A
    state freed without exiting (its machine dropped without ``stop()``) puts its value back
    once Python frees it, as the C++ destructor does: at the value's next use.

    Read it as ``.value``. Compared with a plain value, it compares its value (as C++'s
    implicit conversion does: ``speed == 1.0``); two state values are equal only when they
    are one object, and it hashes as that object. It has no truth value: test ``.value``.
    """

    __slots__ = ("__weakref__", "_copies", "_freed", "_holders", "_lock", "_value")

    def __init__(self, initial: T) -> None:
        self._value = plain_value(initial, "StateValue")
        # (state, value it found, its place) for each active state that set this value,
        # oldest first. The state is held weakly: a value shared by many machines keeps none
        # of them alive. Its place in its machine orders what freed states put back (_settle).
        self._holders: list[tuple[weakref.ref[Any], T, tuple[int, ...]]] = []
        # A holder was freed without exiting. The collector's callback only says so: the
        # values are put back at the next use (see _settle), on the thread using the value,
        # never in the middle of another change of it.
        self._freed = False
        self._lock = threading.RLock()  # machines on several threads may share one value
        # (state, its copy) for each holder that edits a copy in place (modify_state_value):
        # a copy may be edited in place while it is live; any other live object (the
        # initial value, one given to set_state_value) is copied before a state edits it.
        self._copies: list[tuple[weakref.ref[Any], T]] = []

    @property
    def value(self) -> T:
        """The current value."""
        if self._freed:
            self._settle()
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
        plain_value(value, "set_initial_value")
        self._settle()
        self._copies = []
        if self._holders:
            raise StateValueError(
                f"set_initial_value({value!r}) while {len(self._holders)} active state(s) hold an "
                "override of this StateValue; their exit would overwrite it. Reset it before "
                "the machine starts or after stop()"
            )
        self._value = value

    def _settle(self) -> None:
        """Put back what each freed holder found in the order ``stop()`` exits states
        (innermost first, the last region first; then the newest), as a dropped machine's
        states are destroyed."""
        with self._lock:
            if not self._freed:
                return
            self._freed = False
            freed = [
                (place, n, found)
                for n, (h, found, place) in enumerate(self._holders)
                if h() is None
            ]
            for _, _, found in sorted(freed, key=lambda item: (item[0], item[1]), reverse=True):
                self._value = found
            self._holders = [entry for entry in self._holders if entry[0]() is not None]
            self._copies = [(state, copy) for state, copy in self._copies if state() is not None]

    def _current(self) -> T:
        """The value, once freed holders have put theirs back."""
        self._settle()
        return self._value

    def _held_by(self, state: object) -> bool:
        """Whether ``state`` has changed this value and not exited since."""
        self._settle()
        return any(holder() is state for holder, _, _ in self._holders)

    def _hold(self, state: object, place: tuple[int, ...]) -> bool:
        """Remember the value ``state`` (at ``place`` in its machine) found, unless it
        already holds this value."""
        with self._lock:
            if self._held_by(state):
                return False
            self._holders.append((weakref.ref(state, self._on_free), self._value, place))
            return True

    def _editable(self) -> bool:
        """Whether the live value is a copy a holder made to edit in place, rather than an
        object given from outside (which an edit must never change)."""
        return any(copy is self._value and editor() is not None for editor, copy in self._copies)

    def _edited_by(self, state: object, copy: T) -> None:
        """``state`` edits ``copy`` in place, now the live value."""
        self._copies = [(e, c) for e, c in self._copies if e() is not state and e() is not None]
        self._copies.append((weakref.ref(state), copy))
        self._value = copy

    def _release(self, state: object) -> None:
        """``state`` exited: restore the value it found at its first change."""
        with self._lock:
            self._settle()
            self._copies = [(e, c) for e, c in self._copies if e() is not state]
            holders = self._holders
            for index in range(len(holders)):
                holder, found, _ = holders[index]
                if holder() is state:
                    del holders[index]
                    self._value = found
                    return

    def _on_free(self, _gone: weakref.ref[Any]) -> None:
        """A holding state was freed without exiting (called by the collector)."""
        self._freed = True

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StateValue):
            return other is self
        try:
            return bool(self.value == other)
        except (TypeError, ValueError):  # no single truth (an array's): unequal, by identity
            return NotImplemented

    __hash__ = object.__hash__  # by identity, as equality between state values

    def __bool__(self) -> bool:
        raise StateValueError(
            f"{self!r} has no truth value: test its .value (if owner.flag.value: ...)"
        )

    def __repr__(self) -> str:
        return f"StateValue({self.value!r})"

    # -- saving (pickle, copy.deepcopy) -------------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its value, the value each holding state found (and its place), and the
        copy each state editing in place edits (the live value, when it is: the same object
        once loaded)."""
        with self._lock:
            value = self._current()
            holders = [
                (s, found, place) for h, found, place in self._holders if (s := h()) is not None
            ]
            copies = [(state, copy) for e, copy in self._copies if (state := e()) is not None]
        return (load_state_value, (), {"value": value, "holders": holders, "copies": copies})

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self._value = saved["value"]
        self._copies = [(weakref.ref(e), copy) for e, copy in saved.get("copies", ())]
        self._holders = [
            (weakref.ref(held[0], self._on_free), held[1], _place(held))
            for held in saved["holders"]
        ]


def _place(held: tuple[Any, ...]) -> tuple[int, ...]:
    """A saved holder's place (saves made before places were kept have none)."""
    place = held[2] if len(held) > 2 else ()
    return (place,) if isinstance(place, int) else tuple(place)


def load_state_value() -> StateValue[Any]:
    """The loader of a saved state value (its ``__setstate__`` fills it); named in saves."""
    return StateValue(None)


def plain_value(value: T, call: str) -> T:
    """``value``, known not to be a ``StateValue`` itself (a forgotten ``.value``).

    Raises:
        StateValueError: it is one.
    """
    if isinstance(value, StateValue):
        raise StateValueError(
            f"{call}() was given a StateValue as the value, {value!r}: give its value "
            "(other.value), a StateValue holds a plain value"
        )
    return value
