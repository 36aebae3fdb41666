"""Payload fields: their bit layouts, the values they refuse to send, the ranges they check
on decoding, and definitions that can never work."""

from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np
import pytest
from net_samples import Direction

from statetree.errors import DefinitionError
from statetree.net import (
    BitReader,
    BitWriter,
    Bool,
    Bytes,
    Enum,
    Field,
    Float32,
    Float64,
    Int,
    PacketError,
    UInt,
)


def written(field: Field[Any], value: Any) -> str:
    writer = BitWriter()
    field.write(writer, value)
    return str(writer)


def read(field: Field[Any], bit_string: str) -> Any:
    writer = BitWriter()
    if bit_string:
        writer.write_uint(int(bit_string, 2), len(bit_string))
    reader = BitReader(writer.to_bytes())
    value = field.read(reader)
    assert reader.position == len(bit_string)
    return value


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        (UInt(4), 9, "1001"),
        (Int(-3, 4), -3, "000"),
        (Int(-3, 4), 4, "111"),
        (Int(7, 7), 7, ""),
        (Bool(), True, "1"),
        (Enum(Direction), Direction.RIGHT, "1"),
        (Bytes(3), b"\x05", "01" + "00000101"),
        (Float32(), 1.0, "00111111100000000000000000000000"),
    ],
)
def test_fields_take_the_fewest_bits_their_range_needs(
    field: Field[Any], value: Any, expected: str
) -> None:
    assert written(field, value) == expected
    assert read(field, expected) == value


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        (UInt(4), 16, "16 is out of the range 0..15"),
        (UInt(4), True, "True is not an int"),
        (Int(1, 5), 0, "0 is out of the range 1..5"),
        (Bool(), 1, "1 is not a bool"),
        (Enum(Direction), -1, "-1 is not a member of Direction"),
        (Bytes(2), b"abc", "3 bytes is more than the maximum 2"),
        (Bytes(2), "ab", "'ab' is not bytes"),
        (Float32(), math.nan, "nan is not a finite number"),
        (Float32(), 1e39, "1e+39 is too large for a Float32"),
        (Float64(0.0, 1.0), 1.5, "1.5 is out of the range 0.0..1.0"),
        (Float64(), "1", "'1' is not a float"),
    ],
)
def test_fields_say_why_they_cannot_send_a_value(
    field: Field[Any], value: Any, problem: str
) -> None:
    assert field.problem(value) == problem


def test_a_valid_value_has_no_problem_and_float32_rounds_canonically() -> None:
    assert UInt(4).problem(15) is None
    assert Float32().problem(0.1) is None
    assert Float32().canonical(0.1) == 0.10000000149011612
    assert Float64().canonical(0.1) == 0.1


@pytest.mark.parametrize(("minimum", "maximum"), [(0.0, 0.1), (-0.1, 0.0), (-1e-40, 3.3)])
def test_a_float32_sends_and_receives_its_own_bounds(minimum: float, maximum: float) -> None:
    field = Float32(minimum, maximum)
    for bound in (minimum, maximum):
        assert field.problem(bound) is None
        bits = written(field, bound)
        assert read(field, bits) == field.canonical(bound)
    beyond = float(np.nextafter(np.float32(maximum), np.float32(np.inf)))  # the next Float32
    assert field.problem(beyond) == f"{beyond!r} is out of the range {minimum!r}..{maximum!r}"
    assert Float32(0.0, 1e300).problem(3e38) is None  # a bound past the format's largest


@pytest.mark.parametrize(
    ("field", "bit_string", "message"),
    [
        (Int(0, 5), "110", "bad packet at bit 0: 6 is above the maximum 5"),
        (Enum(Direction), "", "bad packet at bit 0: 1 more bit(s) needed"),
        (Bytes(2), "11", "bad packet at bit 0: length 3 is more than the maximum 2"),
        (Float32(), "01111111110000000000000000000000", "bad packet at bit 0: nan is not a finite"),
        (
            Float32(-1.0, 1.0),
            "01000000000000000000000000000000",
            "bad packet at bit 0: 2.0 is out of the range -1.0..1.0",
        ),
    ],
)
def test_decoding_checks_ranges(field: Field[Any], bit_string: str, message: str) -> None:
    with pytest.raises(PacketError) as error:
        read(field, bit_string)
    assert str(error.value).startswith(message)


def test_an_enum_index_beyond_the_members_is_refused() -> None:
    class Three(enum.Enum):
        A = 1
        B = 2
        C = 3

    assert written(Enum(Three), Three.C) == "10"
    with pytest.raises(PacketError, match=r"index 3 is not a member of .*Three \(3 members\)"):
        read(Enum(Three), "11")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: UInt(0), "UInt needs a positive number of bits, got 0"),
        (lambda: Int(5, 1), "Int needs integer bounds with minimum <= maximum, got 5..1"),
        (lambda: Bytes(0), "Bytes needs a positive max_length, got 0"),
        (lambda: Enum(int), "Enum needs an enum class, got <class 'int'>"),
        (lambda: Float32(1.0, 0.0), "Float32 needs minimum <= maximum, got 1.0..0.0"),
        (lambda: Float32("a", "b"), "Float32 needs numbers as its minimum and maximum, got 'a'"),
        (lambda: Float64(None, 1), "Float64 needs numbers as its minimum and maximum, got None"),
        (lambda: Float64(0, math.nan), "Float64 needs numbers as its minimum and maximum, got nan"),
        (lambda: Float64(True, 2), "Float64 needs numbers as its minimum and maximum, got True"),
    ],
)
def test_impossible_fields_are_definition_errors(make: Any, message: str) -> None:
    with pytest.raises(
        DefinitionError, match=f"^{message}$".replace("(", r"\(").replace(")", r"\)")
    ):
        make()


def test_an_enum_without_members_is_refused() -> None:
    class Empty(enum.Enum):
        pass

    with pytest.raises(DefinitionError, match=r"Enum\(.*Empty\) has no members"):
        Enum(Empty)
