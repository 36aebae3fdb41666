"""The error of a batch whose agents could not settle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from statetree.errors import TransitionLoopError

__all__ = ["BatchLoopError", "Failure"]


@dataclass(frozen=True, slots=True)
class Failure:
    """Why one agent stopped, as its machine's ``TransitionLoopError`` said it.

    Attributes:
        cycle: the states that kept repeating (for timers: whose timers kept firing).
        timers: its ``tick`` fired more timers than the bound, rather than one processing
            making more changes.
        repeating: ``cycle`` repeats (else it is the last states of a chain).
    """

    cycle: tuple[str, ...]
    timers: bool = False
    repeating: bool = True

    @classmethod
    def of(cls, error: TransitionLoopError) -> Failure:
        """The failure ``error`` tells of."""
        return cls(tuple(error.cycle), error.timers, error.repeating)

    def error(self, machine: str, bound: int, entities: Sequence[int]) -> BatchLoopError:
        """The error of the agents ``entities`` of a batch (``machine`` names the first)."""
        return BatchLoopError(
            machine, self.cycle, bound, entities, timers=self.timers, repeating=self.repeating
        )


class BatchLoopError(TransitionLoopError):
    """Agents of a batch kept changing state within one processing, or fired more timers
    than the bound within one ``tick``.

    Each such agent is left exactly as a ``ChartMachine`` raising
    :class:`~statetree.errors.TransitionLoopError` would be; the other agents completed the
    call. ``machine`` names the batch and the first such agent; ``cycle`` and ``timers``
    are that agent's.

    Attributes:
        entities: every agent that could not settle, ascending.
    """

    def __init__(
        self,
        machine: str,
        cycle: Sequence[str],
        changes: int,
        entities: Sequence[int],
        *,
        timers: bool = False,
        repeating: bool = True,
    ) -> None:
        super().__init__(machine, cycle, changes, timers=timers, repeating=repeating, chart=True)
        self.entities = tuple(entities)
        if len(self.entities) > 1:
            shown = ", ".join(map(str, self.entities[:10]))
            more = ", ..." if len(self.entities) > 10 else ""
            self.args = (f"{self.args[0]} Agents that could not settle: {shown}{more}.",)
