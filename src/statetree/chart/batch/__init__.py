"""The batch engine: one chart, many agents, stepped as NumPy arrays.

``from statetree.chart import ChartBatch`` is the usual import; this package needs NumPy
(the ``batch`` extra) and is only imported when a batch is first asked for.
"""

from __future__ import annotations

from statetree.chart.batch.actions import BatchCall, BatchHandler
from statetree.chart.batch.batch import ChartBatch
from statetree.chart.batch.errors import BatchLoopError
from statetree.chart.batch.snapshot import BatchSnapshot
from statetree.chart.batch.view import AgentView, RunningTimer
from statetree.net.batch_codec import BatchCodec, BatchConfigurations

__all__ = [
    "AgentView",
    "BatchCall",
    "BatchCodec",
    "BatchConfigurations",
    "BatchHandler",
    "BatchLoopError",
    "BatchSnapshot",
    "ChartBatch",
    "RunningTimer",
]
