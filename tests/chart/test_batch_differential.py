"""One semantics, two engines: every agent of a ChartBatch runs as its own ChartMachine.

Hypothesis draws random charts (every policy, up to four levels, regions, timers, history,
raised events, host actions, a handler that sends back into the processing, timers that
restart each other with a zero or tiny delay) and random streams of per-agent calls (send,
hold, release, start, spawn, despawn) and ticks. After every step each agent's active states,
clock, running timers and ordered host calls must equal those of a ChartMachine fed the same
calls, and both engines must report the same transition loops. The batch processes by recall
(remembered endings; its cases told apart and its host calls grouped by dicts and loops, as
for few agents, or by sorting, as for many) or, drawn, always in passes. The timers a tick
fires are found by a table of active flags (charts with few states) or, drawn with sorting,
always from their owners' flags, as for larger charts.
"""

from __future__ import annotations

from batch_strategies import MAX_AGENTS, Step, batch_charts, steps
from batch_support import Twins
from hypothesis import given, settings
from hypothesis import strategies as st

from statetree.chart import Chart


@settings(max_examples=250)
@given(
    batch_charts(),
    st.integers(1, MAX_AGENTS),
    st.lists(steps(), max_size=14),
    st.sampled_from(("numba", "numpy")),
)
def test_every_agent_runs_as_its_own_chart_machine(
    chart: Chart, count: int, script: list[Step], backend: str
) -> None:
    twins = Twins(chart, count, backend=backend)
    twins.check("creation")
    for number, step in enumerate(script):
        twins.play(step)
        twins.check(f"step {number}: {step}")
