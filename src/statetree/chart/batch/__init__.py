"""The batch engine: one chart, many agents, stepped as NumPy arrays.

``from statetree.chart import ChartBatch`` is the usual import; this package needs NumPy
(the ``batch`` extra) and is only imported when a batch is first asked for.

The modules, by phase (chart semantics live in none of them: entries are outcomes of the
per-machine runtime):

- built once per chart: ``derive`` (an outcome, found by running a placed ``ChartMachine``)
  and ``table`` (the numbering of states, inputs, levels and timer rows; the situations and
  entries, explored when built);
- each agent's state: ``agents`` (the per-slot arrays and the levels each holds),
  ``snapshot`` (the bytes) and ``convert`` (agents to snapshots and back);
- one step: ``kernel`` (the numba pass), ``vector`` (the NumPy pass), ``step`` (what a pass
  writes besides the agents; host calls, handler sends, undo, failures after it) and
  ``operations`` (stop, despawn, received configurations, reload);
- the calls: ``batch`` (``ChartBatch``), ``arguments`` (the agents, events, choices and
  levels a call is given), ``reading`` (reads), ``actions`` (``BatchCall``), ``errors``.
"""

from __future__ import annotations

from statetree.chart.batch.actions import BatchCall, BatchHandler
from statetree.chart.batch.batch import ChartBatch
from statetree.chart.batch.errors import BatchLoopError
from statetree.chart.batch.reading import AgentView, RunningTimer
from statetree.chart.batch.snapshot import BatchSnapshot
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
