"""One agent of a batch seen as a chart machine: what debuggers and the inspector read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from statetree.chart.batch.arrays import np
from statetree.chart.compile import CompiledChart
from statetree.chart.events import Event
from statetree.chart.model import Chart
from statetree.structure.model import Structure

if TYPE_CHECKING:
    from statetree.chart.batch.reading import Readings as ChartBatch

__all__ = ["AgentView", "RunningTimer"]


@dataclass(frozen=True, slots=True)
class RunningTimer:
    """A timer an agent runs: its name, the state owning it, and when it expires."""

    name: str
    state: str
    due: float


class AgentView:
    """Read-only queries on agent ``index`` of ``batch``, named as on ``ChartMachine``.

    The view reads the batch live: it always shows the agent's current state.
    """

    __slots__ = ("_batch", "index")

    def __init__(self, batch: ChartBatch, index: int) -> None:
        self._batch = batch
        self.index = index

    @property
    def name(self) -> str:
        """``Chart[index]``: the batch's name and the agent's index."""
        return f"{self._batch.name}[{self.index}]"

    @property
    def chart(self) -> Chart:
        """The chart the batch runs."""
        return self._batch.chart

    @property
    def compiled(self) -> CompiledChart:
        """The compiled chart the batch runs."""
        return self._batch.compiled

    @property
    def structure(self) -> Structure:
        """The chart's structure (for plots and the inspector's diagrams)."""
        return self._batch.structure

    @property
    def active(self) -> tuple[str, ...]:
        """The paths of the agent's active states, in processing order."""
        return self._batch.active(self.index)

    def is_active(self, path: str) -> bool:
        """Whether the agent's state at ``path`` is active.

        Raises:
            UsageError: the chart has no state at ``path``.
        """
        self._batch._number(path)  # an unknown path is an error, not False
        return path in self.active

    @property
    def started(self) -> bool:
        """Whether the agent has active states."""
        return bool(self.active)

    @property
    def clock(self) -> float:
        """The agent's time, as advanced by ``tick``."""
        return float(self._batch._agents.clock(self._batch._check(self.index)))

    @property
    def held(self) -> tuple[Event, ...]:
        """The level events the host holds on for the agent, in order of kind and name."""
        batch = self._batch
        index = batch._check(self.index)
        agents, table = batch._agents, batch._table
        situation = table.situation(int(agents.situations[index]))
        aside = (event for event, flags in agents.extra.items() if flags[index])
        return tuple(sorted({*situation.held, *aside}))

    @property
    def timers(self) -> tuple[RunningTimer, ...]:
        """The agent's running timers, in the order they will fire."""
        batch = self._batch
        index = batch._check(self.index)
        agents, layout = batch._agents, batch._table.layout
        running = []
        for key in layout.keys:
            due = float(agents.due[key.row, index])
            if not np.isnan(due):
                order = int(agents.order[key.row, index]) if agents.order.shape[0] else 0
                running.append((due, order, key.name, layout.paths[key.owner]))
        active = set(batch.active(index))
        return tuple(
            RunningTimer(name, state, due)
            for due, _, name, state in sorted(running)
            if state in active
        )

    def __repr__(self) -> str:
        return f"<AgentView {self.name} [{', '.join(self.active)}]>"
