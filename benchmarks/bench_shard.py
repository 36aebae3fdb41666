"""ShardedBatch on Ray against one ChartBatch in this process: the crowd workload in shards.

The character is ``examples/charts/crowd.json`` (14 states), the frame that of
``bench_batch.py``: about 10% of the agents get an input, then every agent ticks 1/60 s. A
shard makes its own agents' inputs in its step function (a random stream per shard and frame)
and feeds them with one ``send_each`` and one ``tick``; the driver's frame is one ``step()``
call, one message per shard. The in-process ChartBatch does the same work for all agents.

Tables: frames per second and agent-steps per second for one ChartBatch and for 1, 2 and 4
shards at 1,000,000 and 4,000,000 agents (wall-clock time, as the shards run in other
processes: best of rounds in which every engine runs in turn); the cost of coordinating a
frame (a ``step()`` of shards with no agents) against the number of shards; and a model of
64 machines built from those measurements.
Before anything is timed, a sharded batch and a ChartBatch fed the same inputs must agree.

Run ``python benchmarks/bench_shard.py`` (``--quick``: 1,000,000 agents only).
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from crowd_workload import CHART, DT, EVENTS, INPUTS

from statetree.chart import BatchCall, ChartBatch, Shard, ShardedBatch
from statetree.chart.shard.cluster import start_local

ODDS = np.array([odds for _, odds in INPUTS])
SHARDS = (1, 2, 4)
COORDINATION = (1, 2, 4, 8)
TARGET_SPEEDUP = 1.7
TARGET_COORDINATION_MS = 1.0
MACHINES, CORES = 64, 16
"""The modelled cluster: 64 machines of 16 cores, one shard a core."""
NETWORK_MS = 0.1
"""The modelled round trip between the driver and a machine of the cluster (one network)."""


def inputs(random: np.random.Generator, size: int) -> np.ndarray:  # type: ignore[type-arg]
    """A frame's inputs for ``size`` agents: an event index each, or -1 (about 90%)."""
    return np.where(random.random(size) < 0.1, random.choice(len(EVENTS), size, p=ODDS), -1)


def frame(shard: Shard, seed: int, number: int) -> None:
    """A shard's frame: its agents' inputs, then one tick."""
    random = np.random.default_rng((seed, shard.index, number))
    shard.send_each(EVENTS, inputs(random, shard.batch.size))
    shard.tick(DT)


def animate(shard: Shard, call: BatchCall) -> None:
    shard.columns["animation"][shard.rows(call.entities)] = len(str(call.params["name"]))


def nothing(shard: Shard) -> None:
    """The step of a frame with no work: what is left is coordination."""


class Local:
    """One ChartBatch of every agent, in this process, doing a shard's frame for all."""

    def __init__(self, agents: int) -> None:
        self.animation = np.zeros(agents, np.int8)
        self.batch = ChartBatch(CHART, agents, {"play_animation": self.animate})
        self.batch.start()
        self.frames = 0

    def animate(self, call: BatchCall) -> None:
        self.animation[call.entities] = len(str(call.params["name"]))

    def run(self, count: int) -> None:
        for _ in range(count):
            random = np.random.default_rng((1, 0, self.frames))
            self.batch.send_each(EVENTS, inputs(random, self.batch.size))
            self.batch.tick(DT)
            self.frames += 1


class Sharded:
    """A ShardedBatch of every agent in ``shards`` actors, one ``step()`` a frame."""

    def __init__(self, agents: int, shards: int) -> None:
        handlers = {"play_animation": animate}
        columns = {"animation": np.int8}
        self.batch = ShardedBatch(
            CHART, agents, handlers, shards=shards, columns=columns, step=frame
        )
        self.batch.start()
        self.frames = 0

    def run(self, count: int) -> None:
        for _ in range(count):
            self.batch.step(1, self.frames)
            self.frames += 1


def best_seconds(
    runs: dict[str, Callable[[int], None]], frames: int, repeats: int
) -> dict[str, float]:
    """The best wall-clock seconds per frame of each of ``runs`` over ``repeats`` rounds of
    ``frames`` frames, the runs interleaved (each round starts with the next one), so that a
    busy moment of the machine does not land on one of them."""
    for run in runs.values():
        run(2)  # warm up: the first frames start every agent's recall of its cases
    best = dict.fromkeys(runs, float("inf"))
    names = list(runs)
    for round_ in range(repeats):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            start = time.perf_counter()
            runs[name](frames)
            best[name] = min(best[name], (time.perf_counter() - start) / frames)
    return best


def _burn(count: int = 3_000_000) -> int:
    total = 0
    for number in range(count):
        total += number
    return total


def _burn_together(ready: Any, spans: Any) -> None:
    ready.wait()  # both processes are running: burn at the same time
    start = time.perf_counter()
    _burn()
    spans.put((start, time.perf_counter()))


def free_cores() -> float:
    """How many cores this run gets now: the work two processes burning CPU at the same time
    do in a second, against one alone (on a machine others use, often less than it has)."""
    start = time.perf_counter()
    _burn()
    alone = time.perf_counter() - start
    context = multiprocessing.get_context("spawn")
    ready, spans = context.Barrier(2), context.Queue()
    workers = [context.Process(target=_burn_together, args=(ready, spans)) for _ in range(2)]
    for worker in workers:
        worker.start()
    found = [spans.get() for _ in workers]
    for worker in workers:
        worker.join()
    together = max(end for _, end in found) - min(begin for begin, _ in found)
    return 2 * alone / together


