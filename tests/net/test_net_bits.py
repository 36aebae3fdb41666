"""Bit-level writing and reading: exact bit strings, padding, and reads past the end."""

from __future__ import annotations

import array
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as hs
from net_samples import HERO, bits

from statetree.bitmask import BitmaskDefinition
from statetree.errors import UsageError
from statetree.net import BitmaskCodec, BitReader, BitWriter, Codec, PacketError, explain_packet
from statetree.net.messages import decode_message


def test_bits_are_written_most_significant_first_and_padded_with_zeros() -> None:
    writer = BitWriter()
    writer.write_uint(0b101, 3)
    writer.write_bool(True)
    writer.write_uint(0, 0)
    writer.write_uint(0x1FF, 9)
    assert str(writer) == "1011111111111"
    assert writer.size == 13
    assert bits(writer.to_bytes()) == "1011111111111000"


def test_floats_and_bytes_take_their_ieee_and_byte_layouts() -> None:
    writer = BitWriter()
    writer.write_bool(False)
    writer.write_float32(1.5)
    writer.write_float64(-2.0)
    writer.write_bytes(b"\x01\xff")
    reader = BitReader(writer.to_bytes())
    assert reader.read_bool() is False
    assert reader.read_float32() == 1.5
    assert reader.read_float64() == -2.0
    assert reader.read_bytes(2) == b"\x01\xff"
    assert reader.position == 1 + 32 + 64 + 16
    reader.finish()


def test_an_empty_writer_makes_no_bytes() -> None:
    assert BitWriter().to_bytes() == b""
    assert str(BitWriter()) == ""
    BitReader(b"").finish()


def test_writing_a_value_wider_than_its_field_is_a_usage_error() -> None:
    writer = BitWriter()
    with pytest.raises(UsageError, match=r"^8 does not fit in 3 unsigned bit\(s\)$"):
        writer.write_uint(8, 3)
    with pytest.raises(UsageError, match=r"^-1 does not fit"):
        writer.write_uint(-1, 8)
    assert writer.size == 0


def test_appending_another_writer_keeps_its_bits() -> None:
    first, second = BitWriter(), BitWriter()
    first.write_uint(1, 2)
    second.write_uint(0b110, 3)
    first.write_bits(second)
    assert str(first) == "01110"


def test_reading_past_the_end_names_the_bit_and_what_is_missing() -> None:
    reader = BitReader(b"\xf0")
    assert reader.read_uint(6) == 0b111100
    with pytest.raises(PacketError) as error:
        reader.read_uint(3)
    assert str(error.value) == (
        "bad packet at bit 6: 3 more bit(s) needed, but the packet ends 2 bit(s) further"
    )
    assert (error.value.bit, error.value.state, error.value.field) == (6, None, None)
    assert reader.position == 6


def test_finish_refuses_trailing_bytes_and_set_padding_bits() -> None:
    reader = BitReader(b"\x80\x00")
    reader.read_bool()
    with pytest.raises(PacketError, match=r"^bad packet at bit 1: 1 byte\(s\) of trailing data"):
        reader.finish()
    reader = BitReader(b"\x81")
    reader.read_uint(3)
    with pytest.raises(PacketError, match="bit 3: the padding bits of the last byte are not zero"):
        reader.finish()


@given(hs.lists(hs.tuples(hs.integers(0, 70), hs.integers(0, 2**70))))
def test_what_is_written_reads_back(values: list[tuple[int, int]]) -> None:
    writer = BitWriter()
    fitted = [(width, value % (1 << width)) for width, value in values]
    for width, value in fitted:
        writer.write_uint(value, width)
    reader = BitReader(writer.to_bytes())
    assert [reader.read_uint(width) for width, _ in fitted] == [v for _, v in fitted]
    reader.finish()


Step = tuple[str, int, int]
steps = hs.lists(
    hs.one_of(
        hs.tuples(hs.just("uint"), hs.integers(0, 90), hs.integers(0, 2**90)),
        hs.tuples(hs.just("bytes"), hs.integers(0, 12), hs.integers(0, 2**96)),
    ),
    max_size=60,
)


