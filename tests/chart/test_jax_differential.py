"""One semantics, three engines: every agent of a JAX program runs as its ChartBatch agent
and as its own ChartMachine.

Hypothesis draws the random charts of the batch's differential test (every policy, levels,
regions, timers that race or restart each other with zero or tiny delays, history, host
actions) and streams of frames, ticks and levels. After every call each agent of the
program (on JAX's CPU build) must equal its batch agent bit for bit (active states,
histories, held levels, clock, every timer deadline and start order), have made the same
host calls in the same order, and both must report the same agents that could not settle,
with the same cycle; the batch is checked against the machines at the same time.
"""

from __future__ import annotations

import pytest

pytest.importorskip("jax", reason="JAX programs need the jax extra (Python 3.11+)")

from batch_strategies import MAX_AGENTS, Step, batch_charts, frame_steps
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from jax_support import Triplets

from statetree.chart import Chart


@settings(max_examples=examples(120))
@given(batch_charts(), st.lists(frame_steps(), max_size=12))
def test_every_agent_runs_as_its_batch_agent_and_its_machine(
    chart: Chart, script: list[Step]
) -> None:
    triplets = Triplets(chart, MAX_AGENTS)
    triplets.check("creation")
    for number, step in enumerate(script):
        triplets.play(step)
        triplets.check(f"step {number}: {step}")
