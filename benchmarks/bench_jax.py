"""The chart batch as a JAX step: agent-steps per second on the crowd workload.

The workload is ``crowd_workload.py``'s (the batch benchmark's): the crowd character of
``examples/charts/crowd.json``, about 10% of the agents given an input each frame, then
1/60 s of clock. Contenders, fed the same precomputed frames:

- ``ChartProgram.step`` under ``jax.jit``, one call a frame; the host's side of the
  animations is array work in the same compiled call (``where`` on the ``play_animation``
  masks), as a JAX program keeps it on the device;
- the same step inside ``lax.scan``, 16 frames a call (per-frame time: the call's / 16);
- on the CPU, when numba is installed: the hand-written numba kernel of
  ``crowd_kernels.py`` and ``ChartBatch`` with its compiled pass (numba), each writing
  every agent's animation.

Before anything is timed, the program plays 120 frames with 2,000 agents beside a
``ChartBatch`` and must end each frame with the same agents, bit for bit (snapshots), and
the same animations. Times are wall-clock (and, on the CPU, CPU seconds) of each frame,
contenders interleaved frame by frame; ratios are medians of per-frame ratios. XLA runs
its loops on every core (numba's kernel and ChartBatch on one), so on the CPU both clocks
are shown. Only numbers within one run mean anything.

Run ``python benchmarks/bench_jax.py`` (``--quick``: 10,000 and 100,000 agents only;
``--sizes 1000000,10000000``: other sizes). On a machine with a GPU and JAX for CUDA,
``benchmarks/gpu_jax.sh`` runs it there: it then times the program on the GPU against the
goal of 10 million agents a frame in under 1 ms.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from time import perf_counter, process_time
from typing import Any

import numpy as np
from crowd_workload import CHART, DT, EVENTS, Frame, frames

from statetree.chart import BatchCall, ChartBatch

try:
    import jax
    import jax.numpy as jnp
    from jax import lax

    from statetree.chart.jax import Agents, ChartProgram
except ModuleNotFoundError as missing:  # the jax extra needs Python 3.11 or later
    if missing.name != "jax":
        raise
    print("JAX is not installed (pip install '.[jax]', Python 3.11+): nothing to time")
    sys.exit(0)

SCANNED = 16
GOAL_AGENTS, GOAL_MS = 10_000_000, 1.0
"""The goal on one GPU: ten million agents a frame in under a millisecond."""


def _numba() -> tuple[Any, ...] | None:
    """The numba contenders' parts (``None`` without numba: the program alone is timed)."""
    try:
        from bench_batch import NUMBER, Played
        from crowd_kernels import NumbaCrowd
    except ImportError as error:
        if error.name not in ("numba", "llvmlite"):
            raise
        return None
    return NUMBER, Played, NumbaCrowd


class Program:
    """A ChartProgram; the animation each agent plays is an array updated on the device."""

    def __init__(self, agents: int) -> None:
        program = self.program = ChartProgram(CHART, EVENTS)
        rows, params = program.params("play_animation")

        def step(state: tuple[Agents, jax.Array], choices: jax.Array) -> Any:
            agents, animation = state
            agents, frame = program.step(agents, choices, DT)
            for k, row in enumerate(rows):  # calls of one agent: its last one wins
                animation = jnp.where(frame.calls[row], params["name"][k], animation)
            return (agents, animation), frame.failure

        def scan(state: Any, inputs: jax.Array) -> Any:
            return lax.scan(step, state, inputs)[0]

        self.one = jax.jit(lambda state, choices: step(state, choices)[0], donate_argnums=0)
        self.many = jax.jit(scan, donate_argnums=0)
        self.state: Any = (program.init(agents), jnp.zeros(agents, jnp.int32))

    def frame(self, choices: jax.Array, dt: float) -> None:
        self.state = jax.block_until_ready(self.one(self.state, choices))

    def frames(self, inputs: jax.Array) -> None:
        self.state = jax.block_until_ready(self.many(self.state, inputs))


def check(agents: int = 2_000, count: int = 120) -> None:
    """The program and a ChartBatch on the same frames: equal agents and animations."""
    program = ChartProgram(CHART, EVENTS)
    step = jax.jit(lambda state, choices: program.step(state, choices, DT))
    state = program.init(agents)
    log: dict[int, list[str]] = {}

    def note(call: BatchCall) -> None:
        for agent in call.entities.tolist():
            log.setdefault(agent, []).append(str(call.params["name"]))

    batch = ChartBatch(CHART, agents, {"play_animation": note})
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


