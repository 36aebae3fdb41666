"""The chart batch as a JAX step against the hand-written numba kernel and ChartBatch.

The workload is ``bench_batch.py``'s: the crowd character of ``examples/charts/crowd.json``,
about 10% of the agents given an input each frame, then 1/60 s of clock. Contenders, fed the
same precomputed frames:

- the hand-written numba kernel of ``crowd_kernels.py`` (host calls: one per animation);
- ``ChartBatch`` with its compiled pass (numba), handlers writing each agent's animation;
- ``ChartProgram.step`` under ``jax.jit``, one call a frame; the host's side of the
  animations is array work in the same compiled call (``where`` on the ``play_animation``
  masks), as a JAX program keeps it on the device;
- the same step inside ``lax.scan``, 16 frames a call (per-frame time: the call's / 16).

Before anything is timed, the program plays 120 frames with 2,000 agents beside a
``ChartBatch`` and must end each frame with the same agents, bit for bit (snapshots), and
the same animations. Times are wall-clock and CPU seconds of each frame, contenders
interleaved frame by frame; ratios are medians of per-frame ratios. XLA runs its loops on
every core (numba's kernel and ChartBatch on one), so both clocks are shown. Only numbers
within one run mean anything.

Run ``python benchmarks/bench_jax.py`` (``--quick`` leaves out 1,000,000 agents). It needs
JAX (CPU build) and numba. No GPU is used: see benchmarks/README.md.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from time import perf_counter, process_time
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from bench_batch import ANIMATIONS, CHART, DT, EVENTS, NUMBER, Played, frames
from crowd_kernels import NumbaCrowd
from jax import lax

from statetree.chart import BatchCall, ChartBatch
from statetree.chart.jax import Agents, ChartProgram

Frame = np.ndarray  # type: ignore[type-arg]
SCANNED = 16


class Program:
    """A ChartProgram; the animation each agent plays is an array updated on the device."""

    def __init__(self, agents: int) -> None:
        program = self.program = ChartProgram(CHART, EVENTS)
        rows, params = program.params("play_animation")
        labels = program.labels("play_animation", "name")
        code = jnp.asarray([NUMBER[labels[int(i)]] for i in params["name"]], jnp.int8)

        def step(state: tuple[Agents, jax.Array], choices: jax.Array) -> Any:
            agents, animation = state
            agents, frame = program.step(agents, choices, DT)
            for k, row in enumerate(rows):  # calls of one agent: its last one wins
                animation = jnp.where(frame.calls[row], code[k], animation)
            return (agents, animation), frame.failure

        def scan(state: Any, inputs: jax.Array) -> Any:
            return lax.scan(step, state, inputs)[0]

        self.one = jax.jit(lambda state, choices: step(state, choices)[0], donate_argnums=0)
        self.many = jax.jit(scan, donate_argnums=0)
        self.state: Any = (program.init(agents), jnp.zeros(agents, jnp.int8))

    def frame(self, choices: Frame, dt: float) -> None:
        self.state = jax.block_until_ready(self.one(self.state, jnp.asarray(choices)))

    def frames(self, inputs: jax.Array) -> None:
        self.state = jax.block_until_ready(self.many(self.state, inputs))


class Batch:
    """A ChartBatch (compiled pass)."""

    def __init__(self, agents: int) -> None:
        played = Played(agents, log=False)

        def play_animation(call: BatchCall) -> None:
            played.play(NUMBER[str(call.params["name"])], call.entities)

        self.batch = ChartBatch(CHART, agents, {"play_animation": play_animation}, backend="numba")
        self.batch.start()

    def frame(self, choices: Frame, dt: float) -> None:
        self.batch.frame(dt, EVENTS, choices)


class Kernel:
    """The hand-written numba kernel."""

    def __init__(self, agents: int) -> None:
        self.crowd = NumbaCrowd(agents, Played(agents, log=False).play)

    def frame(self, choices: Frame, dt: float) -> None:
        self.crowd.frame(choices, dt)


def check(agents: int = 2_000, count: int = 120) -> None:
    """The program and a ChartBatch on the same frames: equal agents and animations."""
    program = ChartProgram(CHART, EVENTS)
    step = jax.jit(lambda state, choices: program.step(state, choices, DT))
    state = program.init(agents)
    log: dict[int, list[str]] = {}

    def note(call: BatchCall) -> None:
        for agent in call.entities.tolist():
            log.setdefault(agent, []).append(str(call.params["name"]))

    batch = ChartBatch(CHART, agents, {"play_animation": note}, backend="numba")
    for number, choices in enumerate(frames(agents, count, seed=2)):
        log.clear()
        batch.frame(DT, EVENTS, choices)
        state, frame = step(state, jnp.asarray(choices))
        mine: dict[int, list[str]] = {}
        for call in program.host_calls(frame):
            for agent in call.entities.tolist():
                mine.setdefault(agent, []).append(str(call.params["name"]))
        theirs, ours = batch.snapshot().arrays, program.snapshot(state).arrays
        same = all(np.array_equal(theirs[k], ours[k], equal_nan=True) for k in theirs)
        if not same or mine != log:
            raise SystemExit(f"the program differs from ChartBatch at frame {number}")
    print(f"check: {agents:,} agents x {count} frames, the program equals ChartBatch\n")


Timer = Callable[[], float]


def timed(agents: int, count: int) -> dict[str, dict[str, list[float]]]:
    """Wall and CPU seconds of each frame, per contender, the contenders interleaved."""
    program = Program(agents)
    playing: dict[str, Any] = {
        "hand-written numba": Kernel(agents),
        "ChartBatch (numba)": Batch(agents),
        "ChartProgram.step": program,
    }
    inputs = frames(agents, min(count, 64))
    stacked = jnp.asarray(np.stack(inputs[:SCANNED]).astype(np.int8))
    program.frames(stacked)  # compiles the scan
    times: dict[str, dict[str, list[float]]] = {
        name: {"wall": [], "cpu": []} for name in [*playing, "ChartProgram in lax.scan"]
    }
    names = list(playing)
    for number in range(count + 8):
        choices = inputs[number % len(inputs)]
        turn = number % len(names)
        for name in names[turn:] + names[:turn]:
            wall, cpu = perf_counter(), process_time()
            playing[name].frame(choices, DT)
            if number >= 8:  # the first frames warm every contender up
                times[name]["wall"].append(perf_counter() - wall)
                times[name]["cpu"].append(process_time() - cpu)
        if number >= 8 and number % SCANNED == 0:
            wall, cpu = perf_counter(), process_time()
            program.frames(stacked)
            scanned = times["ChartProgram in lax.scan"]
            scanned["wall"] += [(perf_counter() - wall) / SCANNED] * SCANNED
            scanned["cpu"] += [(process_time() - cpu) / SCANNED] * SCANNED
    return times


def ratio(times: dict[str, dict[str, list[float]]], name: str, reference: str, clock: str) -> float:
    """The median, over frames, of ``name``'s time over ``reference``'s."""
    pairs = zip(times[name][clock], times[reference][clock], strict=False)
    return statistics.median(a / b for a, b in pairs if b > 0)


def main(argv: list[str]) -> int:
    check()
    sizes = [(10_000, 200), (100_000, 64)]
    if "--quick" not in argv:
        sizes.append((1_000_000, 32))
    print(f"JAX {jax.__version__} on {jax.devices()[0].platform.upper()} ({jax.devices()[0]})")
    print("Per frame, medians: milliseconds, agent-steps per second, ratio to the numba kernel")
    header = ("agents", "contender", "wall ms", "CPU ms", "agent-steps/s", "wall x", "CPU x")
    print(
        "  "
        + "".join(f"{title:>16}" if n != 1 else f"{title:>28}" for n, title in enumerate(header))
    )
    for agents, count in sizes:
        times = timed(agents, count)
        for name, clocks in times.items():
            wall = statistics.median(clocks["wall"])
            cells = [
                f"{agents:,}",
                name,
                f"{wall * 1e3:.3f}",
                f"{statistics.median(clocks['cpu']) * 1e3:.3f}",
                f"{agents / wall:.3g}",
                f"{ratio(times, name, 'hand-written numba', 'wall'):.1f}x",
                f"{ratio(times, name, 'hand-written numba', 'cpu'):.1f}x",
            ]
            print("  " + "".join(f"{c:>16}" if n != 1 else f"{c:>28}" for n, c in enumerate(cells)))
    print(f"\n(animations: {', '.join(ANIMATIONS)}; no GPU in this run)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
