"""A sharded batch when things go wrong: a shard's process dies, a call is refused (by every
shard or by none), the cluster cannot be reached."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from shard_charts import ALARM, COLUMNS, GUARD, HANDLERS, SIZE, hoarse_agent_3, play_animation

from statetree.chart import (
    BatchCall,
    BatchLoopError,
    ChartBatch,
    Event,
    HandlerError,
    Shard,
    ShardedBatch,
    ShardError,
    ShardLostError,
    ShardPool,
)
from statetree.chart import builder as b
from statetree.chart.shard import cluster
from statetree.errors import UsageError

HELD = Event("held", "H")


@pytest.fixture
def guards(shard_pool: ShardPool) -> Iterator[ShardedBatch]:
    with ShardedBatch(GUARD, SIZE, HANDLERS, shards=shard_pool, columns=COLUMNS) as batch:
        batch.start()
        yield batch


def kill(actor: Any) -> None:
    """Kill a shard's process and wait until Ray knows it is gone."""
    import ray  # once the session's cluster runs: see start_local

    os.kill(ray.get(actor.ping.remote()), signal.SIGKILL)
    wait_gone(actor)


def wait_gone(actor: Any) -> None:
    """Wait until calls to ``actor`` fail because it is gone."""
    import ray

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # each try waits for Ray's answer: no sleep
        try:
            ray.get(actor.ping.remote(), timeout=10)
        except ray.exceptions.RayActorError:
            return
    raise AssertionError("the shard's actor still answers")


def state(batch: ShardedBatch) -> tuple[bytes, list[int], int]:
    return batch.snapshot().to_bytes(), batch.columns("chases")["chases"].tolist(), batch.pending


def test_a_dead_shard_brings_every_shard_back_to_the_checkpoint(guards: ShardedBatch) -> None:
    guards.send(ALARM, [5])
    guards.checkpoint()
    kept = state(guards)
    guards.tick(0.5)
    guards.send(ALARM, [0])  # 0 runs and calls 1: mail
    guards.tick(0.5)
    victim = guards.actors[1]
    kill(victim)
    with pytest.raises(ShardLostError) as lost:
        guards.tick(0.5)
    assert (lost.value.shards, lost.value.lost) == ((1,), ("tick", "send", "tick", "tick"))
    assert lost.value.frames == 3
    assert "the 4 calls that changed agents since then are lost (3 of them frames" in str(
        lost.value
    )
    assert guards.actors[1] != victim
    assert state(guards) == kept
    guards.tick(2.5)  # the batch goes on: agent 5 gives up the chase
    assert guards.counts()["Top.Chase"] == 0


def test_without_a_checkpoint_the_batch_comes_back_as_it_was_built(guards: ShardedBatch) -> None:
    guards.tick(1.0)
    kill(guards.actors[0])
    with pytest.raises(ShardLostError) as lost:
        guards.counts()  # a read notices it too; no read is lost
    assert lost.value.lost == ("start", "tick")
    assert guards.counts()["Top"] == 0 and guards.population == SIZE


def test_a_refused_call_changes_no_shard(guards: ShardedBatch) -> None:
    guards.send(ALARM, [5])
    before = state(guards)
    choices = np.array([0, -1, 0, -1, 0, 7])  # only agent 5, in shard 2, names no event
    with pytest.raises(UsageError, match="choice 7 names no event: there are 1"):
        guards.send_each([ALARM], choices)
    with pytest.raises(UsageError, match="is a level trigger"):
        guards.send(HELD, [0])
    with pytest.raises(UsageError, match="is not a level trigger"):
        guards.hold(ALARM, [0])
    with pytest.raises(UsageError, match="agent index 99 is out of range: the batch has 6"):
        guards.send(ALARM, [1, 99])
    with pytest.raises(UsageError, match="agent 4 is named twice"):
        guards.set_levels({HELD: np.array([True, False])}, [4, 4])
    with pytest.raises(UsageError, match="time cannot go backwards"):
        guards.tick(-1.0)
    with pytest.raises(UsageError, match="there is no shard 3"):
        guards.migrate([0], 3)
    with pytest.raises(UsageError, match="spawn"):
        guards.spawn(-1)
    with pytest.raises(UsageError, match="has no step function: give step="):
        guards.step(0.5)
    assert state(guards) == before


