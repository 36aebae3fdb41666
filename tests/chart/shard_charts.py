"""The guard chart of the batch guide, with handlers for sharded batches (in the actors)."""

from __future__ import annotations

import numpy as np

from statetree.chart import DEFAULT_REGISTRY, ActionType, BatchCall, Event, Param, Shard
from statetree.chart import builder as b

ALARM = Event("input", "Alarm")
CALL = Event("input", "Call")
ANIMATIONS = ("Walk", "Run", "Shout")
GUARD = b.chart(
    "Guard",
    b.state(
        "Top",
        b.state(
            "Patrol",
            enter=[b.action("play_animation", name="Walk")],
            transitions=[b.on(b.input("Alarm"), "Chase"), b.on(b.input("Call"), "Chase")],
        ),
        b.state(
            "Chase",
            enter=[b.action("play_animation", name="Run"), b.start_timer("GiveUp", 2.0)],
            transitions=[b.on(b.timer("GiveUp"), "Patrol")],
        ),
    ),
    registry=DEFAULT_REGISTRY.with_actions(ActionType("play_animation", (Param("name"),))),
)
COLUMNS = {"animation": np.int8, "chases": np.int32}


def play_animation(shard: Shard, call: BatchCall) -> None:
    """Record the animation of each agent; a guard starting to run calls the next guard
    (the agent with the next global index), wherever it is."""
    rows = shard.rows(call.entities)
    name = str(call.params["name"])
    shard.columns["animation"][rows] = ANIMATIONS.index(name) + 1
    if name == "Run":
        shard.columns["chases"][rows] += 1
        callees = call.entities + 1
        shard.send(CALL, callees[callees < SIZE])


SIZE = 6
HANDLERS = {"play_animation": play_animation}


def alarm_even(shard: Shard, dt: float) -> int:
    """A frame: the shard's even agents hear the alarm, then every agent ticks; returns how
    many agents of the shard chase."""
    even = shard.alive & (shard.entities % 2 == 0)
    shard.send(ALARM, shard.entities[even])
    shard.tick(dt)
    return int(np.count_nonzero(shard.batch.is_active("Top.Chase")))


def hoarse_agent_3(shard: Shard, call: BatchCall) -> None:
    """``play_animation``, but agent 3 cannot shout: the handler raises for it."""
    if call.params["name"] == "Shout" and 3 in call.entities.tolist():
        raise RuntimeError("agent 3 has no voice")
    play_animation(shard, call)
