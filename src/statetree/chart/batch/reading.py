"""What a batch tells about its agents: reads that never change them.

Reads are table lookups by each agent's situation: a game reads a whole crowd's states with
one call (``leaf_ids``, ``is_active``, ``counts``) rather than one call per agent.
"""

from __future__ import annotations

from statetree.chart.batch.agents import Agents
from statetree.chart.batch.arrays import Bools, Indexes, np
from statetree.chart.batch.entities import agent_index
from statetree.chart.batch.table import Table
from statetree.chart.batch.view import AgentView
from statetree.chart.compile import CompiledChart
from statetree.chart.model import Chart
from statetree.chart.structure import compiled_structure
from statetree.errors import UsageError
from statetree.structure.model import Structure

__all__ = ["Readings"]


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
