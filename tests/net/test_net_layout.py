"""Packets explained field by field: exact fields, bits and meanings for both headers, the
digits of the path header checked against the decoder, and bad packets refused as decoding
refuses them."""

from __future__ import annotations

import enum

import pytest
from net_samples import BODY, HERO, REUSE, Body, Direction, Hero, Logged, bits, chain

import statetree as st
from statetree import net
from statetree.net import (
    ActiveState,
    Codec,
    Configuration,
    HeaderDigit,
    LayoutField,
    PacketError,
    explain_packet,
)
from statetree.net.path_codec import PathHeader, digits
from statetree.structure import Structure, derive

MOVE_RIGHT = chain(Hero.Alive, Hero.Locomotion, (Hero.Move, Direction.RIGHT))
JUMP = chain(Hero.Alive, (Hero.Jump, 300))
DEAD = chain((Hero.Dead, 25))
PADDING = "zero bits up to a whole byte"


def test_path_header_move_right_digit_by_digit() -> None:
    codec = Codec.path(HERO)

    layout = explain_packet(codec, b"\x90")

    assert layout.data == b"\x90"
    assert layout.configuration == MOVE_RIGHT
    assert layout.fields == (
        LayoutField(
            "header",
            "path header",
            0,
            3,
            "100",
            4,
            "Alive 0 + Locomotion 0*2 + Move 1*4 = 4",
            digits=(
                HeaderDigit("top", "Alive", 0, 2, 1),
                HeaderDigit("Alive", "Locomotion", 0, 2, 2),
                HeaderDigit("Locomotion", "Move", 1, 2, 4),
            ),
        ),
        LayoutField(
            "payload",
            "Move.direction",
            3,
            1,
            "1",
            Direction.RIGHT,
            "Direction.RIGHT",
            "Alive/Locomotion/Move",
            "Enum(Direction)",
        ),
        LayoutField("padding", "padding", 4, 4, "0000", 0, PADDING),
    )
    assert layout.header is layout.fields[0]
    assert str(layout.header.digits[2]) == "Locomotion: Move (1 of 2, x4)"


def test_leaf_header_names_the_path_of_its_leaf() -> None:
    codec = Codec.leaf(HERO)

    layout = explain_packet(codec, codec.encode_configuration(JUMP))

    assert layout.fields == (
        LayoutField("header", "leaf index", 0, 2, "10", 2, "leaf 2 of 4: Alive/Jump"),
        LayoutField(
            "payload",
            "Jump.started",
            2,
            16,
            "0000000100101100",
            300,
            "300",
            "Alive/Jump",
            "UInt(16)",
        ),
        LayoutField("padding", "padding", 18, 6, "000000", 0, PADDING),
    )


def test_a_layout_prints_as_a_table() -> None:
    codec = Codec.leaf(HERO)

    layout = explain_packet(codec, codec.encode_configuration(MOVE_RIGHT))

    assert str(layout) == (
        "bits  raw    field                            meaning\n"
        "0-1   01     leaf index                       leaf 1 of 4: Alive/Locomotion/Move\n"
        "2     1      Move.direction: Enum(Direction)  Direction.RIGHT\n"
        "3-7   00000  padding                          zero bits up to a whole byte"
    )


@pytest.mark.parametrize("codec", [Codec.path(HERO), Codec.leaf(HERO)], ids=["path", "leaf"])
@pytest.mark.parametrize("configuration", [MOVE_RIGHT, JUMP, DEAD], ids=str)
def test_the_fields_cover_the_packet_in_order(codec: Codec, configuration: Configuration) -> None:
    data = codec.encode_configuration(configuration)

    layout = explain_packet(codec, data)

    assert "".join(field.bits for field in layout.fields) == bits(data)
    ends = [0] + [field.start + field.width for field in layout.fields]
    assert [field.start for field in layout.fields] == ends[:-1]
    assert ends[-1] == 8 * len(data)
    assert layout.header.value == codec.header_of(configuration)


