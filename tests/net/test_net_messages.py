"""The datagram format: exact bytes, and every malformed datagram refused with its reason."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from statetree.errors import DecodeError, UsageError
from statetree.net import (
    MAX_DATAGRAM,
    MAX_STATE,
    HandshakeMessage,
    InputMessage,
    MessageKind,
    PacketError,
    StateMessage,
    decode_message,
    encode_message,
)


def test_an_inputs_datagram_holds_consecutive_inputs_ending_at_its_frame() -> None:
    message = InputMessage(5, (b"\x01", b"\x02"))
    data = encode_message(message)
    assert data.hex(" ") == "5e 01 00 00 00 05 00 03 01 01 02"
    assert decode_message(data) == message
    assert list(message.frames()) == [(4, b"\x01"), (5, b"\x02")]


def test_a_state_datagram_holds_the_encoded_machine_then_the_owner_data() -> None:
    message = StateMessage(7, b"\x40", b"ab")
    data = encode_message(message)
    assert data.hex(" ") == "5e 02 00 00 00 07 00 05 00 01 40 61 62"
    assert decode_message(data) == message
    assert decode_message(encode_message(StateMessage(0, b""))) == StateMessage(0, b"", b"")


def test_a_handshake_datagram_holds_the_fingerprint_then_a_refusals_reason() -> None:
    hello = HandshakeMessage(MessageKind.HELLO, "0123456789abcdef")
    assert encode_message(hello).hex(" ") == "5e 03 00 00 00 00 00 08 01 23 45 67 89 ab cd ef"
    refused = HandshakeMessage(MessageKind.REFUSED, "fedcba9876543210", "full")
    data = encode_message(refused)
    assert data.hex(" ") == "5e 05 00 00 00 00 00 0c fe dc ba 98 76 54 32 10 66 75 6c 6c"
    for message in (hello, refused, HandshakeMessage(MessageKind.WELCOME, "00" * 8)):
        assert decode_message(encode_message(message)) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            "5e 03 00 00 00 00 00 07 01 23 45 67 89 ab cd",
            "bit 16: a hello message is frame 0 and 8 fingerprint bytes",
        ),
        (
            "5e 04 00 00 00 01 00 08 01 23 45 67 89 ab cd ef",
            "bit 16: a welcome message is frame 0 and 8 fingerprint bytes",
        ),
        (
            "5e 04 00 00 00 00 00 09 01 23 45 67 89 ab cd ef 21",
            "bit 128: a welcome message gives no reason",
        ),
        (
            "5e 05 00 00 00 00 00 09 01 23 45 67 89 ab cd ef ff",
            "bit 128: the reason of a refusal is not UTF-8",
        ),
        ("5e 01 00", "bit 0: a datagram of 3 bytes is outside 8..1200"),
        ("00 01 00 00 00 01 00 02 01 01", "bit 0: magic byte 0x00 is not 0x5e"),
        (
            "5e 01 00 00 00 01 00 03 01 01",
            "bit 48: the header announces 3 payload bytes, the datagram has 2",
        ),
        ("5e 09 00 00 00 01 00 00", "bit 8: unknown message kind 9"),
        (
            "5e 01 00 00 00 01 00 04 02 01 02 03",
            "bit 64: an inputs payload of 4 bytes with input "
            "size 2 for frame 1 does not hold whole inputs for frames 1 and up",
        ),
        (
            "5e 01 00 00 00 01 00 03 01 01 02",
            "bit 64: an inputs payload of 3 bytes with input "
            "size 1 for frame 1 does not hold whole inputs for frames 1 and up",
        ),
        ("5e 01 00 00 00 01 00 01 01", "bit 64: an inputs payload of 1 bytes"),
        (
            "5e 02 00 00 00 01 00 03 00 05 01",
            "bit 64: a state payload of 3 bytes cannot hold the state it announces",
        ),
        ("5e 02 00 00 00 01 00 01 00", "bit 64: a state payload of 1 bytes cannot hold"),
        ("5e 02 00 00 00 01 00 00", "bit 64: a state payload of 0 bytes cannot hold"),
    ],
)
def test_malformed_datagrams_are_refused_with_their_reason(data: str, message: str) -> None:
    with pytest.raises(PacketError) as error:
        decode_message(bytes.fromhex(data))
    assert str(error.value).startswith(f"bad packet at {message}")


def test_oversized_datagrams_are_refused_both_ways() -> None:
    with pytest.raises(PacketError, match=r"a datagram of 1201 bytes is outside 8..1200"):
        decode_message(bytes(MAX_DATAGRAM + 1))
    with pytest.raises(UsageError, match=r"^a datagram of 1210 bytes is over 1200$"):
        encode_message(StateMessage(1, b"", bytes(1200)))
    snapshot = StateMessage(1, bytes(MAX_STATE))  # a packed snapshot fills a whole datagram
    assert len(encode_message(snapshot)) == MAX_DATAGRAM
    assert decode_message(encode_message(snapshot)) == snapshot


def test_messages_that_cannot_be_sent_are_usage_errors() -> None:
    with pytest.raises(UsageError, match=r"^frame 4294967296 is out of 0..4294967295$"):
        encode_message(StateMessage(1 << 32, b""))
    with pytest.raises(UsageError, match=r"^an encoded state of 1191 bytes is over 1190$"):
        StateMessage(1, bytes(1191))
    with pytest.raises(UsageError, match=r"^an input message needs 1 to 255 inputs of one"):
        InputMessage(3, (b"\x01", b"\x01\x02"))
    with pytest.raises(UsageError, match=r"^an input message needs"):
        InputMessage(3, ())
    with pytest.raises(UsageError, match=r"^inputs before frame 1 \(the last is frame 1\)$"):
        InputMessage(1, (b"\x01", b"\x02"))
    with pytest.raises(UsageError, match=r"^a fingerprint is 16 hex digits, not 'ABC'$"):
        HandshakeMessage(MessageKind.HELLO, "ABC")
    with pytest.raises(UsageError, match=r"^only a refusal gives a reason$"):
        HandshakeMessage(MessageKind.WELCOME, "0" * 16, "why")
    with pytest.raises(UsageError, match=r"^<MessageKind.STATE: 2> is not a handshake"):
        HandshakeMessage(MessageKind.STATE, "0" * 16)


@given(hs.binary(max_size=40))
def test_random_datagrams_are_refused_or_read_back_exactly(data: bytes) -> None:
    try:
        message = decode_message(data)
    except DecodeError:
        return
    assert encode_message(message) == data


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: StateMessage(1, "state"), "a state message's state is bytes"),
        (lambda: StateMessage(1.5, b""), "a frame is a whole number of at least 0, got 1.5"),
        (lambda: StateMessage(-1, b""), "a frame is a whole number of at least 0, got -1"),
        (lambda: InputMessage(1, b"\x01"), "inputs are a list of bytes, one per frame"),
        (lambda: InputMessage(1, ("a",)), "inputs are a list of bytes, one per frame"),
    ],
)
def test_messages_of_the_wrong_types_are_refused_when_made(
    make: Callable[[], object], message: str
) -> None:
    with pytest.raises(UsageError) as refused:
        make()
    assert str(refused.value).startswith(message)
