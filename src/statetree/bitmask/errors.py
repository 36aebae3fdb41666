"""Errors specific to bitmask machines, derived from the phases in :mod:`statetree.errors`."""

from __future__ import annotations

from collections.abc import Sequence
from difflib import get_close_matches
from typing import ClassVar

from statetree.errors import DefinitionError, UsageError


class StateDataError(DefinitionError):
    """A state declaration is malformed (wrong type, unknown key, missing name)."""


class DuplicateStateError(DefinitionError):
    """Two states share a name.

    Attributes:
        state: the repeated name.
    """

    def __init__(self, state: str, first: int, second: int) -> None:
        self.state = state
        super().__init__(
            f"state {state!r} is defined twice (positions {first} and {second}); "
            "state names must be unique"
        )


class UnknownStateError(DefinitionError):
    """A rule names a state that the definition does not contain.

    Attributes:
        state: the state whose rule holds the bad reference.
        rule: ``"requires"``, ``"terminates"`` or ``"blocked_by"``.
        missing: the unknown name.
    """

    def __init__(self, state: str, rule: str, missing: str, suggestions: Sequence[str]) -> None:
        self.state = state
        self.rule = rule
        self.missing = missing
        hint = f"; did you mean {' or '.join(map(repr, suggestions))}?" if suggestions else ""
        place = f"a key of {state}" if rule == "key" else f"{state}.{rule}"
        super().__init__(f"{place} names {missing!r}, which is not a defined state{hint}")


class RequirementCycleError(DefinitionError):
    """States require each other in a cycle, so none of them could ever activate.

    Attributes:
        cycle: the states on the cycle, in requirement order.
    """

    def __init__(self, cycle: Sequence[str]) -> None:
        self.cycle = tuple(cycle)
        path = " -> ".join((*self.cycle, self.cycle[0]))
        super().__init__(f"requirement cycle: {path}; a state cannot require itself")


class RuleConflictError(DefinitionError):
    """A state requires a state that it also terminates or is blocked by.

    Attributes:
        state: the state whose rules conflict.
        other: the state it both requires and terminates / is blocked by.
        rule: ``"terminates"`` or ``"blocked_by"``.
        path: the requirement chain from ``state`` to ``other``.
    """

    def __init__(self, state: str, other: str, rule: str, path: Sequence[str]) -> None:
        self.state = state
        self.other = other
        self.rule = rule
        self.path = tuple(path)
        verb = "terminates it" if rule == "terminates" else "is blocked by it"
        via = f" (through {' -> '.join(self.path)})" if len(self.path) > 2 else ""
        super().__init__(
            f"{state} requires {other}{via} but also {verb}, so {state} could never stay active"
        )


class NoSuchStateError(UsageError, LookupError):
    """A call named a state that is not in the machine's definition.

    Attributes:
        ref: what was passed.
    """

    def __init__(self, ref: object, definition: str, known: Sequence[str]) -> None:
        self.ref = ref
        shown = ref.__qualname__ if isinstance(ref, type) else repr(ref)
        where = f"definition {definition!r}" if definition else "this definition"
        name = ref.__name__ if isinstance(ref, type) else ref
        close = get_close_matches(name, list(known), n=1) if isinstance(name, str) else []
        hint = f"; did you mean {close[0]!r}?" if close else ""
        super().__init__(f"{shown} is not a state of {where} (states: {', '.join(known)}){hint}")


class ReentrantRequestError(UsageError):
    """A hook or activation check asked the machine for a change while one was running."""

    def __init__(self, request: str, running: str) -> None:
        self.request = request
        self.running = running
        super().__init__(
            f"{request} was called from {running}; a machine applies one change at a time. "
            "Express the follow-up as a rule (requires / terminates) or make the request "
            "after the current call returns"
        )


class NotPredictableError(UsageError):
    """A client tried to predict a state that is not declared ``predictable``."""

    def __init__(self, state: str) -> None:
        self.state = state
        super().__init__(
            f"{state} is not predictable: declare predictable = True for states that a "
            "client may activate before the server confirms them"
        )


class SelfReferenceError(DefinitionError):
    """A state lists itself in ``terminates`` or ``blocked_by``.

    Attributes:
        state: the state.
        rule: ``"terminates"`` or ``"blocked_by"``.
    """

    _ADVICE: ClassVar[dict[str, str]] = {
        "terminates": "to make activating it again restart it, declare retriggerable = True",
        "blocked_by": "an active state never activates again unless it is retriggerable",
    }

    def __init__(self, state: str, rule: str) -> None:
        self.state = state
        self.rule = rule
        super().__init__(f"{state} lists itself in {rule}; {self._ADVICE[rule]}")