def test_payloads_of_regions_follow_their_host() -> None:
    codec = Codec.path(BODY)
    upper = ActiveState(Body.Upper, (), ActiveState(Body.Aim, (7,)))
    lower = ActiveState(Body.Lower, (), ActiveState(Body.Run))
    configuration = Configuration(ActiveState(Body.Alive, (), None, (upper, lower)))

    layout = explain_packet(codec, codec.encode_configuration(configuration))

    assert [(f.kind, f.bits, f.meaning, f.state) for f in layout.fields] == [
        ("header", "00000", "Alive 0 + Aim 0*2 + Run 0*6 = 0", ""),
        ("payload", "00000111", "7", "Alive/Upper/Aim"),
        ("padding", "000", PADDING, ""),
    ]
    assert layout.header.digits == (
        HeaderDigit("top", "Alive", 0, 2, 1),
        HeaderDigit("Upper", "Aim", 0, 3, 2),
        HeaderDigit("Lower", "Run", 0, 3, 6),
    )


@pytest.mark.parametrize("structure", [HERO, REUSE, BODY], ids=["hero", "reuse", "body"])
def test_the_digits_add_up_to_every_header_the_decoder_accepts(structure: Structure) -> None:
    header = PathHeader(Codec.path(structure).tree)
    accepted = 0
    for value in range(header.largest + 1):
        try:
            pick = header.pick(value)
        except PacketError:
            continue
        accepted += 1
        found = digits(header.top, pick)
        assert sum(digit.index * digit.weight for digit in found) == value
        assert all(0 <= digit.index < digit.radix for digit in found)
    assert accepted == Codec.path(structure).configurations


def test_a_truncated_packet_is_refused_as_decoding_refuses_it() -> None:
    codec = Codec.leaf(HERO)
    message = (
        "bad packet at bit 2, state Alive/Jump, field Jump.started: 16 more bit(s) needed, "
        "but the packet ends 14 bit(s) further"
    )

    with pytest.raises(PacketError) as caught:
        explain_packet(codec, b"\x80\x00")

    assert str(caught.value) == message
    with pytest.raises(PacketError, match="padding bits of the last byte are not zero"):
        explain_packet(codec, bytearray(b"\x01"))


class Mode(enum.Enum):
    CALM = 0
    ALERT = 1
    ANGRY = 2


class Wide:
    """A field of every kind in two states, one inside the other: a single configuration,
    so a header of no bits."""

    class Sentry(Logged):
        net_fields = (net.Bool(), net.Int(-3, 3), net.Float32(0.0, 1.0))

        def on_enter(self, armed: bool, turn: int, alert: float) -> None:
            self.values = (armed, turn, alert)

        def net_payload(self) -> tuple[bool, int, float]:
            return self.values

        def transition(self) -> st.Transition | None:
            return st.inner_entry(Wide.Watch, 0.0, b"", Mode.CALM)

    class Watch(Logged):
        net_fields = (net.Float64(), net.Bytes(4), net.Enum(Mode))

        def on_enter(self, x: float, tag: bytes, mode: Mode) -> None:
            self.values = (x, tag, mode)

        def net_payload(self) -> tuple[float, bytes, Mode]:
            return self.values


def test_every_field_type_is_shown_as_constructed() -> None:
    codec = Codec.path(derive(Wide.Sentry))
    watch = ActiveState(Wide.Watch, (2.25, b"ok", Mode.ANGRY))
    data = codec.encode_configuration(
        Configuration(ActiveState(Wide.Sentry, (True, -1, 0.5), watch))
    )

    layout = explain_packet(codec, memoryview(data))

    assert layout.header == LayoutField(
        "header", "path header", 0, 0, "", 0, "a single configuration"
    )
    assert layout.header.span == "-"
    assert [(f.label, f.span, f.meaning, f.state) for f in layout.fields[1:]] == [
        ("Sentry.armed: Bool()", "0", "True", "Sentry"),
        ("Sentry.turn: Int(-3, 3)", "1-3", "-1", "Sentry"),
        ("Sentry.alert: Float32(0.0, 1.0)", "4-35", "0.5", "Sentry"),
        ("Watch.x: Float64()", "36-99", "2.25", "Sentry/Watch"),
        ("Watch.tag: Bytes(4)", "100-118", "b'ok'", "Sentry/Watch"),
        ("Watch.mode: Enum(Mode)", "119-120", "Mode.ANGRY", "Sentry/Watch"),
        ("padding", "121-127", PADDING, ""),
    ]
    assert layout.fields[1].type == "Bool()"