Times = dict[str, dict[str, list[float]]]


def timed(agents: int, count: int, numba: tuple[Any, ...] | None) -> Times:
    """Wall and CPU seconds of each frame, per contender, the contenders interleaved."""
    program = Program(agents)
    playing: dict[str, Callable[[Frame, jax.Array], None]] = {}
    if numba is not None:
        codes, played, numba_crowd = numba

        def play_animation(call: BatchCall) -> None:
            host.play(codes[str(call.params["name"])], call.entities)

        host = played(agents, log=False)
        kernel = numba_crowd(agents, played(agents, log=False).play)
        batch = ChartBatch(CHART, agents, {"play_animation": play_animation}, backend="numba")
        batch.start()
        playing["hand-written numba"] = lambda choices, _: kernel.frame(choices, DT)
        playing["ChartBatch (numba)"] = lambda choices, _: batch.frame(DT, EVENTS, choices)
    playing["ChartProgram.step"] = lambda _, on_device: program.frame(on_device, DT)
    inputs = frames(agents, min(count, SCANNED))
    device = [jnp.asarray(choices, jnp.int8) for choices in inputs]
    stacked = jnp.stack(device)
    program.frames(stacked)  # compiles the scan
    times: Times = {
        name: {"wall": [], "cpu": []} for name in [*playing, "ChartProgram in lax.scan"]
    }
    names = list(playing)
    for number in range(count + 8):
        choices, on_device = inputs[number % len(inputs)], device[number % len(inputs)]
        turn = number % len(names)
        for name in names[turn:] + names[:turn]:
            wall, cpu = perf_counter(), process_time()
            playing[name](choices, on_device)
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


def ratio(times: Times, name: str, reference: str, clock: str) -> float:
    """The median, over frames, of ``name``'s time over ``reference``'s."""
    pairs = zip(times[name][clock], times[reference][clock], strict=False)
    return statistics.median(a / b for a, b in pairs if b > 0)


def _row(cells: list[str]) -> str:
    return "  " + "".join(f"{c:>28}" if n == 1 else f"{c:>14}" for n, c in enumerate(cells))


def _sizes(argv: list[str], gpu: bool) -> list[tuple[int, int]]:
    for arg in argv:
        if arg.startswith("--sizes="):
            return [(int(size), 64) for size in arg.removeprefix("--sizes=").split(",")]
    if "--quick" in argv:
        return [(10_000, 200), (100_000, 64)]
    return [(1_000_000, 64), (GOAL_AGENTS, 64)] if gpu else [(100_000, 64), (1_000_000, 32)]


def main(argv: list[str]) -> int:
    device = jax.devices()[0]
    gpu = device.platform != "cpu"
    numba = None if gpu else _numba()
    check()
    print(f"JAX {jax.__version__} on {device.platform.upper()} ({device.device_kind})")
    reference = "hand-written numba" if numba is not None else None
    header = ["agents", "contender", "wall ms", "CPU ms", "agent-steps/s"]
    header += ["wall x", "CPU x"] if reference else []
    print("Per frame, medians" + (": ratios to the numba kernel" if reference else ""))
    print(_row(header))
    goal = None
    for agents, count in _sizes(argv, gpu):
        times = timed(agents, count, numba)
        for name, clocks in times.items():
            wall = statistics.median(clocks["wall"])
            cells = [
                f"{agents:,}",
                name,
                f"{wall * 1e3:.3f}",
                f"{statistics.median(clocks['cpu']) * 1e3:.3f}",
                f"{agents / wall:.3g}",
            ]
            if reference:
                cells += [f"{ratio(times, name, reference, c):.1f}x" for c in ("wall", "cpu")]
            print(_row(cells))
            if agents == GOAL_AGENTS and name == "ChartProgram in lax.scan":
                goal = wall * 1e3
    if gpu and goal is not None:
        verdict = "met" if goal < GOAL_MS else "not met"
        aim = f"{GOAL_AGENTS:,} agents a frame in under {GOAL_MS} ms"
        print(f"\ngoal ({aim}): {goal:.3f} ms a frame in lax.scan, {verdict}")
    elif not gpu:
        print("\n(no GPU in this run: JAX's CPU build)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
