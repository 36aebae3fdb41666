"""ChartBatch against ChartMachine: one chart, many agents, the same frames.

The character is ``examples/charts/crowd.json`` (14 states: Alive/Dead, locomotion, a
two-hit combo with timers, a jump). A frame gives about 10% of the agents an input
(attack, jump, move, stop, die, respawn) and then ticks every agent by 1/60 s. The
machines get each input with ``send`` and are ticked one by one, as a game loop would; the
batch gets the frame's inputs in one ``send_each`` and one ``tick``. Both engines play the
same precomputed frames, and before anything is timed 1,000 agents of each play 180 frames
and must agree on every agent's active states and animation calls.

Tables: the cost per agent per frame and its ratio from 100 to 1,000,000 agents, closely
below 1,000 to find the crossover (machines stop at 100,000: a million of them takes
gigabytes and seconds per frame); one tick of 1,000,000 agents and the bytes per agent.
Times are CPU times, best of interleaved repeats; only ratios within one run mean anything.

Run ``python benchmarks/bench_batch.py`` (``--quick`` stops the scaling at 100,000).
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from time import process_time

import numpy as np
from corebench.timing import Timed, best_times

from statetree.chart import (
    ActionCall,
    BatchCall,
    ChartBatch,
    ChartMachine,
    Event,
    compile_chart,
    load,
)

ROOT = Path(__file__).resolve().parents[1]
GAME = runpy.run_path(str(ROOT / "examples" / "charts" / "game.py"))["REGISTRY"]
CHART = compile_chart(load(ROOT / "examples" / "charts" / "crowd.json", GAME))
INPUTS = (
    (Event("input", "Attack"), 0.40),
    (Event("input", "Jump"), 0.20),
    (Event("input", "Move"), 0.15),
    (Event("input", "Stop"), 0.15),
    (Event("event", "Died"), 0.05),
    (Event("input", "Respawn"), 0.05),
)
EVENTS = [event for event, _ in INPUTS]
DT = 1 / 60
FRAMES = 64
TARGET_RATIO = 20.0
TARGET_TICK_MS = 100.0
TARGET_BYTES = 64
SCALING = (100, 200, 300, 500, 1_000, 10_000, 100_000)
"""Agent counts timed with both engines: small ones closely, to find the crossover."""


def frames(agents: int, count: int = FRAMES, seed: int = 1) -> list[np.ndarray]:  # type: ignore[type-arg]
    """``count`` frames of inputs: each agent's event index, or -1 (about 90%)."""
    random = np.random.default_rng(seed)
    odds = np.array([odds for _, odds in INPUTS])
    return [
        np.where(random.random(agents) < 0.1, random.choice(len(EVENTS), agents, p=odds), -1)
        for _ in range(count)
    ]


class Machines:
    """One ChartMachine per agent, driven one by one."""

    def __init__(self, agents: int, inputs: list[np.ndarray]) -> None:  # type: ignore[type-arg]
        self.played: list[list[str]] = [[] for _ in range(agents)]
        self.machines = [
            ChartMachine(CHART, {"play_animation": self.recorder(i)}) for i in range(agents)
        ]
        for machine in self.machines:
            machine.start()
        self.inputs = [
            [(int(i), EVENTS[int(f[i])]) for i in np.flatnonzero(f >= 0)] for f in inputs
        ]
        self.frame = 0

    def recorder(self, agent: int) -> Callable[[ActionCall], None]:
        played = self.played[agent]
        return lambda call: played.append(str(call.params["name"]))

    def run(self, count: int) -> None:
        machines = self.machines
        for _ in range(count):
            for agent, event in self.inputs[self.frame % len(self.inputs)]:
                machines[agent].send(event)
            for machine in machines:
                machine.tick(DT)
            self.frame += 1


class Batch:
    """One ChartBatch of all agents, driven with one ``send_each`` and one ``tick``."""

    def __init__(self, agents: int, inputs: list[np.ndarray], record: bool = False) -> None:  # type: ignore[type-arg]
        self.played: list[list[str]] = [[] for _ in range(agents if record else 0)]
        handler = self.record if record else self.animate
        self.animation = np.zeros(agents, np.int8)
        self.batch = ChartBatch(CHART, agents, {"play_animation": handler})
        self.batch.start()
        self.inputs = inputs
        self.frame = 0

    def animate(self, call: BatchCall) -> None:
        self.animation[call.entities] = len(str(call.params["name"]))

    def record(self, call: BatchCall) -> None:
        for agent in call.entities.tolist():
            self.played[agent].append(str(call.params["name"]))

    def run(self, count: int) -> None:
        batch = self.batch
        for _ in range(count):
            batch.send_each(EVENTS, self.inputs[self.frame % len(self.inputs)])
            batch.tick(DT)
            self.frame += 1


