"""Sharded twins: a ShardedBatch and one ChartBatch, driven by the same calls, compared.

The handlers run in the shards' actors: they log each agent's host calls in the actor
(``LOGS``, by shard), and the step function ``drain`` brings the logs back. ``echo`` sends
``E`` back into the processing of the agents of its call, as the batch tests' twin does.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
from batch_strategies import ECHO, EVENTS, LEVELS, Step

from statetree.chart import BatchCall, BatchLoopError, Chart, ChartBatch, Shard, ShardedBatch
from statetree.chart.batch import BatchSnapshot

LOGS: dict[int, list[tuple[int, str]]] = defaultdict(list)
"""The host calls of each shard's agents since the last ``drain``, in the actor."""


def host(shard: Shard, call: BatchCall) -> None:
    LOGS[shard.index].extend((agent, str(call.action)) for agent in call.entities.tolist())


def echo(shard: Shard, call: BatchCall) -> None:
    host(shard, call)
    if call.phase == "enter":
        shard.send(ECHO, call.entities)


def drain(shard: Shard) -> list[tuple[int, str]]:
    """The step function: this shard's log, emptied."""
    return LOGS.pop(shard.index, [])


HANDLERS = {"host": host, "echo": echo}
TRACED = 4
"""The agents traced in both batches, from 0."""
Loop = tuple[tuple[int, ...], tuple[str, ...], bool]


class ShardedTwins:
    """A sharded batch and a ChartBatch of the same agents, fed the same steps."""

    def __init__(self, chart: Chart, count: int, shards: Any, bound: int = 40) -> None:
        self.calls: dict[str, dict[int, list[str]]] = {
            "one": defaultdict(list),
            "sharded": defaultdict(list),
        }
        handlers = {"host": self.log, "echo": self.echo}
        self.one = ChartBatch(chart, count, handlers, max_transitions=bound)
        self.sharded = ShardedBatch(
            chart, count, HANDLERS, shards=shards, step=drain, max_transitions=bound
        )
        self.sharded.step()  # forget what an earlier batch on these actors left
        self.loops: dict[str, Loop | None] = {"one": None, "sharded": None}
        # The first agents traced in both: the shards' lines come back as the batch's.
        self.lines: dict[str, dict[int, list[str]]] = {"one": {}, "sharded": {}}
        for engine, batch in (("one", self.one), ("sharded", self.sharded)):
            for agent in range(min(count, TRACED)):
                lines = self.lines[engine][agent] = []
                batch.trace([agent], sink=lines.append)

    def log(self, call: BatchCall) -> None:
        for agent in call.entities.tolist():
            self.calls["one"][agent].append(str(call.action))

    def echo(self, call: BatchCall) -> None:
        self.log(call)
        if call.phase == "enter":
            self.one.send(ECHO, call.entities)

    def live(self, agents: tuple[int, ...]) -> list[int]:
        alive = self.one.alive
        return [agent for agent in agents if agent < alive.size and alive[agent]]

    def play(self, step: Step) -> None:
        """Do ``step`` on both batches (a migration only moves the sharded batch's agents)."""
        if step.kind == "spawn":
            assert self.sharded.spawn(1).tolist() == self.one.spawn(1).tolist()
            return
        agents = self.live(step.agents)
        if step.kind == "despawn":
            self.one.despawn(agents)
            self.sharded.despawn(agents)
            return
        for engine, batch in (("one", self.one), ("sharded", self.sharded)):
            try:
                _call(batch, step, agents)
                self.loops[engine] = None
            except BatchLoopError as error:
                self.loops[engine] = (error.entities, error.cycle, error.timers)

    def check(self, context: object) -> None:
        """Every agent as in the ChartBatch: states, clock, timers, held levels, host calls;
        the same loops, counts and free slots."""
        for shard_log in self.sharded.step():
            for agent, action in shard_log:
                self.calls["sharded"][agent].append(action)
        assert self.loops["sharded"] == self.loops["one"], context
        assert self.sharded.alive.tolist() == self.one.alive.tolist(), context
        assert self.sharded.counts() == self.one.counts(), context
        copy = ChartBatch.restore(self.sharded.snapshot(), self.one.compiled, _quiet(self.one))
        for agent in np.flatnonzero(self.one.alive).tolist():
            mine, theirs = copy.agent(agent), self.one.agent(agent)
            where = f"agent {agent} after {context}"
            assert mine.active == theirs.active, where
            assert (mine.clock, mine.timers) == (theirs.clock, theirs.timers), where
            assert mine.held == theirs.held, where
            assert self.calls["sharded"][agent] == self.calls["one"][agent], where
        assert self.lines["sharded"] == self.lines["one"], context

    def close(self) -> None:
        self.sharded.close()


def _quiet(batch: ChartBatch) -> dict[str, Any]:
    return dict.fromkeys(batch.compiled.host_actions, lambda call: None)


def _call(batch: ChartBatch | ShardedBatch, step: Step, agents: list[int]) -> None:
    if step.kind == "tick":
        batch.tick(step.dt)
    elif step.kind == "frame":
        choices = [step.choices[n] if n in agents else -1 for n in range(batch.size)]
        batch.frame(step.dt, EVENTS, np.array(choices, np.intp))
    elif step.kind == "start":
        batch.start(agents)
    elif step.kind == "stop":
        batch.stop(agents)
    elif step.kind == "send_each":
        choices = [step.choices[step.agents.index(agent)] for agent in agents]
        batch.send_each(EVENTS, np.array(choices, np.intp), agents)
    elif step.kind == "levels":
        bits = np.array([step.choices[step.agents.index(a)] for a in agents], np.intp)
        batch.set_levels({e: (bits >> i & 1).astype(bool) for i, e in enumerate(LEVELS)}, agents)
    elif step.kind == "migrate":
        if isinstance(batch, ShardedBatch):
            batch.migrate(agents, step.choices[0])
    else:
        assert step.event is not None
        {"send": batch.send, "hold": batch.hold, "release": batch.release}[step.kind](
            step.event, agents
        )


def same_bytes(left: BatchSnapshot, right: BatchSnapshot) -> bool:
    return left.to_bytes() == right.to_bytes()
