"""A sharded batch of guards, story by story: routing, data columns, the step function,
mail between shards, migration, snapshots."""

from __future__ import annotations

import copy
import dataclasses
import logging
import pickle

import numpy as np
import pytest
from shard_charts import ALARM, CALL, COLUMNS, GUARD, HANDLERS, SIZE, alarm_even

from statetree import TraceLevel
from statetree.chart import ChartBatch, ShardedBatch, ShardPool
from statetree.chart.batch import BatchSnapshot
from statetree.errors import DecodeError, SaveError, UsageError

WALK, RUN = 1, 2
QUIET = {"play_animation": lambda call: None}


@pytest.fixture
def guards(shard_pool: ShardPool) -> ShardedBatch:
    batch = ShardedBatch(GUARD, SIZE, HANDLERS, shards=shard_pool, columns=COLUMNS)
    batch.start()
    return batch


def test_inputs_reach_the_agents_named_in_whichever_shard_they_live(guards: ShardedBatch) -> None:
    assert guards.owners.tolist() == [0, 0, 1, 1, 2, 2]
    assert guards.columns("animation")["animation"].tolist() == [WALK] * SIZE
    guards.send(ALARM, [4, 1])  # shards 0 and 2: each hears only of its own agents
    assert guards.is_active("Top.Chase").tolist() == [False, True, False, False, True, False]
    assert guards.active(4) == ("Top", "Top.Chase")
    assert guards.counts() == {"Top": 6, "Top.Patrol": 4, "Top.Chase": 2}
    leaves = guards.leaf_ids()
    assert [guards.paths[n] for n in leaves.tolist()][:2] == ["Top.Patrol", "Top.Chase"]
    data = guards.columns()
    assert data["animation"].tolist() == [WALK, RUN, WALK, WALK, RUN, WALK]
    assert data["chases"].tolist() == [0, 1, 0, 0, 1, 0]
    guards.close()


def test_events_may_come_as_any_iterable_as_in_a_batch(guards: ShardedBatch) -> None:
    guards.send_each((event for event in [ALARM]), [0, -1], [5, 2])
    guards.frame(0.5, iter([ALARM]), [-1, 0, -1, -1, -1, -1])
    assert guards.is_active("Top.Chase").tolist() == [False, True, False, False, False, True]
    with pytest.raises(UsageError, match=r"^frame\(\) takes a list of events, .*got 3$"):
        guards.frame(0.5, 3, [-1] * SIZE)  # type: ignore[arg-type]
    guards.close()


def test_a_sharded_batch_too_large_is_refused_before_anything_changes(
    guards: ShardedBatch,
) -> None:
    too_many = "a batch holds at most 2,147,483,647 agents"
    with pytest.raises(UsageError, match=f"^{too_many}, 1,180,591,620,717,411,303,424 were"):
        ShardedBatch(GUARD, 2**70, HANDLERS, shards=2)
    before = guards.snapshot().to_bytes()
    with pytest.raises(UsageError, match=f"^{too_many}, 18,446,744,073,709,551,622 were"):
        guards.spawn(2**64)
    assert guards.snapshot().to_bytes() == before and guards.size == SIZE
    guards.close()


def test_a_handler_calling_other_agents_reaches_them_at_the_start_of_the_next_call(
    guards: ShardedBatch,
) -> None:
    guards.send(ALARM, [1])  # agent 1 runs and calls agent 2, in shard 1
    assert guards.pending == 1
    assert guards.is_active("Top.Chase").tolist() == [False, True, False, False, False, False]
    guards.tick(0.5)  # delivered first: 2 runs, calls 3 (same shard, not in its call): mail
    assert guards.is_active("Top.Chase").tolist() == [False, True, True, False, False, False]
    assert guards.pending == 1
    clocks = ChartBatch.restore(guards.snapshot(), GUARD, QUIET)
    assert clocks.agent(2).timers[0].due == 2.0  # its timer started before the tick
    guards.set_columns({"animation": 0})  # any call delivers first: 3 runs, calls 4 (shard 2)
    assert guards.is_active("Top.Chase").tolist() == [False, True, True, True, False, False]
    data = guards.columns()
    assert data["chases"].tolist() == [0, 1, 1, 1, 0, 0]
    assert data["animation"].tolist() == [0] * SIZE  # written after the delivery
    guards.close()