def check(agents: int = 20_000, frames: int = 30) -> None:
    """Two shards fed the inputs of one ChartBatch end every frame with its counts."""
    one = ChartBatch(CHART, agents, {"play_animation": lambda call: None})
    handlers = {"play_animation": animate}
    with ShardedBatch(CHART, agents, handlers, shards=2, columns={"animation": np.int8}) as two:
        one.start()
        two.start()
        random = np.random.default_rng(3)
        for number in range(frames):
            choices = inputs(random, agents)
            for batch in (one, two):
                batch.send_each(EVENTS, choices)
                batch.tick(DT)
            if two.counts() != one.counts():
                raise SystemExit(f"frame {number}: the shards differ from the ChartBatch")
    print(f"check: {agents:,} agents x {frames} frames, 2 shards agree with one ChartBatch\n")


def scaling(agents: int) -> dict[str, float]:
    """Seconds per frame of one ChartBatch and of each shard count, at ``agents``."""
    frames, repeats = (5, 5) if agents > 1_000_000 else (10, 5)
    sharded = {f"{shards} shards": Sharded(agents, shards) for shards in SHARDS}
    runs = {"ChartBatch": Local(agents).run} | {name: s.run for name, s in sharded.items()}
    try:
        return best_seconds(runs, frames, repeats)
    finally:
        for each in sharded.values():
            each.batch.close()


def coordination(shards: int, calls: int = 300, repeats: int = 3) -> tuple[float, float]:
    """Seconds a frame with ``shards`` shards and nothing to do costs: on the wall clock,
    and in CPU time of the driver (best of ``repeats``)."""
    with ShardedBatch(CHART, 0, {"play_animation": animate}, shards=shards, step=nothing) as idle:
        idle.step()
        best = (float("inf"), float("inf"))
        for _ in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(calls):
                idle.step()
            spent = (time.perf_counter() - wall) / calls, (time.process_time() - cpu) / calls
            best = min(best, spent)
        return best


def model(per_agent: float, per_shard: float, fixed: float, agents: int) -> str:
    """A frame of ``agents`` agents on 64 machines, from the measured costs."""
    shards = MACHINES * CORES
    work = agents / shards * per_agent
    coordinating = fixed + (shards - 1) * per_shard + NETWORK_MS / 1e3
    total = work + coordinating
    return (
        f"  {agents:>13,} agents: {work * 1e3:7.2f} ms of stepping + {coordinating * 1e3:5.2f} ms "
        f"of coordination = {1 / total:7.1f} frames/s, {agents / total:.2e} agent-steps/s"
    )


def main(argv: list[str]) -> int:
    start_local(max(SHARDS + COORDINATION), object_store_memory=512 << 20)
    check()
    sizes = (1_000_000,) if "--quick" in argv else (1_000_000, 4_000_000)
    before = free_cores()
    results = {agents: scaling(agents) for agents in sizes}
    after = free_cores()
    print(
        "Frames (10% of agents get an input; every agent ticks), wall clock; of the machine's "
        f"2 cores this run got {before:.1f} before and {after:.1f} after (the work of two "
        "processes burning CPU together, against one alone)"
    )
    header = ("agents", "engine", "frame", "frames/s", "agent-steps/s", "vs ChartBatch")
    print("  " + "".join(f"{title:>15}" for title in header))
    for agents, rows in results.items():
        for engine, seconds in rows.items():
            cells = (f"{agents:,}", engine, f"{seconds * 1e3:.1f} ms", f"{1 / seconds:.1f}")
            cells += (f"{agents / seconds:.3g}", f"{rows['ChartBatch'] / seconds:.2f}x")
            print("  " + "".join(f"{cell:>15}" for cell in cells))
    costs = {shards: coordination(shards) for shards in COORDINATION}
    print("\nCoordination: a frame of shards with no agents (one step() call)")
    for shards, (wall, cpu) in costs.items():
        each = wall / shards * 1e3
        print(
            f"  {shards} shards: {wall * 1e3:.2f} ms a frame ({each:.2f} ms a shard), "
            f"of which the driver's CPU {cpu * 1e3:.2f} ms"
        )
    most = COORDINATION[-1]
    per_shard = (costs[most][1] - costs[1][1]) / (most - 1)
    fixed = costs[1][0]
    largest = max(sizes)
    per_agent = results[largest]["1 shards"] / largest
    print(
        f"\nModel of {MACHINES} machines x {CORES} cores, one shard a core "
        f"({MACHINES * CORES} shards), assuming: each core steps an agent in "
        f"{per_agent * 1e9:.0f} ns (one shard here, {largest:,} agents); a frame costs the "
        f"driver {fixed * 1e3:.2f} ms for the first shard (one shard's frame with no agents, "
        f"measured above) and {per_shard * 1e3:.3f} ms of its CPU for each other (the slope "
        f"of its CPU time above: it sends and hears every shard in turn); a round trip to "
        f"the machines adds {NETWORK_MS} ms; the agents are spread evenly; no mail crosses "
        "shards; one driver, no tree of drivers"
    )
    for agents in (4_000_000, 64_000_000, 256_000_000):
        print(model(per_agent, per_shard, fixed, agents))
    two = results[largest]["ChartBatch"] / results[largest]["2 shards"]
    worst = max(wall / shards for shards, (wall, _) in costs.items()) * 1e3
    print("\nTargets")
    _target(
        two >= TARGET_SPEEDUP,
        f"{largest:,} agents: 2 shards {TARGET_SPEEDUP}x one ChartBatch",
        f"{two:.2f}x",
    )
    _target(
        worst < TARGET_COORDINATION_MS,
        "coordination under 1 ms a frame per shard",
        f"{worst:.2f} ms",
    )
    return 0


def _target(passed: bool, label: str, value: str) -> None:
    print(f"  {'PASS' if passed else 'MISS'}  {label}: {value}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
