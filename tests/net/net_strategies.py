"""Hypothesis strategies for the net tests: machines driven into random configurations,
and the packets they encode to."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as hs
from net_samples import BODY, HERO, REUSE, Body, Direction, Hero, Reuse, machine

import statetree as st
from statetree.net import Codec, Configuration
from statetree.structure import Structure

SAMPLES: dict[str, tuple[type[st.State[Any]], Structure, dict[str, Any]]] = {
    "hero": (
        Hero.Alive,
        HERO,
        {
            "dead": hs.booleans(),
            "jump": hs.booleans(),
            "move": hs.sampled_from([None, *Direction]),
        },
    ),
    "reuse": (
        Reuse.Alive,
        REUSE,
        {
            "emote": hs.booleans(),
            "attack": hs.booleans(),
            "done": hs.booleans(),
            "anim": hs.integers(1, 5),
        },
    ),
    "body": (
        Body.Alive,
        BODY,
        {
            "dead": hs.booleans(),
            "aim": hs.booleans(),
            "run": hs.booleans(),
            "target": hs.integers(0, 255),
        },
    ),
}
CODECS = {
    name: (Codec.path(structure), Codec.auto(structure))
    for name, (_, structure, _) in SAMPLES.items()
}


@hs.composite
def driven(draw: hs.DrawFn, name: str) -> st.StateMachine[Any]:
    """A sample machine after a few frames of random flags (frames count up by two)."""
    initial, _, flags = SAMPLES[name]
    built = machine(initial)
    for frame in range(draw(hs.integers(0, 4))):
        built.owner.frame = 2 * frame
        built.owner.flags.update({key: draw(value) for key, value in flags.items()})
        built.process_state_transitions()
    built.owner.log.clear()
    return built


@hs.composite
def packets(draw: hs.DrawFn) -> tuple[Codec, bytes, Configuration]:
    """A codec, a valid packet of it and the configuration the packet holds."""
    name = draw(hs.sampled_from(sorted(SAMPLES)))
    codec = draw(hs.sampled_from(CODECS[name]))
    built = draw(driven(name))
    return codec, codec.encode(built), codec.capture(built)


def mutations(data: bytes) -> hs.SearchStrategy[bytes]:
    """``data`` with a bit flipped, cut short, extended or with a byte replaced."""
    size = len(data)
    flips = hs.integers(0, max(8 * size - 1, 0)).map(
        lambda bit: bytes(b ^ (0x80 >> bit % 8 if i == bit // 8 else 0) for i, b in enumerate(data))
    )
    cuts = hs.integers(0, max(size - 1, 0)).map(lambda end: data[:end])
    longer = hs.binary(min_size=1, max_size=3).map(lambda extra: data + extra)
    replaced = hs.tuples(hs.integers(0, max(size - 1, 0)), hs.integers(0, 255)).map(
        lambda spot: data[: spot[0]] + bytes([spot[1]]) + data[spot[0] + 1 :]
    )
    return hs.one_of(flips, cuts, longer, replaced) if size else longer