def test_a_reload_one_shard_would_not_settle_on_changes_no_shard(guards: ShardedBatch) -> None:
    guards.hold(HELD, [4])
    before = state(guards)
    flip = [b.on(b.held("H"), "Chase")], [b.on(b.held("H"), "Patrol")]
    top = b.state(
        "Top",
        b.state("Patrol", enter=[b.action("play_animation", name="Walk")], transitions=flip[0]),
        b.state("Chase", enter=[b.action("play_animation", name="Run")], transitions=flip[1]),
    )
    looping = b.chart("Guard", top, registry=GUARD.registry)
    with pytest.raises(BatchLoopError) as failure:
        guards.reload(looping)
    assert failure.value.entities == (4,) and failure.value.machine == "Guard[4]"
    assert state(guards) == before
    guards.send(ALARM, [5])
    hunt = b.state("Hunt", enter=[b.action("play_animation", name="Run")])
    patrol = b.state("Patrol", enter=[b.action("play_animation", name="Walk")])
    renamed = b.chart("Guard", b.state("Top", patrol, hunt), registry=GUARD.registry)
    one = ChartBatch(GUARD, SIZE, {"play_animation": lambda call: None})
    one.start()
    one.hold(HELD, [4])
    one.send(ALARM, [5])
    assert guards.reload(renamed) == one.reload(renamed)
    assert guards.counts() == one.counts()


def shouting(when: str) -> Any:
    """The guard chart whose Patrol shouts on ``when`` ("enter" or "exit")."""
    shout = [b.action("play_animation", name="Shout")]
    patrol = b.state("Patrol", **{when: shout}, transitions=[b.on(b.input("Alarm"), "Chase")])
    return b.chart("Guard", b.state("Top", patrol, b.state("Chase")), registry=GUARD.registry)


def test_a_reload_whose_handler_raises_in_one_shard_changes_no_shard(
    shard_pool: ShardPool,
) -> None:
    handlers = {"play_animation": hoarse_agent_3}
    with ShardedBatch(GUARD, SIZE, handlers, shards=shard_pool, columns=COLUMNS) as guards:
        guards.start()
        guards.send(ALARM, [5])
        before = state(guards)
        with pytest.raises(RuntimeError, match="agent 3 has no voice"):
            guards.reload(shouting("enter"))  # Patrol is another state: entered, it shouts
        assert state(guards) == before  # the shards of agents 0 and 5 reloaded, then back
        assert guards.counts() == {"Top": 6, "Top.Patrol": 5, "Top.Chase": 1}
        one = ChartBatch(GUARD, SIZE, {"play_animation": lambda call: None})
        one.start()
        one.send(ALARM, [5])
        quiet = b.chart("Guard", b.state("Top", b.state("Patrol")), registry=GUARD.registry)
        assert guards.reload(quiet) == one.reload(quiet)  # every shard on the old chart still
        assert guards.snapshot().to_bytes() == one.snapshot().to_bytes()


def test_a_despawn_whose_handler_raises_keeps_the_agents_it_could_not_finish(
    shard_pool: ShardPool,
) -> None:
    chart = shouting("exit")
    handlers = {"play_animation": hoarse_agent_3}
    with ShardedBatch(chart, SIZE, handlers, shards=shard_pool, columns=COLUMNS) as guards:
        guards.start()
        guards.send(ALARM, [4])  # agent 4 chases: leaving Chase makes no call
        with pytest.raises(RuntimeError, match="agent 3 has no voice"):
            guards.despawn([0, 3, 4])  # agent 3's call raised: it stays, 0 and 4 are gone
        kept = ChartBatch.restore(guards.snapshot(), chart, {"play_animation": print})
        expected = [False, True, True, True, False, True]
        assert guards.alive.tolist() == kept.alive.tolist() == expected
        assert guards.active(3) == ("Top", "Top.Patrol")
        assert sorted(guards.spawn(2).tolist()) == [0, 4]  # the free slots, not agent 3's
        assert guards.population == SIZE


class Hoarse(Exception):
    pass


def run_then_fail(shard: Shard, call: BatchCall) -> None:
    """``play_animation``, but agent 0 calls agent 5 as it starts to run, then raises."""
    play_animation(shard, call)
    if call.params["name"] == "Run" and 0 in call.entities.tolist():
        shard.send(ALARM, [5])
        raise Hoarse("agent 0 called, then lost its voice")


