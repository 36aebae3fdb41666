"""What a batch tells about its agents: reads that never change them.

Reads are array operations over every agent slot, or one agent's column: a game reads a
whole crowd's states with one call (``leaf_ids``, ``is_active``, ``counts``) rather than
one call per agent.
"""

from __future__ import annotations

from statetree.chart.batch.arrays import Bools, Indexes, np
from statetree.chart.batch.engine import Engine
from statetree.chart.batch.store import Store
from statetree.chart.compile import CompiledChart
from statetree.chart.model import Chart, Policy
from statetree.chart.structure import compiled_structure
from statetree.errors import UsageError
from statetree.structure.model import Structure

__all__ = ["Readings"]


class Readings:
    """The read-only queries of :class:`~statetree.chart.ChartBatch`."""

    _store: Store
    _engine: Engine

    @property
    def chart(self) -> Chart:
        """The chart running now."""
        return self._engine.plan.compiled.chart

    @property
    def compiled(self) -> CompiledChart:
        """The compiled chart running now."""
        return self._engine.plan.compiled

    @property
    def structure(self) -> Structure:
        """The chart's structure (for plots and the inspector)."""
        return compiled_structure(self.compiled)

    @property
    def size(self) -> int:
        """How many agent slots there are: indexes run from 0 to ``size - 1``."""
        return self._store.size

    @property
    def alive(self) -> Bools:
        """Whether each slot holds an agent (a copy, shape ``(size,)``)."""
        alive: Bools = self._store.alive[: self.size].copy()
        return alive

    @property
    def nbytes(self) -> int:
        """The bytes the agents' arrays take (free and spare slots included)."""
        return sum(array.nbytes for array in self._store.arrays().values())

    @property
    def population(self) -> int:
        """How many agents there are."""
        return int(np.count_nonzero(self._store.alive[: self.size]))

    def active(self, index: int) -> tuple[str, ...]:
        """The paths of agent ``index``'s active states, in processing order (what
        ``ChartMachine.active`` gives for that agent)."""
        paths = self._engine.plan.tree.paths
        column = self._store.states(np.array([self._check(index)]))[:, 0]
        return tuple(paths[number] for number in column.nonzero()[0].tolist())

    def is_active(self, path: str) -> Bools:
        """Whether the state at ``path`` is active, for every agent slot (a copy).

        Raises:
            UsageError: the chart has no state at ``path``.
        """
        return self._store.state(self._number(path))

    def counts(self) -> dict[str, int]:
        """How many agents have each state active, by path (every state of the chart)."""
        totals = np.count_nonzero(self._store.states(slice(0, self.size)), axis=1).tolist()
        return dict(zip(self._engine.plan.tree.paths, totals, strict=True))

    def _check(self, index: int) -> int:
        if not (0 <= index < self.size and self._store.alive[index]):
            raise UsageError(f"agent {index} does not exist (the batch has {self.size} slots)")
        return index

    def _number(self, path: str) -> int:
        number = self._engine.plan.numbers.get(path)
        if number is None:
            known = ", ".join(self._engine.plan.tree.paths)
            raise UsageError(f"chart {self.chart.name!r} has no state {path!r}; states: {known}")
        return number

    @property
    def paths(self) -> tuple[str, ...]:
        """The path of every state of the chart, by state number: the names of the numbers
        :meth:`leaf_ids` gives."""
        return self._engine.plan.tree.paths

    def leaf_ids(self, within: str | None = None) -> Indexes:
        """For every agent slot, the number of its innermost active state inside
        ``within`` (the root by default): ``paths[number]`` is its path; -1 for a free slot
        or an agent in which ``within`` is not active. One call reads a whole crowd.

        Raises:
            UsageError: the chart has no state ``within``, or a state inside it hosts
                concurrent regions (an agent has several innermost states there: read
                each region with its own call).
        """
        tree = self._engine.plan.tree
        top = 0 if within is None else self._number(within)
        end = tree.end[top]
        regions = [n for n in range(top, end) if tree.policy(n) is Policy.CONCURRENT]
        if regions:
            host = tree.paths[regions[0]]
            kids = ", ".join(tree.paths[kid] for kid in tree.children[regions[0]])
            raise UsageError(
                f"state {host} runs concurrent regions, so an agent has one innermost state "
                f"in each: read them one by one, with leaf_ids(region) for each of {kids}"
            )
        flags = self._store.flag_rows(np.arange(top, end))
        found = flags.any(axis=0)
        last = (end - 1) - np.argmax(flags[::-1], axis=0)
        leaves: Indexes = np.where(found, last, -1).astype(np.intp)
        return leaves
