"""Fingerprints and schemas: a codec's fingerprint changes when, and only when, its bits do."""

from __future__ import annotations

import enum

import pytest
from hypothesis import given
from hypothesis import strategies as hs
from net_samples import HERO, REUSE, Hero, Plain, chain
from net_strategies import shapes, variants

import statetree as st
from statetree import net
from statetree.net import BitmaskCodec, Codec, PacketError
from statetree.structure import StateInfo, Structure

Bits = dict[str, tuple[int, int]]


def every_packet(codec: Codec) -> Bits:
    """Each configuration the codec can describe, with its header value and width: for
    payload-free structures, exactly the bits of every packet."""
    found = {}
    for header in range(codec.tree.top.largest + 1 if codec.header_bits else 1):
        data = (header << (-codec.header_bits % 8)).to_bytes(-(-codec.header_bits // 8), "big")
        try:
            configuration = codec.decode(data)
        except PacketError:
            continue
        found[str(configuration)] = (header, codec.header_bits)
    return found


@given(hs.data())
def test_the_fingerprint_changes_exactly_when_the_bits_do(data: hs.DataObject) -> None:
    shape = data.draw(shapes())
    one, other = data.draw(variants(shape)), data.draw(variants(shape))
    first, second = Codec.path(one), Codec.path(other)
    same_bits = every_packet(first) == every_packet(second)
    assert (first.fingerprint == second.fingerprint) is same_bits
    assert (first.schema() == second.schema()) is same_bits


def structure(**orders: tuple[str, ...]) -> Structure:
    """Root{A, B} written with the edges in the given order, children as declared."""
    edges = orders.pop("edges", ("A", "B"))
    classes = {name: type(name, (Plain,), {}) for name in ("Root", "A", "B")}
    bare = Structure.from_names(
        "Root",
        [
            ("Root", edges[0], st.TransitionKind.INNER_ENTRY),
            (edges[0], edges[1], st.TransitionKind.SIBLING),
        ],
    )
    states = tuple(StateInfo(name, classes[name]) for name in ("Root", "A", "B"))
    return Structure("Root", states, bare.edges, (), {"Root": orders["children"]})


def test_a_refactor_keeps_it_and_a_new_order_changes_it() -> None:
    declared = structure(children=("A", "B"), edges=("A", "B"))
    refactored = structure(children=("A", "B"), edges=("B", "A"))
    reordered = structure(children=("B", "A"), edges=("A", "B"))
    assert Codec.path(declared).fingerprint == Codec.path(refactored).fingerprint
    assert Codec.path(declared).fingerprint != Codec.path(reordered).fingerprint
    assert len(Codec.path(declared).fingerprint) == 16


class Colour(enum.Enum):
    RED = 1
    GREEN = 2


def stateful(*fields: net.Field[object]) -> Codec:
    def on_enter(self: st.State[None], *values: object) -> None:
        self.values = values  # type: ignore[attr-defined]

    body = {"net_fields": fields, "on_enter": on_enter, "net_payload": lambda self: self.values}
    state = type("Carry", (st.State,), body)
    return Codec.path(Structure("Carry", (StateInfo("Carry", state),), ()))


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ((net.UInt(3),), (net.Int(0, 7),), True),  # the same bits for the same values
        ((net.UInt(3),), (net.UInt(4),), False),
        ((net.Int(1, 8),), (net.Int(0, 7),), False),  # same width, other values
        ((net.Enum(Colour),), (net.Bool(),), False),
        ((net.Float32(0.0, 1.0),), (net.Float32(0.0, 2.0),), False),
        ((net.Float32(-1, 1),), (net.Float32(-1.0, 1.0),), True),  # bounds written two ways
        ((net.Float64(0, 0.1),), (net.Float64(0, 0.1000001),), False),
        ((net.Bytes(4),), (net.Bytes(4),), True),
        ((net.Bool(), net.UInt(2)), (net.UInt(2), net.Bool()), False),
    ],
)
def test_payload_layouts_count_as_what_they_write(
    one: tuple[net.Field[object], ...], other: tuple[net.Field[object], ...], same: bool
) -> None:
    assert (stateful(*one).fingerprint == stateful(*other).fingerprint) is same