@given(steps, steps)
def test_a_long_stream_holds_exactly_the_bits_a_big_integer_would(
    first: list[Step], second: list[Step]
) -> None:
    # The writer moves whole bytes out as it fills (aligned bytes go out as they are); the
    # bits must be exactly those of shifting everything into one big integer.
    reference, size = 0, 0
    writers = []
    for chunk in (first, second):
        writer = BitWriter()
        for kind, count, drawn in chunk:
            width = count if kind == "uint" else 8 * count
            value = drawn % (1 << width)
            if kind == "uint":
                writer.write_uint(value, width)
            else:
                writer.write_bytes(value.to_bytes(count, "big"))
            reference, size = (reference << width) | value, size + width
        writers.append(writer)
    whole = writers[0]
    whole.write_bits(writers[1])
    assert (whole.size, whole.to_uint()) == (size, reference)
    assert str(whole) == (format(reference, f"0{size}b") if size else "")
    padding = -size % 8
    assert whole.to_bytes() == (reference << padding).to_bytes((size + padding) // 8, "big")


def test_numpy_integers_are_written_as_integers_and_other_values_are_refused() -> None:
    plain, numpy = BitWriter(), BitWriter()
    plain.write_uint(3, 10)
    numpy.write_uint(np.arange(4)[3], np.int64(10))  # type: ignore[arg-type]
    assert numpy.to_bytes() == plain.to_bytes()
    for value, width, message in (
        (1.5, 4, "a value written in bits is a whole number, got 1.5"),
        (1, -1, "1 does not fit in -1 unsigned bit(s)"),
    ):
        with pytest.raises(UsageError) as refused:
            BitWriter().write_uint(value, width)  # type: ignore[arg-type]
        assert str(refused.value) == message
    with pytest.raises(UsageError, match=r"^a width of bits is 0 or more, got -1$"):
        BitReader(b"\x00").read_uint(-1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: BitWriter().write_float32(1e300), "1e+300 cannot be written as a 32-bit float"),
        (lambda: BitWriter().write_float32("x"), "'x' cannot be written as a 32-bit float"),
        (lambda: BitWriter().write_float64(None), "None cannot be written as a 64-bit float"),
        (lambda: BitWriter().write_bytes("ab"), "write_bytes() writes bytes, got str"),
        (lambda: BitWriter().write_bits(b"a"), "write_bits() appends a BitWriter's bits, got b'a'"),
        (lambda: BitReader(b"ab").read_uint("3"), "a width of bits is a whole number, got '3'"),
        (lambda: BitReader(b"ab").read_uint(2.0), "a width of bits is a whole number, got 2.0"),
        (lambda: BitReader(b"ab").read_bytes(1.5), "a count of bytes is a whole number, got 1.5"),
        (lambda: BitReader(b"ab").read_bytes(-1), "a count of bytes is 0 or more, got -1"),
    ],
)
def test_wrong_values_for_the_bit_streams_are_refused_by_name(call: Any, message: str) -> None:
    with pytest.raises(UsageError) as refused:
        call()
    assert str(refused.value) == message


def test_bytes_like_values_are_written_and_read_as_bytes() -> None:
    writer = BitWriter()
    writer.write_bool(True)  # unaligned: written bit by bit
    writer.write_bytes(memoryview(b"ab"))
    writer.write_bytes(bytearray(b"c"))
    reader = BitReader(writer.to_bytes())
    assert reader.read_bool() and reader.read_bytes(np.int64(3)) == b"abc"  # type: ignore[arg-type]


@pytest.mark.parametrize("data", ["\x00", None, [0]])
def test_a_packet_is_bytes(data: object) -> None:
    with pytest.raises(UsageError) as refused:
        BitReader(data)  # type: ignore[arg-type]
    assert str(refused.value) == f"a packet is bytes, got {type(data).__name__}"
    codec = Codec.path(HERO)  # its decode reads well-formed packets without a reader
    with pytest.raises(UsageError) as refused:
        codec.decode(data)  # type: ignore[arg-type]
    assert str(refused.value) == f"a packet is bytes, got {type(data).__name__}"
    with pytest.raises(UsageError) as refused:
        decode_message(data)  # type: ignore[arg-type]
    assert str(refused.value) == f"a packet is bytes, got {type(data).__name__}"


@pytest.mark.parametrize("packet", [b"\x00\x40", b"\x00\x00", b"\x40\x00"], ids=bytes.hex)
def test_a_memoryview_of_wide_items_is_read_as_its_bytes(packet: bytes) -> None:
    # Two bytes seen as one 16-bit item: its length counts the item, its packet two bytes.
    wide = memoryview(array.array("H", packet))
    codec = Codec.leaf(HERO)
    with pytest.raises(PacketError) as as_bytes:
        codec.decode(packet)
    with pytest.raises(PacketError) as as_items:
        codec.decode(wide)
    assert str(as_items.value) == str(as_bytes.value)
    explained = BitmaskCodec(BitmaskDefinition.from_data({"A": {}}))
    with pytest.raises(UsageError, match=r"^explain_packet\(\) explains the packets of a state"):
        explain_packet(explained, packet)  # type: ignore[arg-type]
