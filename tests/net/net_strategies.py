"""Hypothesis strategies for the net tests: machines driven into random configurations,
the packets they encode to, and random structures written in several ways."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as hs
from net_samples import BODY, HERO, REUSE, Body, Direction, Hero, Plain, Reuse, machine

import statetree as st
from statetree.net import Codec, Configuration
from statetree.structure import StateInfo, Structure

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


# -- random structures, for the fingerprint ------------------------------------------------

INNER_KINDS = (st.TransitionKind.INNER, st.TransitionKind.INNER_ENTRY)


@dataclass(frozen=True)
class Shape:
    """A random acyclic structure: states ``S0``..; each parent's children are later states
    (a child may have several parents), with sibling edges among them; ``S0`` and its
    siblings are outermost. ``orders`` gives every parent's children, and ``outermost`` the
    outermost states, in a random order.
    """

    edges: tuple[tuple[str, str, st.TransitionKind], ...]
    orders: tuple[tuple[str, tuple[str, ...]], ...]
    outermost: tuple[str, ...]


@hs.composite
def shapes(draw: hs.DrawFn) -> Shape:
    """A random :class:`Shape` of 2 to 7 states."""
    count = draw(hs.integers(2, 7))
    names = [f"S{i}" for i in range(count)]
    top = [names[0]] + [n for n in names[1:3] if draw(hs.booleans())]
    edges = [(a, b, st.TransitionKind.SIBLING) for a, b in itertools.pairwise(top)]
    for index, parent in enumerate(names):
        later = [n for n in names[index + 1 :] if n not in top]
        picked = draw(hs.lists(hs.sampled_from(later), unique=True, max_size=3)) if later else []
        inside = sorted(picked, key=names.index)  # every edge leads on: no nesting cycle
        if inside:
            edges.append((parent, inside[0], draw(hs.sampled_from(INNER_KINDS))))
            edges += [(a, b, st.TransitionKind.SIBLING) for a, b in itertools.pairwise(inside)]
    places = Structure.from_names("S0", edges).places
    orders = tuple(
        (parent, tuple(draw(hs.permutations([n for p in places.of(parent) for n in p.states]))))
        for parent in places.parents
    )
    return Shape(tuple(edges), orders, tuple(draw(hs.permutations(places.top.states))))


@hs.composite
def variants(draw: hs.DrawFn, shape: Shape) -> Structure:
    """``shape`` as code might write it: its edges in any order, its child orders declared
    or not (each parent choosing), and, sometimes, a declared order changed."""
    edges = draw(hs.permutations(shape.edges))
    children = {}
    for parent, order in shape.orders:
        choice = draw(hs.sampled_from(["declared", "derived", "changed"]))
        if choice == "declared":
            children[parent] = order
        elif choice == "changed":
            children[parent] = tuple(draw(hs.permutations(order)))
    outermost = draw(hs.sampled_from([(), shape.outermost, tuple(reversed(shape.outermost))]))
    return with_classes(Structure.from_names("S0", edges), children, outermost)


_CLASSES: dict[str, type[st.State[Any]]] = {}


def with_classes(
    bare: Structure, children: dict[str, tuple[str, ...]], outermost: tuple[str, ...]
) -> Structure:
    """``bare`` with one shared payload-free class per state name, and these orders."""
    for name in bare.names:
        _CLASSES.setdefault(name, type(name, (Plain,), {}))
    states = tuple(StateInfo(name, _CLASSES[name]) for name in bare.names)
    return Structure(bare.initial, states, bare.edges, (), children, outermost)
