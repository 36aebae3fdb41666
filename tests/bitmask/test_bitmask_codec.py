"""Replication: minimal bytes, strict decoding that changes nothing on bad input."""

from __future__ import annotations

import array
import reprlib

import numpy as np
import pytest
from bitmask_strategies import recorded

from statetree.bitmask import (
    BitCause,
    BitmaskDefinition,
    BitmaskMachine,
    decode_mask,
    encode_mask,
    mask_problem,
)
from statetree.errors import DecodeError, UsageError
from statetree.net import BitmaskCodec, BitWriter

DATA = [
    {"name": "Alive"},
    {"name": "Moving", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
    {"name": "Aiming", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
    {"name": "Shooting", "requires": ["Alive", "Aiming"], "blocked_by": ["InDialogue"]},
    {"name": "InDialogue", "requires": ["Alive"], "terminates": ["Moving", "Aiming"]},
]
RULES = recorded(DATA)
NAMED = BitmaskDefinition.from_data(DATA, name="Player")


def test_encoding_uses_the_minimal_number_of_bytes() -> None:
    assert encode_mask(RULES, 0b01101) == b"\x0d"
    wide = BitmaskDefinition.from_data({f"S{i}": {} for i in range(130)})
    mask = 1 << 129 | 1 << 64 | 1
    data = encode_mask(wide, mask)
    assert len(data) == 17
    assert decode_mask(wide, data) == mask


def test_encoding_a_mask_that_does_not_fit_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=r"^mask 0x20 does not fit the 5 states of bitmask$"):
        encode_mask(RULES, 1 << 5)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "bitmask 'Player': expected 1 byte(s) for 5 states, got 0"),
        (b"\x01\x00", "bitmask 'Player': expected 1 byte(s) for 5 states, got 2"),
        (b"\x41", "bitmask 'Player': bit 6 is set but only 5 states are defined (bits 0-4)"),
        (
            b"\x08",
            "bitmask 'Player': Shooting is active but requires Alive and Aiming, "
            "which are not active",
        ),
        (
            b"\x13",
            "bitmask 'Player': Moving and InDialogue cannot be active together: "
            "Moving is blocked by InDialogue, and activating InDialogue terminates Moving",
        ),
        (
            b"\x1d",
            "bitmask 'Player': Aiming and InDialogue cannot be active together: "
            "Aiming is blocked by InDialogue, and activating InDialogue terminates Aiming",
        ),
    ],
)
def test_bad_input_is_refused_with_a_precise_message(data: bytes, message: str) -> None:
    with pytest.raises(DecodeError) as caught:
        decode_mask(NAMED, data)
    assert str(caught.value) == message
    # The same bytes seen as 16-bit items: the length counts bytes, not items.
    if len(data) % 2 == 0 and data:
        with pytest.raises(DecodeError) as caught:
            decode_mask(NAMED, memoryview(array.array("H", data)))
        assert str(caught.value) == message


def test_an_indirectly_exclusive_pair_names_the_states_it_needs() -> None:
    rules = BitmaskDefinition.from_data(
        {"B": {"requires": ["A"]}, "A": {"blocked_by": ["C"]}, "C": {"terminates": ["A"]}}
    )
    assert rules.exclusive == (0b100, 0b100, 0b011)
    assert mask_problem(rules, 0b111) == (
        "B and C cannot be active together (they need A and C): A is blocked by C, "
        "and activating C terminates A"
    )
    assert mask_problem(rules, 0b011) is None


def test_a_bad_packet_leaves_the_machine_exactly_as_it_was() -> None:
    log: list = []
    machine = BitmaskMachine(RULES, log)
    machine.try_activate("Alive")
    machine.try_activate("Aiming")
    before = (machine.mask, machine.history, list(log))
    for bad in (b"\x13", b"\xff", b"\x00\x00"):
        with pytest.raises(DecodeError):
            machine.apply_encoded(bad)
    with pytest.raises(DecodeError):
        machine.apply_mask(-1)
    with pytest.raises(DecodeError, match=r"^bitmask( '.*')?: a mask is an integer, got '3'$"):
        machine.apply_mask("3")  # type: ignore[arg-type]
    with pytest.raises(DecodeError, match=r"^bitmask( '.*')?: a mask is an integer, got True$"):
        machine.apply_mask(True)
    with pytest.raises(DecodeError, match=r"^bitmask( '.*')?: expected bytes, got str$"):
        machine.apply_encoded("\x01")  # type: ignore[arg-type]
    assert (machine.mask, machine.history, log) == before
    machine.apply_mask(np.int64(1))  # NumPy's integers are integers
    assert machine.active_states == ("Alive",)


def test_a_machine_needs_a_definition() -> None:
    with pytest.raises(UsageError) as caught:
        BitmaskMachine(DATA, None)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "a BitmaskMachine needs a BitmaskDefinition (BitmaskDefinition.from_classes or "
        f"from_data), got {reprlib.repr(DATA)} (list)"
    )


def test_applying_a_mask_runs_hooks_with_the_network_cause_in_a_safe_order() -> None:
    log: list = []
    machine = BitmaskMachine(RULES, log)
    machine.apply_encoded(bytes([0b01101]))
    machine.apply_encoded(bytes([0b10001]))
    assert [(sign, name, cause) for sign, name, cause, _ in log] == [
        ("+", "Alive", BitCause.NETWORK),
        ("+", "Aiming", BitCause.NETWORK),
        ("+", "Shooting", BitCause.NETWORK),
        ("-", "Shooting", BitCause.NETWORK),
        ("-", "Aiming", BitCause.NETWORK),
        ("+", "InDialogue", BitCause.NETWORK),
    ]
    assert [str(c) for c in machine.history][-1] == "#6 +InDialogue (from the network)"


def test_round_trip_between_two_machines() -> None:
    server = BitmaskMachine(RULES, [])
    client = BitmaskMachine(RULES, [])
    for state in ("Alive", "Moving", "Aiming", "Shooting"):
        server.try_activate(state)
        client.apply_encoded(server.encode())
        assert client.mask == server.mask


@pytest.mark.parametrize(
    "definition",
    [NAMED, BitmaskDefinition.from_data({f"S{i}": {} for i in range(17)})],
    ids=["ranked", "a bit per state"],
)
def test_the_net_codec_writes_no_boolean_as_a_mask(definition: BitmaskDefinition) -> None:
    codec = BitmaskCodec(definition)
    writer = BitWriter()
    for flag in (True, False):
        with pytest.raises(UsageError) as caught:
            codec.write_value(writer, flag)
        assert str(caught.value) == f"a mask is a whole number, got {flag!r}"
    assert writer.to_bytes() == b""
    codec.write_value(writer, np.int64(1))  # NumPy's integers are masks
    assert codec.decode(writer.to_bytes()) == 1


@pytest.mark.parametrize("mask", ["3", 1.0, None, True])
def test_encode_mask_refuses_what_is_no_integer(mask: object) -> None:
    with pytest.raises(UsageError, match=r"a mask is an integer, got "):
        encode_mask(NAMED, mask)  # type: ignore[arg-type]


def test_mask_of_refuses_one_state_where_a_list_is_needed() -> None:
    with pytest.raises(UsageError) as raised:
        NAMED.mask_of("Alive")
    assert str(raised.value) == (
        "mask_of() takes a list of states, got the one state 'Alive': write mask_of(['Alive'])"
    )
    assert NAMED.mask_of(["Alive"]) == 1
