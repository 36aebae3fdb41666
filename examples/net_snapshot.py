"""A crowd replicated in one packed snapshot per frame, over UDP on 127.0.0.1.

Run ``python examples/net_snapshot.py [--actors N] [--frames N] [--seed S]``. The server runs
a crowd of the book's characters (from ``net_character``), each driven by its own seeded
inputs, and sends every frame one snapshot: all the characters' states packed into one bit
stream with ``net.pack``, no rounding between them. The client shook hands with the same
wire-schema fingerprint; it unpacks each snapshot all or nothing (a bad one would change
nothing) and applies it to its mirror of the crowd. The report compares the snapshot with a
packet per character and checks that the mirror matches the world.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass

from extras import at_least
from net_character import CODEC, Character, Inputs

from statetree import net


@dataclass(frozen=True)
class Report:
    """A run: the sizes of the snapshots and of separate packets, and whether it matched."""

    actors: int
    frames: int
    snapshot_bytes: tuple[int, ...]
    separate_bytes: tuple[int, ...]
    matched: bool
    fingerprint: str

    @property
    def bits_per_actor(self) -> float:
        return 8 * sum(self.snapshot_bytes) / (self.frames * self.actors)

    @property
    def separate_bits_per_actor(self) -> float:
        return 8 * sum(self.separate_bytes) / (self.frames * self.actors)


class Mirror:
    """The client's copy of the crowd, moved to each snapshot it receives."""

    def __init__(self, actors: int) -> None:
        self.crowd = [Character(f"mirror-{index}") for index in range(actors)]
        self.frame = 0

    def on_state(self, message: net.StateMessage) -> None:
        # Every state is decoded and checked before any character changes.
        states = net.unpack(message.state, [CODEC] * len(self.crowd))
        for character, state in zip(self.crowd, states, strict=True):
            CODEC.apply(character.machine, state)
        self.frame = message.frame


def _inputs(rng: random.Random) -> Inputs:
    return Inputs(rng.random() < 0.3, rng.random() < 0.4, rng.random() < 0.1)


async def run(actors: int, frames: int, seed: int) -> Report:
    """Replicate ``actors`` characters for ``frames`` frames; the client waits for each one."""
    world = [Character(f"npc-{index}") for index in range(actors)]
    drivers = [random.Random(seed * 1000 + index) for index in range(actors)]
    mirror = Mirror(actors)
    fingerprint = CODEC.fingerprint
    server = await net.StateServer.open(
        Inputs.unpack, lambda client, ready: None, fingerprint=fingerprint
    )
    client = await net.StateClient.open(
        server.endpoint.address, mirror.on_state, fingerprint=fingerprint
    )
    snapshots, separate = [], []
    try:
        for frame in range(1, frames + 1):
            for character, driver in zip(world, drivers, strict=True):
                character.step(frame, _inputs(driver))
            snapshot = net.pack((CODEC, character.machine) for character in world)
            snapshots.append(len(snapshot))
            separate.append(sum(len(CODEC.encode(character.machine)) for character in world))
            for address in server.clients:
                server.send_state(address, net.StateMessage(frame, snapshot))
            while mirror.frame < frame:  # loopback without loss: each snapshot arrives
                await asyncio.sleep(0.001)
    finally:
        client.close()
        server.close()
    matched = all(
        CODEC.capture(mine.machine) == CODEC.capture(theirs.machine)
        for mine, theirs in zip(mirror.crowd, world, strict=True)
    )
    return Report(actors, frames, tuple(snapshots), tuple(separate), matched, fingerprint)


def describe(report: Report) -> list[str]:
    """The lines ``main`` prints."""
    sizes = report.snapshot_bytes
    return [
        f"{report.actors} actors, {report.frames} frames, wire schema {report.fingerprint}",
        f"snapshot: {sum(sizes) / len(sizes):.1f} bytes per frame on average "
        f"({min(sizes)} to {max(sizes)}): {report.bits_per_actor:.2f} bits per actor",
        f"a packet per actor: {report.separate_bits_per_actor:.2f} bits per actor",
        f"mirror {'matches' if report.matched else 'DIFFERS FROM'} the world",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, run, print the report; the exit status is 1 if the mirror differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actors", type=at_least(1), default=200)
    parser.add_argument("--frames", type=at_least(1), default=60)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args(argv)
    report = asyncio.run(run(options.actors, options.frames, options.seed))
    for line in describe(report):
        print(line)
    return 0 if report.matched else 1


if __name__ == "__main__":
    raise SystemExit(main())
