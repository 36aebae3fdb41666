"""Host actions performed for many agents at once: one handler call, every agent in it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from statetree.chart.actions import ActionCall, Phase
from statetree.chart.batch.arrays import Indexes
from statetree.chart.model import ParamValue

__all__ = ["BatchCall", "BatchHandler"]


@dataclass(frozen=True, slots=True, eq=False)
class BatchCall:
    """One action of one state, performed by several agents at once.

    Attributes:
        action: the action as a ``ChartMachine``'s handler receives it.
        entities: the indexes of the agents performing it, ascending (read-only).
    """

    action: ActionCall
    entities: Indexes

    @property
    def type(self) -> str:
        """The action type, e.g. ``play_animation``."""
        return self.action.type

    @property
    def params(self) -> Mapping[str, ParamValue]:
        """The action's parameters (read-only), e.g. ``{"name": "Idle", "loop": True}``."""
        return self.action.params

    @property
    def state(self) -> str:
        """The path of the state whose action it is."""
        return self.action.state

    @property
    def phase(self) -> Phase:
        """``"enter"`` or ``"exit"``."""
        return self.action.phase

    def __str__(self) -> str:
        return f"{self.action} x{len(self.entities)}"


BatchHandler = Callable[[BatchCall], None]
"""What the host registers for an action type in a batch: called with a :class:`BatchCall`."""
