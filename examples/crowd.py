"""A crowd of 100,000 characters, one chart, stepped as arrays by a ChartBatch.

Every character runs ``charts/crowd.json`` (Alive/Dead, locomotion, a two-hit combo with
timers, a jump). Each frame, 60 per simulated second, about one character in ten gets an
input (attack, jump, move, stop, die, respawn): one ``frame`` call gives each character its
input, then advances every clock and fires the due timers, in one pass over the crowd. The
host's ``play_animation`` handler is called once per animation per step with every agent
starting it, and records each agent's animation in a NumPy array.

Every simulated second the example prints how many characters are in each state and what
a frame cost. Run ``python examples/crowd.py`` (``--agents``, ``--seconds``); with
``--shards N`` the crowd is a ``ShardedBatch`` of N Ray actors on a local cluster, fed the same
inputs (the states it prints are the same), its animations kept in a data column of each shard.
"""

from __future__ import annotations

import argparse
import runpy
import time
from pathlib import Path

from extras import needs

with needs("batch"):
    import numpy as np

    from statetree.chart import BatchCall, ChartBatch

from statetree.chart import Event, Shard, ShardedBatch, load

HERE = Path(__file__).resolve().parent
GAME = runpy.run_path(str(HERE / "charts" / "game.py"))["REGISTRY"]
CHART = load(HERE / "charts" / "crowd.json", GAME)
FPS = 60
INPUTS = (
    (Event("input", "Attack"), 0.40),
    (Event("input", "Jump"), 0.20),
    (Event("input", "Move"), 0.15),
    (Event("input", "Stop"), 0.15),
    (Event("event", "Died"), 0.05),
    (Event("input", "Respawn"), 0.05),
)
SHOWN = ("Locomotion.Idle", "Locomotion.Walk", "Jump", "Combo.Hit1", "Combo.Hit2", "Dead")
ANIMATIONS = ("Idle", "Walk", "Jump", "Hit1", "Hit2", "Die")


def play_in_shard(shard: Shard, call: BatchCall) -> None:
    """``play_animation`` in a shard's actor: the animation goes to its data column."""
    rows = shard.rows(call.entities)
    shard.columns["animation"][rows] = ANIMATIONS.index(str(call.params["name"])) + 1


class Crowd:
    """The host side: each character's current animation, set by the chart's actions."""

    def __init__(self, agents: int, seed: int = 7, shards: int = 0) -> None:
        self.animation = np.full(agents, -1, np.int8)
        self.batch: ChartBatch | ShardedBatch
        if shards:  # the animations live in the shards (0: none yet), read back at the end
            handlers = {"play_animation": play_in_shard}
            columns = {"animation": np.int8}
            with needs("shard"):  # Ray: only for shards
                self.batch = ShardedBatch(CHART, agents, handlers, shards=shards, columns=columns)
        else:
            self.batch = ChartBatch(CHART, agents, {"play_animation": self.play_animation})
        self.random = np.random.default_rng(seed)
        self.events = [event for event, _ in INPUTS]
        self.odds = np.array([odds for _, odds in INPUTS])

    def play_animation(self, call: BatchCall) -> None:
        self.animation[call.entities] = ANIMATIONS.index(str(call.params["name"]))

    def animations(self) -> np.ndarray:  # type: ignore[type-arg]
        """Each character's animation (an index into ``ANIMATIONS``; -1: none)."""
        if isinstance(self.batch, ShardedBatch):
            return self.batch.columns("animation")["animation"] - 1
        return self.animation

    def inputs(self) -> np.ndarray:  # type: ignore[type-arg]
        """This frame's input of each character: an index into ``events``, or -1 (none)."""
        size = self.batch.size
        pressed = self.random.random(size) < 0.1
        chosen = self.random.choice(len(self.events), size=size, p=self.odds)
        return np.where(pressed, chosen, -1)

    def frame(self, inputs: np.ndarray) -> None:  # type: ignore[type-arg]
        self.batch.frame(1 / FPS, self.events, inputs)

    def warm_up(self) -> None:
        """A frame of no input and no time: the batch's compiled pass is ready before the
        frames are timed (numba compiles it on first use and keeps it on disk for later runs)."""
        self.batch.frame(0.0, self.events, np.full(self.batch.size, -1))


def counts(batch: ChartBatch | ShardedBatch) -> dict[str, int]:
    """How many characters are in each shown state."""
    every = batch.counts()
    paths = {n: "Character.Dead" if n == "Dead" else f"Character.Alive.{n}" for n in SHOWN}
    return {name: every[path] for name, path in paths.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A crowd running one chart as arrays.")
    parser.add_argument("--agents", type=int, default=100_000)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--shards", type=int, default=0, help="Ray actors (0: this process)")
    args = parser.parse_args(argv)
    crowd = Crowd(args.agents, shards=args.shards)
    crowd.batch.start()
    crowd.warm_up()
    where = f"{args.shards} shards" if args.shards else "one process"
    print(f"{args.agents:,} characters, {FPS} frames per simulated second, {where}")
    print("  time " + "".join(f"{name.rpartition('.')[2]:>9}" for name in SHOWN) + "   frame cost")
    for second in range(1, args.seconds + 1):
        spent = 0.0
        for _ in range(FPS):
            inputs = crowd.inputs()
            start = time.perf_counter()
            crowd.frame(inputs)
            spent += time.perf_counter() - start
        shown = "".join(f"{count:>9,}" for count in counts(crowd.batch).values())
        cost = spent / FPS
        each = cost / args.agents * 1e9
        print(f"  {second:3d} s {shown}   {cost * 1e3:6.2f} ms ({each:.0f} ns/agent)")
    animation = crowd.animations()
    playing = np.bincount(animation[animation >= 0], minlength=len(ANIMATIONS))
    pairs = zip(ANIMATIONS, playing.tolist(), strict=True)
    print("  animations playing: " + ", ".join(f"{name} {count:,}" for name, count in pairs))
    if isinstance(crowd.batch, ShardedBatch):
        crowd.batch.close()


if __name__ == "__main__":
    main()