def test_the_step_function_runs_in_every_shard_and_answers_for_each(
    shard_pool: ShardPool,
) -> None:
    stepped = ShardedBatch(
        GUARD, SIZE, HANDLERS, shards=shard_pool, columns=COLUMNS, step=alarm_even
    )
    stepped.start()
    assert stepped.step(0.25) == [1, 1, 1]  # agents 0, 2 and 4 chase
    chasing = stepped.is_active("Top.Chase").tolist()
    assert chasing == [True, False, True, False, True, False]
    assert stepped.pending == 3  # each runner called the next agent (5 too, in shard 2)
    assert stepped.step(0.25) == [2, 2, 2]
    stepped.close()


def test_migrated_agents_keep_everything_and_their_indexes(guards: ShardedBatch) -> None:
    guards.send(ALARM, [5])  # the last guard: it calls nobody
    guards.tick(1.0)
    before = guards.snapshot()
    guards.migrate([0, 5], 1)
    assert guards.owners.tolist() == [1, 0, 1, 1, 2, 1]
    assert guards.snapshot().to_bytes() == before.to_bytes()
    assert guards.columns("chases")["chases"].tolist() == [0, 0, 0, 0, 0, 1]
    assert guards.active(5) == ("Top", "Top.Chase")
    guards.tick(1.5)  # agent 5's GiveUp timer fires in its new shard
    assert guards.active(5) == ("Top", "Top.Patrol")
    assert guards.spawn(2).tolist() == [6, 7]  # new slots go to the emptiest shard
    assert guards.owners.tolist() == [1, 0, 1, 1, 2, 1, 0, 0]
    guards.despawn([1])
    assert guards.spawn(1).tolist() == [1]  # a free slot is reused in its shard
    guards.close()


def test_sends_waiting_for_migrated_agents_follow_them_to_their_new_shard(
    guards: ShardedBatch,
) -> None:
    guards.send(ALARM, [0, 2])  # 0 calls 1, 2 calls 3 (the last slot of shard 1): mail
    assert guards.pending == 2
    guards.migrate([1, 3], 2)  # no action runs: nothing is delivered meanwhile
    assert guards.owners.tolist() == [0, 2, 1, 2, 2, 2]
    assert guards.is_active("Top.Chase").tolist() == [True, False, True, False, False, False]
    assert guards.pending == 2
    guards.tick(0.5)  # 1 and 3 hear their calls in their new shard; 3 then calls 4
    assert guards.is_active("Top.Chase").tolist() == [True, True, True, True, False, False]
    assert guards.columns("chases")["chases"].tolist() == [1, 1, 1, 1, 0, 0]
    guards.tick(0.5)
    assert guards.is_active("Top.Chase").tolist() == [True, True, True, True, True, False]
    guards.close()


