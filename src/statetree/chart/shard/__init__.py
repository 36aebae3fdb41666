"""Sharded batches: one population of a chart split into shards held by Ray actors.

``from statetree.chart import ShardedBatch`` is the usual import. This package needs NumPy
and Ray (the ``shard`` extra); Ray is imported only when a batch or a pool is first made.
"""

from __future__ import annotations

from statetree.chart.shard.cluster import ShardPool
from statetree.chart.shard.errors import ShardError, ShardLostError
from statetree.chart.shard.parts import ShardHandler, StepFunction
from statetree.chart.shard.shard import Shard
from statetree.chart.shard.sharded import ShardedBatch

__all__ = [
    "Shard",
    "ShardError",
    "ShardHandler",
    "ShardLostError",
    "ShardPool",
    "ShardedBatch",
    "StepFunction",
]
