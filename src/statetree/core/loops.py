"""Detection of transition loops: the stack keeps changing within one processing call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from statetree.errors import TransitionLoopError

if TYPE_CHECKING:
    from statetree.core.machine import MachineCore
    from statetree.core.transition import Transition

__all__ = ["KEPT_CHANGES", "LoopWatch", "loop_error"]

KEPT_CHANGES = 64
"""How many of the last changes before the bound are kept to name the cycle."""


class LoopWatch:
    """Remembers the last changes of one processing call and raises past the bound.

    The machine counts changes itself and only involves a watch for the last
    :data:`KEPT_CHANGES` changes before the bound, so calls that settle quickly pay nothing.
    """

    __slots__ = ("bound", "recent")

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.recent: list[str] = []

    @classmethod
    def note(
        cls, watch: LoopWatch | None, machine: MachineCore, chosen: Transition, changes: int
    ) -> LoopWatch:
        """Note change number ``changes`` (starting a watch if needed) and return the watch.

        Raises:
            TransitionLoopError: more than ``machine.max_transitions`` changes; the stack is
                left as it is before this change, so every state on it was entered and not
                exited.
        """
        if watch is None:
            watch = cls(machine.max_transitions)
        watch.recent.append(chosen.target.__qualname__)
        if changes > watch.bound:
            error = loop_error(machine.name, watch.recent, watch.bound)
            depth = len(machine._stack)
            if depth > KEPT_CHANGES:  # deeper than any machine is built: it kept nesting
                error = TransitionLoopError(
                    error.machine,
                    error.cycle,
                    error.changes,
                    repeating=error.repeating,
                    depth=depth,
                )
            raise error
        return watch


def loop_error(
    machine: str, targets: list[str], changes: int, *, timers: bool = False
) -> TransitionLoopError:
    """The ``TransitionLoopError`` of a loop whose last changes entered ``targets``: it
    names the shortest sequence they end by repeating, or their last few if none repeats."""
    for period in range(1, len(targets) // 2 + 1):
        if targets[-period:] == targets[-2 * period : -period]:
            return TransitionLoopError(machine, targets[-period:], changes, timers=timers)
    return TransitionLoopError(machine, targets[-8:], changes, timers=timers, repeating=False)