def test_what_a_failed_call_sent_is_dropped_with_it(shard_pool: ShardPool) -> None:
    handlers = {"play_animation": run_then_fail}
    with ShardedBatch(GUARD, SIZE, handlers, shards=shard_pool, columns=COLUMNS) as guards:
        guards.start()
        before = state(guards)
        with pytest.raises(Hoarse):
            guards.send(ALARM, [0])
        assert state(guards)[0] == before[0] and guards.pending == 0  # agent 0 is put back
        guards.tick(0.5)
        assert not guards.is_active("Top.Chase").any()  # agent 5 never heard the call


class Unsent(Exception):
    """An error Ray cannot send back: it holds a lock."""

    def __init__(self) -> None:
        super().__init__("holding a lock")
        self.lock = threading.Lock()


def raise_unsent(shard: Shard, call: BatchCall) -> None:
    if call.params["name"] == "Run":
        raise Unsent


class Unloadable(Exception):
    """An error that pickles, and cannot be made again from what it pickled."""

    def __init__(self, agent: int, why: str) -> None:
        super().__init__(f"agent {agent}: {why}")


def raise_unloadable(shard: Shard, call: BatchCall) -> None:
    if call.params["name"] == "Run":
        raise Unloadable(int(call.entities[0]), "no breath left")


def a_lock(shard: Shard) -> threading.Lock:
    """Starts the shard's agents, and returns what cannot be sent back."""
    shard.start()
    return threading.Lock()


def test_what_cannot_travel_between_driver_and_shards_is_a_library_error(
    shard_pool: ShardPool,
) -> None:
    lock = threading.Lock()

    def locked(shard: Shard, call: BatchCall) -> None:
        with lock:
            play_animation(shard, call)

    with pytest.raises(HandlerError, match="handler 'play_animation' of sharded batch 'Guard' c"):
        ShardedBatch(GUARD, SIZE, {"play_animation": locked}, shards=shard_pool)
    with pytest.raises(UsageError, match="the step function of sharded batch 'Guard' cannot be"):
        ShardedBatch(GUARD, SIZE, HANDLERS, shards=shard_pool, step=lambda shard: lock)
    assert shard_pool.user is None  # the pool is free again
    with ShardedBatch(
        GUARD, SIZE, HANDLERS, shards=shard_pool, columns=COLUMNS, step=a_lock
    ) as guards:
        with pytest.raises(UsageError, match="the step function returned a lock in shard 0"):
            guards.step()
        assert guards.counts()["Top.Patrol"] == SIZE  # the step ran; the batch goes on
    with ShardedBatch(GUARD, SIZE, {"play_animation": raise_unsent}, shards=shard_pool) as guards:
        guards.start()
        with pytest.raises(ShardError, match=r"^shard 1 raised Unsent: holding a lock \(an error"):
            guards.send(ALARM, [2])
        assert guards.counts()["Top.Chase"] == 0
    handlers = {"play_animation": raise_unloadable}
    with ShardedBatch(GUARD, SIZE, handlers, shards=shard_pool) as guards:
        guards.start()
        with pytest.raises(ShardError, match=r"^shard 1 raised Unloadable: agent 2: no breath"):
            guards.send(ALARM, [2])


def test_an_actor_of_a_pool_that_died_between_batches_is_replaced(shard_pool: ShardPool) -> None:
    dead = shard_pool.actors[1]
    kill(dead)
    with ShardedBatch(GUARD, SIZE, HANDLERS, shards=shard_pool, columns=COLUMNS) as guards:
        assert shard_pool.actors[1] is not dead
        guards.start()
        guards.send(ALARM, [3])
        assert guards.active(3) == ("Top", "Top.Chase")


