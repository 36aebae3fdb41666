"""The exceptions statetree raises. Every one derives from :class:`StateTreeError`.

They are split by phase: a definition that can never work (:class:`DefinitionError`), a call
made at the wrong time or with the wrong thing (:class:`UsageError`), a machine that cannot
settle (:class:`TransitionLoopError`), bytes that cannot be trusted (:class:`DecodeError`), and
saves that cannot be written (:class:`SaveError`) or read back (:class:`LoadError`).
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any


class StateTreeError(Exception):
    """Root of every exception raised by statetree itself.

    Every statetree exception pickles with its message and its fields (so it crosses
    process boundaries, e.g. with ``multiprocessing``), whatever its constructor takes.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        # The default rebuilds an exception by calling its class with ``args`` (the
        # message), which fails for constructors taking fields: rebuild without it.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[StateTreeError], args: tuple[Any, ...], fields: dict[str, Any]) -> Any:
    """The unpickled exception: ``cls`` with ``args`` and ``fields``, its ``__init__`` skipped."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(fields)
    return error


class DefinitionError(StateTreeError, ValueError):
    """A machine, chart or rule set is defined in a way that can never work."""


class UsageError(StateTreeError, RuntimeError):
    """The library was called at the wrong time or with the wrong kind of argument."""


def require_callable(value: object, role: str) -> None:
    """Refuse ``value`` where a callable is needed: at once, rather than when it is called.

    Raises:
        UsageError: ``value`` is not callable (``role`` says what it was given as).
    """
    if not callable(value):
        raise UsageError(f"{role} must be callable, got {value!r} ({type(value).__name__})")


def require_name(name: object) -> str:
    """``name``, checked to be a machine's name (a ``str``): one rule for every engine.

    Raises:
        UsageError: it is something else.
    """
    if not isinstance(name, str):
        raise UsageError(f"a machine's name must be a str, got {name!r}")
    return name


class TransitionTargetError(UsageError, TypeError):
    """A transition names something that is not a ``State`` subclass."""


class StateArgumentError(UsageError, TypeError):
    """A transition's arguments do not fit the target state's ``on_enter`` signature."""


class NotStartedError(UsageError):
    """A machine was asked to update before its first ``process_state_transitions``."""


class StateValueError(UsageError):
    """A :class:`~statetree.StateValue` was set from outside any active state."""


class TransitionLoopError(StateTreeError, RuntimeError):
    """The stack kept changing within one ``process_state_transitions`` call.

    A chart machine raises it too when one ``tick`` fires more timers than its bound:
    timers that restart each other with a zero or tiny delay never let time pass.

    Attributes:
        machine: the name of the machine (may be empty).
        cycle: qualified names of the states that kept repeating, in order (for timers:
            the states whose timers kept firing); when no state repeated among the last
            changes (a chain longer than the bound), the last states.
        changes: how many stack changes the call made before giving up (for timers: how
            many timers the tick fired).
        timers: raised by a chart machine's ``tick`` for its timers.
        repeating: ``cycle`` repeats; false for the last states of a chain.
        chart: raised by a chart (its advice is about conditions, not code).
        depth: how many states the stack held, when the changes kept nesting states deeper
            (0 otherwise).
    """

    def __init__(
        self,
        machine: str,
        cycle: Sequence[str],
        changes: int,
        *,
        timers: bool = False,
        repeating: bool = True,
        chart: bool = False,
        depth: int = 0,
    ) -> None:
        self.machine = machine
        self.cycle = tuple(cycle)
        self.changes = changes
        self.timers = timers
        self.repeating = repeating
        self.chart = chart
        self.depth = depth
        where = f"machine {machine!r}" if machine else "a machine"
        if not self.cycle:
            said = "the repeating cycle is not known here"
        elif repeating:
            said = f"the repeating cycle is {' -> '.join(self.cycle)} -> {self.cycle[0]}"
        elif len(self.cycle) > 1:  # the last target is the change refused
            made, refused = " -> ".join(self.cycle[:-1]), self.cycle[-1]
            said = f"no state repeated; its last changes went to {made}, the next to {refused}"
        else:
            said = f"no state repeated; its next change went to {self.cycle[0]}"
        if timers:
            message = (
                f"{where} fired {changes} timers in one tick() without reaching its end; "
                f"{said}. Timers that restart each other with a zero or tiny delay never "
                "let time pass: give them a longer delay, or raise max_transitions if the "
                "machine really needs more."
            )
        elif chart:
            message = (
                f"{where} changed its active states {changes} times in one processing without "
                f"settling; {said}. A condition stays true after its target is entered (an "
                "event the target's enter actions raise, a level still held, a post-condition "
                "that holds at once): change the chart, or raise max_transitions if it really "
                "needs more."
            )
        elif depth:
            message = (
                f"{where} changed its state stack {changes} times in one "
                f"process_state_transitions() call without settling; {said}, each change "
                f"nesting a state inside the last (the stack holds {depth} states). A state "
                "whose transition() enters a state of its own class as its inner nests "
                "without end: stop at a leaf state, or give the inner state another class."
            )
        else:
            message = (
                f"{where} changed its state stack {changes} times in one "
                f"process_state_transitions() call without settling; {said}. A "
                "transition() condition stays true after its target is entered: reset the "
                "condition in on_enter, or raise max_transitions if the machine really needs "
                "more."
            )
        super().__init__(message)

    def in_chart(self) -> TransitionLoopError:
        """The same error, as a chart's: its advice is about the chart's conditions."""
        return TransitionLoopError(
            self.machine,
            self.cycle,
            self.changes,
            timers=self.timers,
            repeating=self.repeating,
            chart=True,
            depth=self.depth,
        )


class DecodeError(StateTreeError, ValueError):
    """Received bytes do not describe a legal configuration; nothing was changed."""


class SaveError(StateTreeError, pickle.PicklingError):
    """Something a save holds cannot be saved (a class or function that cannot be found
    again by its name, a machine running one of its hooks); nothing was saved."""


class LoadError(DecodeError, pickle.UnpicklingError):
    """A save cannot be loaded: the program no longer defines a class or function the save
    names (renamed, moved or removed), or the bytes are not a save; nothing was built."""
