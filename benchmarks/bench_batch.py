"""ChartBatch against hand-written kernels and per-agent machines: one chart, many agents.

The character is ``examples/charts/crowd.json`` (Alive/Dead, locomotion, a two-hit combo
with timers, a jump). A frame gives about 10% of the agents an input (attack, jump, move,
stop, die, respawn), then advances every agent's clock by 1/60 s.

Contenders, each fed the same precomputed frames:

- ``ChartBatch`` with its compiled pass (numba) and with its NumPy pass;
- the hand-written references of ``crowd_kernels.py``: the same character written by hand
  with NumPy, and as a numba kernel;
- one ``ChartMachine`` per agent (up to 10,000 agents).

Before anything is timed, every contender plays 120 frames with 2,000 agents and must end
each frame with the same states and the same animations, agent for agent. Times are CPU
times of each frame, the contenders interleaved frame by frame; each ratio is the median of
the per-frame ratios. Only ratios within one run mean anything.

Run ``python benchmarks/bench_batch.py`` (``--quick`` leaves out 1,000,000 agents).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from time import perf_counter, process_time

import numpy as np
from crowd_kernels import ANIMATIONS, LEAF_PATHS, NumbaCrowd, NumpyCrowd
from crowd_workload import CHART, DT, EVENTS, Frame, frames

from statetree.chart import (
    ActionCall,
    BatchCall,
    ChartBatch,
    ChartMachine,
    compile_chart,
)
from statetree.chart.batch.batch import table_of

COMPILED = compile_chart(CHART)
NUMBER = {name: n for n, name in enumerate(ANIMATIONS)}


class Played:
    """What the host does with animations: one array write per call, or a log to compare."""

    def __init__(self, agents: int, log: bool) -> None:
        self.animation = np.zeros(agents, np.int8)
        self.log: list[tuple[int, int]] | None = [] if log else None

    def play(self, animation: int, agents: np.ndarray) -> None:  # type: ignore[type-arg]
        self.animation[agents] = animation
        if self.log is not None:
            self.log.extend((int(agent), animation) for agent in agents.tolist())

    def play_one(self, animation: int, agent: int) -> None:
        self.animation[agent] = animation
        if self.log is not None:
            self.log.append((agent, animation))

    def take(self) -> list[tuple[int, int]]:
        assert self.log is not None
        taken, self.log[:] = sorted(self.log, key=lambda pair: pair[0]), []
        return taken


class Batch:
    """One ChartBatch, fed a frame with one ``frame`` (its inputs, then its tick)."""

    def __init__(self, agents: int, backend: str, played: Played) -> None:
        def play_animation(call: BatchCall) -> None:
            played.play(NUMBER[str(call.params["name"])], call.entities)

        self.batch = ChartBatch(CHART, agents, {"play_animation": play_animation}, backend=backend)
        self.batch.start()

    def frame(self, choices: Frame, dt: float) -> None:
        self.batch.frame(dt, EVENTS, choices)

    def leaves(self) -> list[str]:
        return [self.batch.paths[n] for n in self.batch.leaf_ids().tolist()]


class Machines:
    """One ChartMachine per agent, each sent its input and ticked, as a game loop would."""

    def __init__(self, agents: int, played: Played) -> None:
        def handler(agent: int) -> Callable[[ActionCall], None]:
            return lambda call: played.play_one(NUMBER[str(call.params["name"])], agent)

        compiled = COMPILED
        self.machines = [
            ChartMachine(compiled, {"play_animation": handler(n)}) for n in range(agents)
        ]
        for machine in self.machines:
            machine.start()

    def frame(self, choices: Frame, dt: float) -> None:
        machines = self.machines
        for agent in np.flatnonzero(choices >= 0).tolist():
            machines[agent].send(EVENTS[choices[agent]])
        for machine in machines:
            machine.tick(dt)

    def leaves(self) -> list[str]:
        return [machine.active[-1] for machine in self.machines]


class Kernel:
    """A hand-written reference of ``crowd_kernels.py``."""

    def __init__(self, kind: type[NumpyCrowd] | type[NumbaCrowd], agents: int, played: Played):
        self.crowd = kind(agents, played.play)

    def frame(self, choices: Frame, dt: float) -> None:
        self.crowd.frame(choices, dt)

    def leaves(self) -> list[str]:
        return [LEAF_PATHS[code & 7] for code in self.crowd.code.tolist()]


Contender = Batch | Machines | Kernel


def contenders(agents: int, log: bool, machines: bool) -> dict[str, tuple[Contender, Played]]:
    made: dict[str, tuple[Contender, Played]] = {}
    for name, make in (
        ("ChartBatch (numba)", lambda p: Batch(agents, "numba", p)),
        ("ChartBatch (numpy)", lambda p: Batch(agents, "numpy", p)),
        ("hand-written numba", lambda p: Kernel(NumbaCrowd, agents, p)),
        ("hand-written NumPy", lambda p: Kernel(NumpyCrowd, agents, p)),
        ("ChartMachines", lambda p: Machines(agents, p)),
    ):
        if name != "ChartMachines" or machines:
            played = Played(agents, log)
            made[name] = (make(played), played)
    return made


def check(agents: int = 2_000, count: int = 120) -> None:
    """Every contender on the same frames: the same states and animations, every frame."""
    playing = contenders(agents, log=True, machines=True)
    for number, choices in enumerate(frames(agents, count, seed=2)):
        seen = {}
        for name, (contender, played) in playing.items():
            contender.frame(choices, DT)
            seen[name] = (contender.leaves(), played.take())
        reference = seen["ChartMachines"]
        for name, found in seen.items():
            if found != reference:
                raise SystemExit(f"{name} differs from the machines at frame {number}")
    print(f"check: {agents:,} agents x {count} frames, every contender agrees with the machines\n")


def timed(agents: int, count: int, machines: bool) -> dict[str, list[float]]:
    """CPU seconds of each frame, per contender, the contenders interleaved."""
    playing = contenders(agents, log=False, machines=machines)
    times: dict[str, list[float]] = {name: [] for name in playing}
    names = list(playing)
    inputs = frames(agents, min(count, 64))
    for number in range(count + 8):
        choices = inputs[number % len(inputs)]
        turn = number % len(names)
        for name in names[turn:] + names[:turn]:
            contender = playing[name][0]
            start = process_time()
            contender.frame(choices, DT)
            if number >= 8:  # the first frames warm every contender up
                times[name].append(process_time() - start)
    return times


def ratio(times: dict[str, list[float]], name: str, reference: str) -> float:
    """The median, over frames, of ``name``'s time over ``reference``'s."""
    return statistics.median(
        a / b for a, b in zip(times[name], times[reference], strict=True) if b > 0
    )


def build_ms(repeats: int = 5) -> float:
    """Milliseconds to build the crowd chart's tables (a fresh compilation each time)."""
    best = float("inf")
    for _ in range(repeats):
        compiled = compile_chart(CHART)
        start = perf_counter()
        table_of(compiled, 1000)
        best = min(best, perf_counter() - start)
    return best * 1e3