def check(agents: int = 1_000, count: int = 180) -> None:
    """Both engines on the same frames: every agent's states and animations must agree."""
    inputs = frames(agents, count, seed=2)
    machines, batch = Machines(agents, inputs), Batch(agents, inputs, record=True)
    machines.run(count)
    batch.run(count)
    for agent in range(agents):
        machine = machines.machines[agent]
        if (
            batch.batch.active(agent) != machine.active
            or batch.played[agent] != machines.played[agent]
        ):
            raise SystemExit(
                f"agent {agent} differs: {batch.batch.active(agent)} vs {machine.active}"
            )
    print(f"check: {agents:,} agents x {count} frames, both engines agree on every agent\n")


def per_frame(agents: int, with_machines: bool, repeats: int = 3) -> dict[str, float]:
    """Seconds per frame of each engine at ``agents`` agents."""
    inputs = frames(agents)
    entries = [Timed("batch", Batch(agents, inputs).run)]
    if with_machines:
        entries.append(Timed("machines", Machines(agents, inputs).run))
    timings = best_times(entries, repeats=repeats, min_time=0.2)
    return {name: timing.seconds_per_op for name, timing in timings.items()}


def one_million() -> tuple[float, float, float]:
    """At 1,000,000 agents after 1 s of play: a frame, one tick alone (seconds), bytes/agent."""
    agents = 1_000_000
    run = Batch(agents, frames(agents, 8))
    run.run(60)
    frame = min(_timed(lambda: run.run(1)) for _ in range(3))
    tick = min(_timed(lambda: run.batch.tick(DT)) for _ in range(5))
    return frame, tick, run.batch.nbytes / agents


def _timed(work: Callable[[], object]) -> float:
    start = process_time()
    work()
    return process_time() - start


def main(argv: list[str]) -> int:
    check()
    rows = {agents: per_frame(agents, True) for agents in SCALING}
    print("Cost per agent per frame (10% of agents get an input; every agent ticks)")
    header = ("agents", "ChartMachine", "ChartBatch", "batch frame", "speed-up")
    print("  " + "".join(f"{title:>14}" for title in header))
    for agents, row in rows.items():
        machine, batch = row["machines"] / agents, row["batch"] / agents
        cells = (f"{agents:,}", f"{machine * 1e9:.0f} ns", f"{batch * 1e9:.0f} ns")
        cells += (f"{row['batch'] * 1e3:.2f} ms", f"{machine / batch:.1f}x")
        print("  " + "".join(f"{cell:>14}" for cell in cells))
    million = None if "--quick" in argv else one_million()
    if million is not None:
        cells = (
            "1,000,000",
            "(not run)",
            f"{million[0] * 1e3:.0f} ns",
            f"{million[0] * 1e3:.2f} ms",
        )
        print("  " + "".join(f"{cell:>14}" for cell in cells))
    ratio = rows[100_000]["machines"] / rows[100_000]["batch"]
    small = rows[300]["machines"] / rows[300]["batch"]
    print(f"\nCrossover: {crossover(rows)}")
    print("\nTargets")
    _target(
        ratio >= TARGET_RATIO, f"100,000 agents: at least {TARGET_RATIO:g}x faster", f"{ratio:.1f}x"
    )
    if million is not None:
        _, tick, size = million
        _target(
            tick * 1e3 <= TARGET_TICK_MS,
            "1,000,000 agents: one tick in 100 ms",
            f"{tick * 1e3:.1f} ms",
        )
        _target(size <= TARGET_BYTES, "1,000,000 agents: 64 bytes per agent", f"{size:.1f} bytes")
    _target(small >= 1, "300 agents: at least as fast as the machines", f"{small:.2f}x")
    return 0


def crossover(rows: dict[int, dict[str, float]]) -> str:
    """From which count timed on the batch is at least as fast as the machines."""
    counts = sorted(rows)
    start = None
    for agents in reversed(counts):
        if rows[agents]["batch"] > rows[agents]["machines"]:
            break
        start = agents
    if start is None:
        return "the batch is slower at the largest count timed"
    said = f"the batch is at least as fast as ChartMachines from {start:,} agents on"
    if start == counts[0]:
        return said + " (every count timed)"
    return said + f" (slower at {counts[counts.index(start) - 1]:,})"


def _target(passed: bool, label: str, value: str) -> None:
    print(f"  {'PASS' if passed else 'MISS'}  {label}: {value}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
