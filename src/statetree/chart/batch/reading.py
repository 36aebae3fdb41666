"""What a batch tells about its agents: reads that never change them.

Reads are table lookups by each agent's situation: a game reads a whole crowd's states with
one call (``leaf_ids``, ``is_active``, ``counts``) rather than one call per agent; and
one agent reads as a chart machine (:class:`AgentView`), for debuggers and the inspector.
"""

from __future__ import annotations

from dataclasses import dataclass

from statetree.chart.batch.agents import Agents
from statetree.chart.batch.arguments import agent_index
from statetree.chart.batch.arrays import Bools, Indexes, np
from statetree.chart.batch.table import Table
from statetree.chart.compile import CompiledChart
from statetree.chart.events import Event
from statetree.chart.model import Chart
from statetree.chart.structure import compiled_structure
from statetree.errors import UsageError
from statetree.structure.model import Structure

__all__ = ["AgentView", "Readings", "RunningTimer"]


class Readings:
    """The read-only queries of :class:`~statetree.chart.ChartBatch`."""

    _table: Table
    _agents: Agents
    name: str

    @property
    def chart(self) -> Chart:
        """The chart running now."""
        return self._table.layout.compiled.chart

    @property
    def compiled(self) -> CompiledChart:
        """The compiled chart running now."""
        return self._table.layout.compiled

    @property
    def structure(self) -> Structure:
        """The chart's structure (for plots and the inspector)."""
        return compiled_structure(self.compiled)

    @property
    def size(self) -> int:
        """How many agent slots there are: indexes run from 0 to ``size - 1``."""
        return self._agents.size

    @property
    def alive(self) -> Bools:
        """Whether each slot holds an agent (a new array, shape ``(size,)``)."""
        return self._agents.alive

    @property
    def nbytes(self) -> int:
        """The bytes the agents' arrays take (free and spare slots included)."""
        return self._agents.nbytes

    @property
    def population(self) -> int:
        """How many agents there are."""
        return int(np.count_nonzero(self._agents.alive))

    @property
    def paths(self) -> tuple[str, ...]:
        """The path of every state of the chart, by state number: the names of the numbers
        :meth:`leaf_ids` gives."""
        return self._table.layout.paths

    def active(self, index: int) -> tuple[str, ...]:
        """The paths of agent ``index``'s active states, in processing order (what
        ``ChartMachine.active`` gives for that agent)."""
        situation = self._table.situation(int(self._agents.situations[self._check(index)]))
        return tuple(self.paths[number] for number in situation.active)

    def is_active(self, path: str) -> Bools:
        """Whether the state at ``path`` is active, for every agent slot (a new array).

        Raises:
            UsageError: the chart has no state at ``path``.
        """
        column = self._table.active[:, self._number(path)]
        found: Bools = column[self._agents.situations[: self.size]]
        return found

    def counts(self) -> dict[str, int]:
        """How many agents have each state active, by path (every state of the chart)."""
        table = self._table
        tally = np.bincount(self._agents.situations[: self.size], minlength=len(table.situations))
        totals = tally @ table.active[: tally.size]
        return dict(zip(self.paths, totals.tolist(), strict=True))

    def agent(self, index: int) -> AgentView:
        """A live, read-only view of agent ``index`` (active states, clock, timers)."""
        self._check(index)
        return AgentView(self, int(index))

    def _check(self, index: object) -> int:
        return agent_index(index, self.size, self._agents.situations)

    def _number(self, path: str) -> int:
        number = self._table.layout.numbers.get(path) if isinstance(path, str) else None
        if number is None:
            raise self.compiled.no_state(path)
        return number

    def leaf_ids(self, within: str | None = None) -> Indexes:
        """For every agent slot, the number of its innermost active state inside
        ``within`` (the root by default): ``paths[number]`` is its path; -1 for a free slot
        or an agent in which ``within`` is not active. One call reads a whole crowd.

        Raises:
            UsageError: the chart has no state ``within``, or a state inside it hosts
                concurrent regions (an agent has several innermost states there: read
                each region with its own call).
        """
        layout = self._table.layout
        top = 0 if within is None else self._number(within)
        end = layout.end[top]
        regions = [n for n in range(top, end) if layout.concurrent(n)]
        if regions:
            host = layout.paths[regions[0]]
            kids = ", ".join(layout.paths[kid] for kid in layout.children[regions[0]])
            raise UsageError(
                f"state {host} runs concurrent regions, so an agent has one innermost state "
                f"in each: read them one by one, with leaf_ids(region) for each of {kids}"
            )
        flags = self._table.active[:, top:end]
        leaves = np.where(flags.any(axis=1), end - 1 - np.argmax(flags[:, ::-1], axis=1), -1)
        found: Indexes = leaves.astype(np.intp)[self._agents.situations[: self.size]]
        return found


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

    def __init__(self, batch: Readings, index: int) -> None:
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
