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
    from statetree.chart.batch.batch import ChartBatch

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
        store = self._batch._store
        return float(store.clock[self._batch._check(self.index)])

    @property
    def held(self) -> tuple[Event, ...]:
        """The level events the host holds on for the agent."""
        store = self._batch._store
        index = self._batch._check(self.index)
        return tuple(e for row, e in enumerate(store.held_events) if store.held[row, index])

    @property
    def timers(self) -> tuple[RunningTimer, ...]:
        """The agent's running timers, in the order they will fire."""
        batch = self._batch
        index = batch._check(self.index)
        store, plan = batch._store, batch._engine.plan
        running = []
        active = store.states(np.array([index]))[:, 0]
        for key in plan.timers.keys:
            due = store.due[key.row, index]
            if active[key.owner] and not np.isnan(due):
                order = int(store.sequence[key.row, index]) if store.sequence.size else 0
                running.append((float(due), order, key.name, plan.tree.paths[key.owner]))
        return tuple(RunningTimer(name, state, due) for due, _, name, state in sorted(running))

    def __repr__(self) -> str:
        return f"<AgentView {self.name} [{', '.join(self.active)}]>"