def main(argv: list[str]) -> int:
    check()
    sizes = [(100, 2000, True), (10_000, 300, True)]
    if "--quick" not in argv:
        sizes.append((1_000_000, 40, False))
    results = {agents: timed(agents, count, machines) for agents, count, machines in sizes}
    print("Milliseconds per frame (median) and ChartBatch's ratio to each reference")
    header = ("agents", "contender", "ms/frame", "numba pass", "NumPy pass")
    print("  " + "".join(f"{title:>20}" for title in header))
    for agents, times in results.items():
        for name, values in times.items():
            cells = [f"{agents:,}", name, f"{statistics.median(values) * 1e3:.3f}"]
            if name != "ChartBatch (numba)":
                cells.append(f"{ratio(times, 'ChartBatch (numba)', name):.2f}x")
                cells.append(f"{ratio(times, 'ChartBatch (numpy)', name):.2f}x")
            print("  " + "".join(f"{cell:>20}" for cell in cells))
    batch = Batch(1000, "numba", Played(1000, False)).batch
    size = batch.nbytes / batch.size
    build = build_ms()
    print(f"\n{batch.engine}; {size:.0f} bytes per agent; tables built in {build:.1f} ms")
    print("\nTargets (ratios of ChartBatch to the reference, in this run)")
    targets = [
        (
            100,
            "ChartBatch (numba)",
            "ChartMachines",
            1.0,
            "100 agents: no slower than 100 ChartMachines",
        )
    ]
    targets.append(
        (
            10_000,
            "ChartBatch (numba)",
            "hand-written numba",
            3.0,
            "10,000 agents: within 3x of the numba kernel",
        )
    )
    if 1_000_000 in results:
        targets.append(
            (
                1_000_000,
                "ChartBatch (numba)",
                "hand-written numba",
                1.5,
                "1,000,000 agents: within 1.5x of the numba kernel",
            )
        )
        targets.append(
            (
                1_000_000,
                "ChartBatch (numpy)",
                "hand-written NumPy",
                2.0,
                "1,000,000 agents: NumPy pass within 2x of hand-written NumPy",
            )
        )
    for agents, name, reference, bound, label in targets:
        found = ratio(results[agents], name, reference)
        _target(found <= bound, label, f"{found:.2f}x")
    _target(size <= 16, "at most 16 bytes per agent", f"{size:.0f} bytes")
    _target(build < 100, "tables built in under 100 ms", f"{build:.1f} ms")
    return 0


def _target(passed: bool, label: str, value: str) -> None:
    print(f"  {'PASS' if passed else 'MISS'}  {label}: {value}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
