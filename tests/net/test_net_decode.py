"""Decoding treats every packet as hostile: each kind of bad packet is refused with a
``DecodeError`` naming what and where, and the machine is left exactly as it was."""

from __future__ import annotations

import enum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs
from net_samples import HERO, Direction, Hero, bits, chain, declared, machine
from net_strategies import CODECS, mutations, packets

import statetree as st
from statetree import net
from statetree.errors import DecodeError
from statetree.net import Codec, PacketError
from statetree.structure import StateInfo, Structure

PATH, LEAF = Codec.path(HERO), Codec.leaf(HERO)


def packet(bit_string: str) -> bytes:
    padded = bit_string + "0" * (-len(bit_string) % 8)
    return int(padded, 2).to_bytes(len(padded) // 8, "big") if padded else b""


BAD = [
    (PATH, "", "bit 0: 3 more bit(s) needed, but the packet ends 0 bit(s) further"),
    (PATH, "111", "bit 0: path header 7 is above the largest value 4"),
    (
        PATH,
        "011",
        "bit 0, state Dead: the path header goes on past a state with nothing more inside it",
    ),
    (
        PATH,
        "010" + "00000001",
        "bit 3, state Alive/Jump, field Jump.started: 16 more bit(s) needed, but the packet "
        "ends 13 bit(s) further",
    ),
    (
        PATH,
        "010" + "0000000100101101",
        "bit 3, state Alive/Jump: Hero.Jump refuses (301,): jumps start on even frames",
    ),
    (PATH, "000" + "00000" + "00000000", "bit 3: 1 byte(s) of trailing data after the end"),
    (PATH, "000" + "00001", "bit 3: the padding bits of the last byte are not zero"),
    (LEAF, "01" + "0" + "00001", "bit 3: the padding bits of the last byte are not zero"),
]


@pytest.mark.parametrize(("codec", "bit_string", "message"), BAD)
def test_each_bad_packet_names_what_and_where(codec: Codec, bit_string: str, message: str) -> None:
    hero = machine(Hero.Alive, move=Direction.LEFT)
    before = (hero.stack, codec.capture(hero))
    with pytest.raises(DecodeError) as error:
        codec.receive(hero, packet(bit_string))
    assert str(error.value) == f"bad packet at {message}"
    assert (hero.stack, codec.capture(hero)) == before
    assert hero.owner.log == []


def test_the_error_carries_its_parts_as_attributes() -> None:
    with pytest.raises(PacketError) as error:
        PATH.decode(packet("010" + "00000001"))
    assert (error.value.bit, error.value.state, error.value.field) == (
        3,
        "Alive/Jump",
        "Jump.started",
    )
    assert error.value.reason.startswith("16 more bit(s) needed")
    assert isinstance(error.value, ValueError)


class Weapon(enum.Enum):
    SWORD = 1
    BOW = 2
    STAFF = 3


class Armed(st.State[None]):
    net_fields = (net.Enum(Weapon), net.Float32(0.0, 10.0))

    def on_enter(self, weapon: Weapon, reach: float) -> None:
        self.weapon, self.reach = weapon, reach

    def net_payload(self) -> tuple[Weapon, float]:
        return self.weapon, self.reach


ARMED = Codec.path(Structure("Armed", (StateInfo("Armed", Armed),), ()))


def test_every_field_of_a_payload_is_range_checked() -> None:
    assert ARMED.header_bits == 0
    good = ARMED.encode_configuration(chain((Armed, Weapon.STAFF, 2.5)))
    assert bits(good)[:2] == "10"
    assert ARMED.decode(good) == chain((Armed, Weapon.STAFF, 2.5))
    with pytest.raises(
        PacketError, match=r"^bad packet at bit 0, state Armed, field Armed.weapon: index 3"
    ):
        ARMED.decode(packet("11" + "0" * 32))
    far = packet("00" + format(0x41300000, "032b"))  # 11.0
    with pytest.raises(PacketError, match=r"field Armed.reach: 11.0 is out of the range 0.0..10.0"):
        ARMED.decode(far)


INNER, ENTRY, SIBLING, CONCURRENT = (
    st.TransitionKind.INNER,
    st.TransitionKind.INNER_ENTRY,
    st.TransitionKind.SIBLING,
    st.TransitionKind.CONCURRENT,
)
# Shared states (S under A and B), optional inners (Root, R1), siblings and two regions.
MIXED = declared(
    "Root",
    [
        ("Root", "A", INNER),
        ("Root", "B", INNER),
        ("A", "S", ENTRY),
        ("B", "S", ENTRY),
        ("S", "T", SIBLING),
        ("Root", "Other", SIBLING),
        ("Other", "R1", CONCURRENT),
        ("Other", "R2", CONCURRENT),
        ("R1", "X", INNER),
        ("R2", "R3", SIBLING),
    ],
)


def test_every_header_value_is_one_configuration_or_refused() -> None:
    codec = Codec.path(MIXED)
    width = codec.header_bits
    found = {}
    for value in range(1 << width):
        data = packet(format(value, f"0{width}b"))
        try:
            configuration = codec.decode(data)
        except PacketError as error:
            assert error.bit == 0
            continue
        assert codec.encode_configuration(configuration) == data
        found[str(configuration)] = value
    # Root: nothing, A/S, A/T, B/S, B/T; Other: R1 or R1/X, times R2 or R3.
    assert len(found) == codec.configurations == 5 + 2 * 2
    assert "Other{R1/X | R3}" in found
    assert "Root/B/T" in found


@given(hs.binary(max_size=12), hs.sampled_from(sorted(CODECS)), hs.booleans())
def test_random_bytes_decode_to_the_same_bytes_or_are_refused(
    data: bytes, name: str, leaf: bool
) -> None:
    codec = CODECS[name][leaf]
    try:
        configuration = codec.decode(data)
    except DecodeError:
        return
    assert codec.encode_configuration(configuration) == data


@given(hs.data())
def test_mutated_packets_decode_to_the_same_bytes_or_are_refused(data: hs.DataObject) -> None:
    codec, valid, configuration = data.draw(packets())
    assert codec.decode(valid) == configuration
    mutated = data.draw(mutations(valid))
    try:
        decoded = codec.decode(mutated)
    except DecodeError:
        return
    assert codec.encode_configuration(decoded) == mutated


@given(packets())
def test_a_refused_packet_changes_nothing(case: tuple[Codec, bytes, Any]) -> None:
    codec, valid, _ = case
    hero = machine(Hero.Alive, jump=True)
    before = (hero.stack, hero.owner.log[:])
    try:
        codec.receive(hero, valid + b"\x01")
    except DecodeError:
        pass
    else:
        pytest.fail("a trailing byte must be refused")
    assert (hero.stack, hero.owner.log) == before
