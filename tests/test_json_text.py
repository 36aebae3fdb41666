"""JSON from outside: one parser, whose refusals say what is wrong with the text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from statetree.chart import MachineSnapshot
from statetree.chart.machine_snapshot import MAGIC
from statetree.errors import DecodeError
from statetree.inspect import ProtocolError, parse_message
from statetree.json_text import MAX_DIGITS, parse_json


@given(
    hs.recursive(
        hs.none() | hs.booleans() | hs.integers() | hs.text(),
        lambda inner: hs.lists(inner) | hs.dictionaries(hs.text(), inner),
        max_leaves=20,
    )
)
def test_what_json_writes_reads_back_the_same(value: object) -> None:
    assert parse_json(json.dumps(value)) == value


def test_an_integer_of_the_most_digits_is_read() -> None:
    assert parse_json("-" + "9" * MAX_DIGITS) == -int("9" * MAX_DIGITS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1" * (MAX_DIGITS + 1), f"an integer of 1,001 characters (at most {MAX_DIGITS} digits)"),
        ('{"a": [-' + "7" * 5000 + "]}", "an integer of 5,001 characters"),
        ("[" * 100_000 + "]" * 100_000, "it nests too deeply"),
    ],
)
def test_hostile_text_is_refused_saying_why(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_json(text)
    assert str(caught.value).startswith(message)
    assert "sys." not in str(caught.value)


def test_the_inspector_refuses_a_message_with_a_huge_integer() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_message('{"command": "step", "machine": "m", "count": 1' + "0" * 5000 + "}")
    assert str(caught.value) == (
        f"message is not JSON: an integer of 5,001 characters (at most {MAX_DIGITS} digits)"
    )


def test_a_machine_snapshot_with_a_huge_integer_is_a_decode_error() -> None:
    with pytest.raises(DecodeError) as caught:
        MachineSnapshot.from_bytes(MAGIC + b'{"clock": 1' + b"0" * 5000 + b"}")
    assert str(caught.value) == (
        "a chart machine snapshot is JSON; this is not: an integer of 5,001 characters "
        f"(at most {MAX_DIGITS} digits)"
    )