def test_a_tick_past_the_largest_float_is_refused_by_every_shard(shard_pool: ShardPool) -> None:
    one = ChartBatch(GUARD, 4, {"play_animation": print})
    one.tick(1e308)  # agents 0 to 3 started, their clocks at 1e308
    one.spawn(2)  # agents 4 and 5: not started, clocks at 0
    snapshot = one.snapshot()
    with ShardedBatch.restore(
        snapshot, GUARD, HANDLERS, shards=shard_pool, columns=COLUMNS
    ) as guards:
        before = state(guards)
        for call in (lambda: guards.tick(1e308), lambda: guards.frame(1e308, [ALARM], [-1] * 6)):
            with pytest.raises(UsageError, match=r"the clock \(1e\+308\) would pass the largest"):
                call()
        assert state(guards) == before and guards.snapshot().to_bytes() == snapshot.to_bytes()
    with ShardedBatch(GUARD, SIZE, HANDLERS, shards=shard_pool, columns=COLUMNS) as guards:
        guards.tick(1e308)  # the driver knows how late the clocks are without asking
        with pytest.raises(UsageError, match=r"the clock \(1e\+308\) would pass the largest"):
            guards.tick(1e308)


def test_a_send_to_an_agent_that_does_not_exist_is_dropped_and_said(guards: ShardedBatch) -> None:
    guards.despawn([3])
    with pytest.raises(UsageError, match=r"sent .*Call.* to agent 3, which does not exist"):
        guards.send(ALARM, [2])  # 2 runs, then calls 3
    assert guards.active(2) == ("Top", "Top.Chase") and guards.pending == 0


def test_calls_with_wrong_values_are_refused_and_change_no_shard(guards: ShardedBatch) -> None:
    guards.start()
    before = (
        guards.snapshot().to_bytes(),
        guards.columns("animation")["animation"].tolist(),
        guards.size,
    )

    with pytest.raises(
        UsageError,
        match=r"migrate\(\) needs a shard number of at least 0 \(a whole number\), got 1\.0",
    ):
        guards.migrate([0], 1.0)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"column 'animation' \(int8\) cannot hold 300"):
        guards.set_columns({"animation": 300})
    with pytest.raises(UsageError, match=r"frame\(\) was given events but no choices"):
        guards.frame(0.1, [ALARM])
    with pytest.raises(UsageError, match=r"^frame\(\) needs one integer choice per agent \(6\)"):
        guards.frame(0.1, [ALARM], np.array([0, -1]))
    with pytest.raises(
        UsageError, match=r"spawn\(\) needs a count of at least 0 \(a whole number\), got True"
    ):
        guards.spawn(True)
    with pytest.raises(UsageError, match=r"puts a ChartBatch back in place, not a ShardedBatch"):
        guards.restore(guards.snapshot())
    with pytest.raises(UsageError, match=r"^set_levels\(\) takes a mapping of level events"):
        guards.set_levels([HELD])  # type: ignore[arg-type]
    for index in (True, 1.0):
        with pytest.raises(UsageError, match=rf"^an agent index must be an integer, got {index}"):
            guards.active(index)  # type: ignore[arg-type]

    after = (
        guards.snapshot().to_bytes(),
        guards.columns("animation")["animation"].tolist(),
        guards.size,
    )
    assert after == before
    guards.close()
    with pytest.raises(UsageError, match="is closed"):
        guards.spawn(2)
    assert guards.size == before[2]


def test_bad_batches_are_refused_before_any_actor_starts() -> None:
    with pytest.raises(UsageError, match="at least 1 shard, got 0"):
        ShardedBatch(GUARD, 4, HANDLERS, shards=0)
    with pytest.raises(UsageError, match="at least 1 shard, got 0"):
        ShardPool(0)
    with pytest.raises(
        UsageError, match=r"Ray refused actor_options \{'num_cpus': 1, 'num_cpu': 1\}"
    ):
        ShardPool(2, actor_options={"num_cpu": 1})
    with pytest.raises(UsageError, match=r"Ray refused actor_options \{'num_cpus': -1\}"):
        ShardedBatch(GUARD, 4, HANDLERS, shards=2, actor_options={"num_cpus": -1})
    with pytest.raises(UsageError, match="actor_options must be a mapping of Ray's options"):
        ShardPool(2, actor_options=[("num_cpus", 1)])  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="timeout must be a number of seconds above 0, got 0"):
        ShardPool(2, timeout=0)
    with pytest.raises(UsageError, match="at least 0 agents, got -1"):
        ShardedBatch(GUARD, -1, HANDLERS, shards=2)
    with pytest.raises(HandlerError, match="play_animation"):
        ShardedBatch(GUARD, 4, {}, shards=2)
    with pytest.raises(UsageError, match="'nowhere' is not a NumPy type"):
        ShardedBatch(GUARD, 4, HANDLERS, shards=2, columns={"x": "nowhere"})
    with pytest.raises(UsageError, match="host:port"):
        ShardedBatch(GUARD, 4, HANDLERS, shards=2, address="nowhere")
    with pytest.raises(UsageError, match=r"at least 0 agents \(a whole number\), got 2\.5"):
        ShardedBatch(GUARD, 2.5, HANDLERS, shards=2)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"at least 1 shard \(a whole number\), got 2\.0"):
        ShardedBatch(GUARD, 4, HANDLERS, shards=2.0)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^step must be callable, got 42 \(int\)$"):
        ShardedBatch(GUARD, 4, HANDLERS, shards=2, step=42)  # type: ignore[arg-type]
    with pytest.raises(HandlerError, match="the handler of action 'play_animation' must be"):
        ShardedBatch(GUARD, 4, dict.fromkeys(HANDLERS, 5), shards=2)  # type: ignore[arg-type]
    snapshot = ChartBatch(GUARD, 4, {"play_animation": print}).snapshot()
    with pytest.raises(UsageError, match=r"at least 1 shard \(a whole number\), got 2\.0"):
        ShardedBatch.restore(snapshot, GUARD, HANDLERS, shards=2.0)  # type: ignore[arg-type]