def test_the_header_mode_counts_only_where_it_changes_the_bits() -> None:
    flat = structure(children=("A", "B"))
    assert Codec.leaf(flat).fingerprint == Codec.path(flat).fingerprint  # same numbers
    assert Codec.leaf(HERO).fingerprint != Codec.path(HERO).fingerprint


def test_a_schema_lists_places_indexes_widths_and_the_fingerprint() -> None:
    codec = Codec.path(REUSE)
    schema = codec.schema()
    assert schema["format"] == "statetree.net schema 1"
    assert schema["machine"] == "Reuse.Alive"
    assert schema["header"] == {"mode": "path", "bits": 3, "configurations": 5, "minimum_bits": 3}
    assert schema["places"] == {
        "top": {"Reuse.Alive": 0},
        "Reuse.Alive": {"Reuse.Emote": 0, "Reuse.Attack": 1, "(nothing)": 2},
        "Reuse.Emote": {"Reuse.PlayAnim": 0, "Reuse.Done": 1},
        "Reuse.Attack": {"Reuse.PlayAnim": 0, "Reuse.Done": 1},
    }
    assert schema["payloads"] == {
        "Reuse.PlayAnim": [
            {
                "field": "anim",
                "declared": "Int(1, 5)",
                "bits": 3,
                "type": "Int",
                "minimum": 1,
                "maximum": 5,
            }
        ]
    }
    assert schema["fingerprint"] == codec.fingerprint
    assert list(schema) == ["format", "machine", "header", "places", "payloads", "fingerprint"]


def test_a_leaf_schema_lists_the_leaves() -> None:
    assert Codec.leaf(HERO).schema()["leaves"] == {
        "0": "Hero.Alive/Hero.Locomotion/Hero.Stand",
        "1": "Hero.Alive/Hero.Locomotion/Hero.Move",
        "2": "Hero.Alive/Hero.Jump",
        "3": "Hero.Dead",
    }


def test_schema_text_and_diff_are_readable() -> None:
    before = net.schema_text(Codec.path(structure(children=("A", "B"))).schema())
    after = net.schema_text(Codec.path(structure(children=("B", "A"))).schema())
    diff = net.schema_diff(before, after, "root.schema.json", "the code")
    assert before.endswith("}\n")
    assert diff.startswith("--- root.schema.json\n+++ the code\n")
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and line[1:2] == " "]
    assert changed[:4] == ['-      "A": 0,', '-      "B": 1', '+      "B": 0,', '+      "A": 1']
    assert net.schema_diff(before, before, "a", "b") == ""


def test_a_bitmask_fingerprint_follows_the_states_and_what_makes_masks_legal() -> None:
    from statetree.bitmask import BitmaskDefinition

    base = {"A": {}, "B": {"requires": ["A"]}}
    blocked = {"A": {}, "B": {"requires": ["A"]}, "C": {"blocked_by": ["B"]}}
    terminated = {"A": {}, "B": {"requires": ["A"], "terminates": ["C"]}, "C": {}}
    fingerprint = [
        BitmaskCodec(BitmaskDefinition.from_data(rules)).fingerprint
        for rules in (base, dict(reversed(base.items())), blocked, terminated)
    ]
    assert fingerprint[0] != fingerprint[1]  # the bits are the states in order
    assert fingerprint[2] == fingerprint[3]  # both make B and C exclusive: the same masks
    assert len(set(fingerprint)) == 3


def test_a_codec_for_a_configuration_it_cannot_describe_still_refuses() -> None:
    with pytest.raises(st.UsageError, match=r"Hero\.Stand cannot be active at the top"):
        Codec.leaf(HERO).bits_of(chain(Hero.Stand))
