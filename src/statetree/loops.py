"""Detection of transition loops: the stack keeps changing within one processing call."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from statetree.errors import TransitionLoopError

if TYPE_CHECKING:
    from statetree.machine import StateMachine
    from statetree.transition import Transition

__all__ = ["LoopWatch", "find_cycle"]

# How many of the last changes are kept to name the cycle in the error message.
_KEPT = 64


class LoopWatch:
    """Counts the stack changes of one processing call and raises past the bound."""

    __slots__ = ("bound", "changes", "recent")

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.changes = 0
        self.recent: list[str] = []

    def count(self, machine: StateMachine[Any], chosen: Transition) -> None:
        """Count one change; raise :class:`TransitionLoopError` once past the bound.

        Raises:
            TransitionLoopError: more than ``bound`` changes; the stack is left as it is
                before this change, so every state on it was entered and not exited.
        """
        self.changes += 1
        if self.changes > self.bound - _KEPT:
            self.recent.append(chosen.target.__qualname__)
        if self.changes > self.bound:
            raise TransitionLoopError(machine.name, find_cycle(self.recent), self.bound)


def find_cycle(targets: list[str]) -> list[str]:
    """The shortest sequence that ``targets`` ends by repeating (its last few if none)."""
    for period in range(1, len(targets) // 2 + 1):
        if targets[-period:] == targets[-2 * period : -period]:
            return targets[-period:]
    return targets[-8:]
