"""The error of a batch whose agents could not settle."""

from __future__ import annotations

from collections.abc import Sequence

from statetree.errors import TransitionLoopError

__all__ = ["BatchLoopError"]


class BatchLoopError(TransitionLoopError):
    """Agents of a batch kept changing state within one processing.

    Each such agent is left exactly as a ``ChartMachine`` raising
    :class:`~statetree.errors.TransitionLoopError` would be; the other agents completed the
    call. ``machine`` names the batch and the first such agent, ``cycle`` is that agent's.

    Attributes:
        entities: every agent that could not settle, ascending.
    """

    def __init__(
        self, machine: str, cycle: Sequence[str], changes: int, entities: Sequence[int]
    ) -> None:
        super().__init__(machine, cycle, changes)
        self.entities = tuple(entities)
        if len(self.entities) > 1:
            shown = ", ".join(map(str, self.entities[:10]))
            more = ", ..." if len(self.entities) > 10 else ""
            self.args = (f"{self.args[0]} Agents that could not settle: {shown}{more}.",)
