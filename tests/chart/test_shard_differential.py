"""One population, any number of shards: a ShardedBatch ends every call as one ChartBatch.

Hypothesis draws random charts (those of the batch differential test: every policy, regions,
timers, history, raised events, host actions, a handler that sends back into the
processing) and random streams of calls (send, send_each, hold, release, set_levels, start,
tick, spawn, despawn, and migrations of agents between the shards), played on a sharded
batch of three Ray actors and on one ChartBatch. After every call each agent must have the
same active states, clock, running timers, held levels and host calls (made in the actors,
with global indexes), and both must report the same transition loops.
"""

from __future__ import annotations

from batch_strategies import MAX_AGENTS, Step, batch_charts, steps
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shard_support import ShardedTwins

from statetree.chart import Chart, ShardPool


def migrations() -> st.SearchStrategy[Step]:
    agents = st.sets(st.integers(0, MAX_AGENTS - 1)).map(lambda found: tuple(sorted(found)))
    return st.builds(Step, st.just("migrate"), agents, choices=st.tuples(st.integers(0, 2)))


@settings(max_examples=examples(40), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    batch_charts(),
    st.integers(0, MAX_AGENTS),
    st.lists(st.one_of(steps(), migrations()), max_size=10),
)
def test_every_agent_runs_as_in_one_chart_batch(
    shard_pool: ShardPool, chart: Chart, count: int, script: list[Step]
) -> None:
    twins = ShardedTwins(chart, count, shard_pool)
    try:
        twins.check("creation")
        for number, step in enumerate(script):
            twins.play(step)
            twins.check(f"step {number}: {step}")
    finally:
        twins.close()
