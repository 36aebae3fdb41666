"""One semantics, two engines: every agent of a ChartBatch runs as its own ChartMachine.

Hypothesis draws random charts (every policy, up to four levels, regions, timers, history,
raised events, host actions, a handler that sends back into the processing, timers that
restart each other with a zero or tiny delay) and random streams of per-agent calls (send,
send_each, frame, hold, release, start, spawn, despawn, reload) and ticks. After every step
each agent's active states, clock, running timers and ordered host calls must equal those of
a ChartMachine fed the same calls, and both engines must report the same transition loops.
The batch runs its table with either pass (numba or NumPy), and its table is either explored
when the batch is built or, as for charts too large to explore, derived entry by entry as
agents meet situations (the pass stops at an entry never derived, and goes on once it is).
"""

from __future__ import annotations

from unittest import mock

from batch_strategies import MAX_AGENTS, Step, batch_charts, steps
from batch_support import Twins
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from statetree.chart import Chart
from statetree.chart.batch import table


@settings(max_examples=examples(250))
@given(
    batch_charts(),
    st.integers(1, MAX_AGENTS),
    st.lists(steps(), max_size=14),
    st.sampled_from(("numba", "numpy")),
    st.booleans(),
)
def test_every_agent_runs_as_its_own_chart_machine(
    chart: Chart, count: int, script: list[Step], backend: str, explored: bool
) -> None:
    with mock.patch.object(table, "EAGER_SITUATIONS", table.EAGER_SITUATIONS if explored else 0):
        twins = Twins(chart, count, backend=backend)
    assert twins.batch.engine.endswith("(precomputed)" if explored else "situations)")
    twins.check("creation")
    for number, step in enumerate(script):
        twins.play(step)
        twins.check(f"step {number}: {step}")