def test_an_address_where_no_cluster_answers_is_a_library_error() -> None:
    with socket.socket() as silent:  # bound, never listening: connections are refused
        silent.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(ShardError, match=f"cannot reach a Ray cluster at '{address}'"):
            ShardedBatch(GUARD, 4, HANDLERS, shards=2, address=address)


def test_another_cluster_than_the_one_connected_is_refused(ray_cluster: None) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        address = f"127.0.0.1:{other.getsockname()[1]}"
        with pytest.raises(UsageError, match="already connected to the Ray cluster at"):
            ShardedBatch(GUARD, 4, HANDLERS, shards=2, address=address)


def test_a_batch_given_a_shard_count_ends_its_own_actors(ray_cluster: None) -> None:
    with ShardedBatch(GUARD, 4, HANDLERS, shards=2, columns=COLUMNS) as batch:
        batch.start()
        actors = batch.actors
        assert batch.counts()["Top.Patrol"] == 4
    for actor in actors:
        wait_gone(actor)
    with pytest.raises(UsageError, match="is closed"):
        batch.tick(0.1)


class _Ray:
    """Stands in for Ray: notes what ``init`` is given and the environment it sees."""

    def __init__(self, failure: Exception | None = None) -> None:
        self.calls: list[tuple[dict[str, Any], dict[str, str]]] = []
        self.failure = failure

    def init(self, **options: Any) -> None:
        self.calls.append((options, dict(os.environ)))
        if self.failure is not None:
            raise self.failure


@pytest.fixture
def fake_ray(monkeypatch: pytest.MonkeyPatch) -> _Ray:
    """Ray replaced by a :class:`_Ray`."""
    fake = _Ray()
    monkeypatch.setattr(cluster, "_ray", lambda: fake)
    monkeypatch.setenv("RAY_TQDM_PATCH_PRINT", "0")  # the one variable it may set for good
    return fake


@pytest.mark.parametrize(("given", "forwarded"), [({}, True), ({"log_to_driver": False}, False)])
def test_a_local_cluster_forwards_its_output_unless_told_not_to(
    fake_ray: _Ray, given: dict[str, Any], forwarded: bool
) -> None:
    before = dict(os.environ)
    cluster.start_local(3, **given)

    assert dict(os.environ) == before  # the cluster's settings were for its processes only
    [(options, environment)] = fake_ray.calls
    assert options == {
        "address": "local",
        "num_cpus": 3,
        "include_dashboard": False,
        "object_store_memory": None,
        "log_to_driver": forwarded,
    }
    assert environment["RAY_USAGE_STATS_ENABLED"] == "0"
    assert environment["PYTHONPATH"].split(os.pathsep) == sys.path


def test_a_local_cluster_that_cannot_start_is_a_library_error(fake_ray: _Ray) -> None:
    fake_ray.failure = RuntimeError("no room")

    before = dict(os.environ)
    with pytest.raises(ShardError) as caught:
        cluster.start_local(3)

    assert str(caught.value) == "cannot start a local Ray cluster: no room"
    assert dict(os.environ) == before