def test_traced_agents_write_their_lines_here_from_whichever_shard_they_live_in(
    guards: ShardedBatch, caplog: pytest.LogCaptureFixture
) -> None:
    lines: list[str] = []
    guards.trace([1, 4], sink=lines.append)
    guards.send(ALARM, [4])  # agent 4 chases, and calls agent 5 (mail, for the next call)
    guards.migrate([1], 2)  # its trace moves with it
    guards.send(CALL, [1])  # 5 hears its call first, untraced
    guards.trace([4], TraceLevel.NONE)
    guards.tick(2.5)  # 1, 4 and 5 give up
    assert lines == [
        "HSM_1_Guard[4]:  Sibling : Top.Chase",
        "HSM_1_Guard[1]:  Sibling : Top.Chase",
        "HSM_1_Guard[1]:  Sibling : Top.Patrol",
    ]
    guards.despawn([1])  # a despawn ends the trace: the agent spawned in its slot is not
    assert guards.spawn(1).tolist() == [1]
    guards.send(ALARM, [1])
    assert len(lines) == 3
    with caplog.at_level(logging.INFO, logger="statetree"):
        guards.trace([0])  # no sink: the "statetree" logger, in this process
        guards.send(ALARM, [0])
    assert caplog.messages == ["HSM_1_Guard[0]:  Sibling : Top.Chase"]
    for wrong, message in (
        ({"level": 5}, "a trace level is one of"),
        ({"sink": "print"}, "sink must be callable"),
    ):
        with pytest.raises(UsageError, match=message):
            guards.trace([0], **wrong)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="agent index 9 is out of range"):
        guards.trace([9])
    guards.close()


@pytest.mark.parametrize("shards", [1, 2, 3])
def test_a_chart_batch_snapshot_restores_into_any_number_of_shards(
    shard_pool: ShardPool, shards: int
) -> None:
    one = ChartBatch(GUARD, 7, QUIET)
    one.start()
    one.send(ALARM, [2, 5])
    one.despawn([3])
    one.tick(0.5)
    pool = shard_pool if shards == 3 else shards
    with ShardedBatch.restore(one.snapshot(), GUARD, HANDLERS, shards=pool) as sharded:
        assert sharded.alive.tolist() == one.alive.tolist()
        assert sharded.snapshot().to_bytes() == one.snapshot().to_bytes()
        assert sharded.snapshot(2, 6).to_bytes() == one.snapshot(2, 6).to_bytes()
        again = BatchSnapshot.from_bytes(sharded.snapshot().to_bytes())
        assert ChartBatch.restore(again, GUARD, QUIET).counts() == one.counts()


def test_a_snapshot_of_another_chart_is_refused_before_any_actor_starts() -> None:
    renamed = dataclasses.replace(GUARD, name="Other")
    other = ChartBatch(renamed, 2, QUIET)
    with pytest.raises(DecodeError, match="another chart"):
        ShardedBatch.restore(other.snapshot(), GUARD, HANDLERS, shards=2)


def test_a_pool_serves_one_batch_at_a_time(shard_pool: ShardPool, guards: ShardedBatch) -> None:
    with pytest.raises(UsageError, match="in use by batch 'Guard'"):
        ShardedBatch(GUARD, 1, HANDLERS, shards=shard_pool)
    guards.close()
    with ShardedBatch(GUARD, 1, HANDLERS, shards=shard_pool, columns=COLUMNS) as again:
        assert again.size == 1 and again.owners.tolist() == [2]  # as ChartBatch.split(3)


def test_columns_written_by_the_driver_land_in_the_agents_shards(guards: ShardedBatch) -> None:
    guards.set_columns({"chases": np.array([5, 7])}, [5, 0])
    guards.set_columns({"animation": 3}, np.arange(SIZE) >= 4)
    data = guards.columns()
    assert data["chases"].tolist() == [7, 0, 0, 0, 0, 5]
    assert data["animation"].tolist() == [WALK, WALK, WALK, WALK, 3, 3]
    guards.close()


def test_a_sharded_batch_is_not_saved_but_says_how_to_save_its_agents() -> None:
    batch = ShardedBatch.__new__(ShardedBatch)  # its actors play no part in the refusal
    batch.name = "Guards"
    for save in (pickle.dumps, copy.deepcopy, copy.copy):
        with pytest.raises(SaveError) as refused:
            save(batch)
        assert str(refused.value) == (
            "cannot save sharded batch 'Guards': its agents live in Ray actors. Save its "
            "snapshot() (and the data columns you need), and rebuild it with "
            "ShardedBatch.restore or ChartBatch.restore"
        )
