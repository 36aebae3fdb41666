"""The error of a batch whose agents could not settle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from statetree.errors import TransitionLoopError

__all__ = ["BatchLoopError", "Failure"]


@dataclass(frozen=True, slots=True)
class Failure:
    """Why one agent stopped, as its machine's ``TransitionLoopError`` would say.

    Attributes:
        cycle: the states that kept repeating (for timers: whose timers kept firing).
        timers: its ``tick`` fired more timers than the bound, rather than one processing
            making more changes.
    """

    cycle: tuple[str, ...]
    timers: bool = False


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
    ) -> None:
        super().__init__(machine, cycle, changes, timers=timers)
        self.entities = tuple(entities)
        if len(self.entities) > 1:
            shown = ", ".join(map(str, self.entities[:10]))
            more = ", ..." if len(self.entities) > 10 else ""
            self.args = (f"{self.args[0]} Agents that could not settle: {shown}{more}.",)
