"""What a sharded batch tells about its agents: reads gathered from every shard in one
message each, put together over global indexes; never one agent at a time per shard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from statetree.chart.batch.arguments import Entities, agent_index, select
from statetree.chart.batch.arrays import Bools, Indexes
from statetree.chart.compile import CompiledChart
from statetree.chart.model import Chart
from statetree.errors import UsageError
from statetree.structure.model import Structure

if TYPE_CHECKING:
    from statetree.chart.batch import ChartBatch
    from statetree.chart.shard.driver import Driver

__all__ = ["ShardedReadings"]


class ShardedReadings:
    """The read-only queries of :class:`ShardedBatch`, and its data columns."""

    _driver: Driver
    _probe: ChartBatch
    name: str

    @property
    def chart(self) -> Chart:
        """The chart running now."""
        return self._driver.compiled.chart

    @property
    def compiled(self) -> CompiledChart:
        """The compiled chart running now."""
        return self._driver.compiled

    @property
    def structure(self) -> Structure:
        """The chart's structure (for plots and the inspector)."""
        return self._probe.structure

    @property
    def paths(self) -> tuple[str, ...]:
        """The path of every state, by state number (the numbers :meth:`leaf_ids` gives)."""
        return self._probe.paths

    @property
    def shards(self) -> int:
        """How many shards the batch has."""
        return self._driver.shards

    @property
    def actors(self) -> tuple[Any, ...]:
        """The Ray actor holding each shard (to watch them, or to end one in a drill)."""
        return tuple(self._driver.pool.actors)

    @property
    def offset(self) -> int:
        """The index in a larger population of agent 0 (that of the restored snapshot)."""
        return self._driver.offset

    @property
    def size(self) -> int:
        """How many agent slots there are: global indexes run from 0 to ``size - 1``."""
        return self._driver.layout.size

    @property
    def alive(self) -> Bools:
        """Whether each slot holds an agent (a copy)."""
        alive: Bools = self._driver.layout.alive.copy()
        return alive

    @property
    def population(self) -> int:
        """How many agents there are."""
        return int(np.count_nonzero(self._driver.layout.alive))

    @property
    def owners(self) -> NDArray[np.int32]:
        """The shard of each slot (a copy; a free slot is kept by the shard that had it)."""
        owners: NDArray[np.int32] = self._driver.layout.owner.copy()
        return owners

    @property
    def pending(self) -> int:
        """How many sends between shards wait for the next call."""
        return sum(len(box) for box in self._driver.mail)

    def active(self, index: int) -> tuple[str, ...]:
        """The paths of agent ``index``'s active states (one message to its shard)."""
        layout = self._driver.layout
        index = agent_index(index, layout.size, layout.alive)
        shard = int(layout.owner[index])
        found = self._driver.run("active", {shard: (int(layout.row[index]),)}, changes=False)
        result: tuple[str, ...] = found[shard]
        return result

    def counts(self) -> dict[str, int]:
        """How many agents have each state active, by path."""
        totals = dict.fromkeys(self.paths, 0)
        for found in self._driver.run("counts", changes=False).values():
            for path, count in found.items():
                totals[path] += count
        return totals

    def is_active(self, path: str) -> Bools:
        """Whether the state at ``path`` is active, for every agent slot."""
        self._probe.is_active(path)  # an unknown path is refused before any shard hears it
        flags: Bools = self._gathered("is_active", (path,), np.bool_, False)
        return flags

    def leaf_ids(self, within: str | None = None) -> Indexes:
        """For every agent slot, the number of its innermost active state inside
        ``within`` (``ChartBatch.leaf_ids``); -1 for a free slot."""
        self._probe.leaf_ids(within)
        leaves: Indexes = self._gathered("leaf_ids", (within,), np.intp, -1)
        return leaves

    def _gathered(self, op: str, args: tuple[Any, ...], kind: type, fill: Any) -> NDArray[Any]:
        layout = self._driver.layout
        merged: NDArray[Any] = np.full(layout.size, fill, kind)
        for shard, values in self._driver.run(op, args, changes=False).items():
            merged[layout.members[shard]] = values
        return merged

    # -- data columns ----------------------------------------------------------------------

    def columns(self, *names: str) -> dict[str, NDArray[Any]]:
        """The data columns ``names`` (all by default), one entry per agent slot: one
        message per shard, whatever the number of columns."""
        kinds = self._driver.setup.columns
        wanted = names or tuple(kinds)
        for name in wanted:
            self._column(name)
        layout = self._driver.layout
        merged: dict[str, NDArray[Any]] = {n: np.zeros(layout.size, kinds[n]) for n in wanted}
        for shard, found in self._driver.run("columns", (wanted,), changes=False).items():
            for name, values in found.items():
                merged[name][layout.members[shard]] = values
        return merged

    def set_columns(self, values: Mapping[str, ArrayLike], entities: Entities = None) -> None:
        """Write data columns: for each name, one value, or one per agent of ``entities``
        (per agent slot without ``entities``).

        Raises:
            UsageError: an unknown column, a value that does not fit its type or the
                agents, or an unknown agent; nothing changed.
        """
        layout = self._driver.layout
        ids = None if entities is None else select(entities, layout.alive)
        count = layout.size if ids is None else ids.size
        arrays = {name: self._values(name, value, count) for name, value in values.items()}
        self._driver.run("set_columns", layout.split(arrays, entities, ids))

    def _column(self, name: str) -> np.dtype[Any]:
        kinds = self._driver.setup.columns
        if name not in kinds:
            raise UsageError(f"{self.name!r} has no column {name!r}; columns: {', '.join(kinds)}")
        return kinds[name]

    def _values(self, name: str, value: ArrayLike, count: int) -> NDArray[Any]:
        kind = self._column(name)
        array = np.asarray(value)
        if not np.can_cast(array.dtype, kind, casting="same_kind") or array.size not in (1, count):
            raise UsageError(
                f"column {name!r} ({kind}) needs one value, or one per agent ({count}): got "
                f"{array.size} of type {array.dtype}"
            )
        converted = array.astype(kind)
        if array.size and array.dtype.kind in "iub" and (converted != array).any():
            wrong = array.reshape(-1)[(converted != array).reshape(-1)][0]
            raise UsageError(f"column {name!r} ({kind}) cannot hold {wrong}: it does not fit")
        return np.broadcast_to(converted.reshape(-1), (count,))
