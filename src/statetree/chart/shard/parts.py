"""What a shard is made of, as data that travels between the driver and the actors.

A shard's agents are a :class:`~statetree.chart.BatchSnapshot` (or a count of agents not
started yet) plus the host's data columns and the global index of each of its slots. Its
slots are in increasing global order: a shard's first failing agent in a call is then also
its first by global index, and global indexes are found by binary search.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np
from numpy.typing import DTypeLike, NDArray

from statetree.chart.batch import BatchCall, BatchHandler, BatchSnapshot, ChartBatch
from statetree.chart.batch.arguments import count_of
from statetree.chart.batch.arrays import Indexes
from statetree.chart.batch.errors import Failure
from statetree.chart.compile import CompiledChart
from statetree.chart.events import Event
from statetree.chart.model import Chart
from statetree.core.trace import TraceLevel
from statetree.errors import UsageError, require_callable, require_name

if TYPE_CHECKING:
    from statetree.chart.shard.shard import Shard

__all__ = [
    "Columns",
    "Loop",
    "Mail",
    "Reply",
    "ShardHandler",
    "ShardPart",
    "ShardSetup",
    "StepFunction",
    "take",
]

ShardHandler: TypeAlias = "Callable[[Shard, BatchCall], None]"
"""A host action handler of a sharded batch: runs in the shard's actor, with the shard (its
data columns, its calls) and the call (``call.entities`` are global indexes)."""
StepFunction: TypeAlias = "Callable[..., Any]"
"""The per-frame work of a shard: ``step(shard, *args)``, run in every shard's actor by
``ShardedBatch.step(*args)``; what it returns comes back, one value per shard."""
Columns: TypeAlias = "dict[str, NDArray[Any]]"
Mail: TypeAlias = "tuple[Event, Indexes]"
"""An event sent to agents of another shard (global indexes), delivered at the next call."""


@dataclass(frozen=True)
class ShardSetup:
    """What every shard of one batch shares: the host's code and the column types."""

    name: str
    handlers: Mapping[str, ShardHandler]
    step: StepFunction | None
    columns: Mapping[str, np.dtype[Any]]
    max_transitions: int
    shards: int

    @classmethod
    def of(
        cls,
        compiled: CompiledChart,
        handlers: Mapping[str, ShardHandler],
        shards: int,
        columns: Mapping[str, DTypeLike] | None,
        *,
        step: StepFunction | None,
        name: str | None,
        bound: int,
    ) -> ShardSetup:
        """The setup of a batch, its arguments checked as ``ChartBatch`` checks its own.

        Raises:
            HandlerError: an action the chart uses has no handler, or one that cannot be
                called.
            UsageError: fewer than one shard, a column type NumPy does not know, a ``step``
                that cannot be called, or a ``max_transitions`` below 1.
        """
        if count_of(shards, "a sharded batch needs at least 1 shard") < 1:
            raise UsageError(f"a sharded batch needs at least 1 shard, got {shards}")
        if step is not None:
            require_callable(step, "step")
        if not isinstance(columns, (Mapping, type(None))):
            raise UsageError(f"columns is a mapping of name to NumPy type, got {columns!r}")
        kinds = {}
        for column, kind in (columns or {}).items():
            try:
                kinds[column] = np.dtype(kind)
            except TypeError as error:
                raise UsageError(f"column {column!r}: {kind!r} is not a NumPy type") from error
        # A batch of no agents checks the handlers as every shard's batch will, calling none.
        ChartBatch(compiled, 0, cast("Mapping[str, BatchHandler]", handlers), max_transitions=bound)
        name = compiled.chart.name if name is None else require_name(name)
        return cls(name, dict(handlers), step, kinds, bound, shards)


@dataclass(frozen=True)
class ShardPart:
    """The agents of one shard.

    Attributes:
        chart: the chart they run.
        members: the global index of each slot, increasing (free slots included).
        snapshot: their arrays, or ``None`` for ``len(members)`` agents not started.
        columns: the host's data, one row per slot (empty: all zeros).
        traced: the trace level of each agent traced, by global index.
    """

    chart: Chart
    members: Indexes
    snapshot: BatchSnapshot | None = None
    columns: Columns = field(default_factory=dict)
    traced: Mapping[int, TraceLevel] = field(default_factory=dict)

    def traced_of(self, members: Indexes) -> dict[int, TraceLevel]:
        """The trace levels of the agents traced among ``members`` (global indexes)."""
        kept = set(members.tolist())
        return {agent: level for agent, level in self.traced.items() if agent in kept}


@dataclass(frozen=True)
class Loop:
    """Agents of a shard that could not settle (global indexes): why the first did not."""

    entities: tuple[int, ...]
    failure: Failure


@dataclass(frozen=True)
class Reply:
    """What a shard answers to a call: its result, the mail its agents sent to other
    shards, the agents that could not settle, the error that aborted it, and the trace lines
    of its traced agents (global index, line), in order."""

    result: Any = None
    outbox: tuple[Mail, ...] = ()
    loops: tuple[Loop, ...] = ()
    error: BaseException | None = None
    lines: tuple[tuple[int, str], ...] = ()


def take(snapshot: BatchSnapshot, positions: Indexes, offset: int = 0) -> BatchSnapshot:
    """The slots ``positions`` of ``snapshot`` (in that order), as a snapshot of their own."""
    arrays = {name: array[..., positions] for name, array in snapshot.arrays.items()}
    return BatchSnapshot(
        snapshot.chart, snapshot.carried, snapshot.held_events, snapshot.sequence, offset, arrays
    )
