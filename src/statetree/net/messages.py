"""The datagram format: a small framed message, checked whole before it is used.

Every datagram is ``magic (1 byte) | kind (1) | frame (4, big-endian) | length (2) |
payload (length bytes)``. An inputs message carries the inputs of consecutive frames ending
at ``frame`` (oldest first, all the same size, so each datagram repeats the inputs not yet
confirmed and a lost one costs nothing); a state message carries the authority's encoded
machine state for ``frame`` (one machine or a packed stream of many, after its length in two
bytes) and the owner's other data. A handshake message (hello from a
client; welcome or refusal from the server) carries the sender's wire-schema fingerprint
(8 bytes) and, for a refusal, the reason in UTF-8; its frame is 0.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Iterator
from dataclasses import dataclass

from statetree.errors import UsageError
from statetree.net.bits import require_packet
from statetree.net.errors import PacketError

__all__ = [
    "MAX_DATAGRAM",
    "MAX_STATE",
    "HandshakeMessage",
    "InputMessage",
    "Message",
    "MessageKind",
    "StateMessage",
    "decode_message",
    "encode_message",
]

MAGIC = 0x5E
MAX_DATAGRAM = 1200
"""The largest datagram sent or accepted, in bytes (it fits any path's MTU)."""
_HEADER = struct.Struct(">BBIH")
_STATE_LENGTH = struct.Struct(">H")
MAX_STATE = MAX_DATAGRAM - _HEADER.size - _STATE_LENGTH.size
"""The largest encoded state a state message carries, in bytes."""
_MAX_FRAME = (1 << 32) - 1


class MessageKind(enum.IntEnum):
    """What a datagram carries."""

    INPUTS = 1
    STATE = 2
    HELLO = 3
    """A client asks to join, with its wire-schema fingerprint."""
    WELCOME = 4
    """The server accepts the client, with its own fingerprint."""
    REFUSED = 5
    """The server refuses the client, with its own fingerprint and the reason."""


_HANDSHAKES = (MessageKind.HELLO, MessageKind.WELCOME, MessageKind.REFUSED)
_MAX_REASON = 200


@dataclass(frozen=True, slots=True)
class InputMessage:
    """A client's inputs for the frames ``last_frame - len(inputs) + 1`` to ``last_frame``.

    Raises:
        UsageError: no input, inputs of different sizes or of none or over 255 bytes, or
            frames below 1.
    """

    last_frame: int
    inputs: tuple[bytes, ...]

    def __post_init__(self) -> None:
        _check_frame(self.last_frame)
        if not isinstance(self.inputs, (tuple, list)) or not all(
            isinstance(data, (bytes, bytearray)) for data in self.inputs
        ):
            raise UsageError(
                f"inputs are a list of bytes, one per frame, got {self.inputs!r} (send_inputs("
                "frame, [data]) for one)"
            )
        sizes = {len(data) for data in self.inputs}
        if len(sizes) != 1 or not 0 < min(sizes) <= max(sizes) <= 255 or len(self.inputs) > 255:
            raise UsageError(
                "an input message needs 1 to 255 inputs of one size, 1 to 255 bytes each"
            )
        if self.last_frame - len(self.inputs) < 0:
            raise UsageError(f"inputs before frame 1 (the last is frame {self.last_frame})")

    def frames(self) -> Iterator[tuple[int, bytes]]:
        """``(frame, input)`` pairs, oldest first."""
        first = self.last_frame - len(self.inputs) + 1
        return zip(range(first, self.last_frame + 1), self.inputs, strict=True)


@dataclass(frozen=True, slots=True)
class StateMessage:
    """The authority's state for ``frame``: the encoded machine (or a packed stream of many:
    a snapshot) and the owner's data.

    Raises:
        UsageError: the encoded state is longer than MAX_STATE bytes.
    """

    frame: int
    state: bytes
    data: bytes = b""

    def __post_init__(self) -> None:
        _check_frame(self.frame)
        for name in ("state", "data"):
            if not isinstance(getattr(self, name), (bytes, bytearray)):
                raise UsageError(
                    f"a state message's {name} is bytes (codec.encode(machine)), got "
                    f"{type(getattr(self, name)).__name__}"
                )
        if len(self.state) > MAX_STATE:
            raise UsageError(f"an encoded state of {len(self.state)} bytes is over {MAX_STATE}")


@dataclass(frozen=True, slots=True)
class HandshakeMessage:
    """A step of the handshake: ``HELLO`` from a client, ``WELCOME`` or ``REFUSED`` from the
    server, each with the sender's wire-schema fingerprint (16 hex digits).

    Raises:
        UsageError: ``kind`` is not a handshake kind, the fingerprint is not 16 hex digits,
            or a reason is given to anything but a refusal (or is over 200 bytes).
    """

    kind: MessageKind
    fingerprint: str
    reason: str = ""

    def __post_init__(self) -> None:
        if self.kind not in _HANDSHAKES:
            raise UsageError(f"{self.kind!r} is not a handshake message kind")
        if (
            not isinstance(self.fingerprint, str)
            or len(self.fingerprint) != 16
            or not _is_hex(self.fingerprint)
        ):
            raise UsageError(f"a fingerprint is 16 hex digits, not {self.fingerprint!r}")
        if self.reason and self.kind is not MessageKind.REFUSED:
            raise UsageError("only a refusal gives a reason")
        if len(self.reason.encode("utf-8")) > _MAX_REASON:
            raise UsageError(f"a refusal's reason takes at most {_MAX_REASON} bytes")


def _is_hex(text: str) -> bool:
    return all(char in "0123456789abcdef" for char in text)


Message = InputMessage | StateMessage | HandshakeMessage
"""Any message a transport sends or receives."""


def encode_message(message: Message) -> bytes:
    """The datagram of ``message``.

    Raises:
        UsageError: the frame is out of 0..2**32-1 or the datagram is over MAX_DATAGRAM.
    """
    if isinstance(message, InputMessage):
        kind, frame = MessageKind.INPUTS, message.last_frame
        payload = bytes([len(message.inputs[0])]) + b"".join(message.inputs)
    elif isinstance(message, StateMessage):
        kind, frame = MessageKind.STATE, message.frame
        payload = _STATE_LENGTH.pack(len(message.state)) + message.state + message.data
    else:
        kind, frame = message.kind, 0
        payload = bytes.fromhex(message.fingerprint) + message.reason.encode("utf-8")
    if not 0 <= frame <= _MAX_FRAME:
        raise UsageError(f"frame {frame} is out of 0..{_MAX_FRAME}")
    datagram = _HEADER.pack(MAGIC, kind, frame, len(payload)) + payload
    if len(datagram) > MAX_DATAGRAM:
        raise UsageError(f"a datagram of {len(datagram)} bytes is over {MAX_DATAGRAM}")
    return datagram


def decode_message(data: bytes | bytearray | memoryview) -> Message:
    """The message a datagram holds.

    Raises:
        PacketError: the datagram is too short or too long, has the wrong magic byte, an
            unknown kind, a length that does not match, or a payload that does not parse.
        UsageError: ``data`` is not bytes.
    """
    data = bytes(require_packet(data))
    kind, frame = _header(data)
    payload = data[_HEADER.size :]
    if kind == MessageKind.INPUTS:
        return _inputs(frame, payload)
    if kind == MessageKind.STATE:
        return _state(frame, payload)
    if kind in _HANDSHAKES:
        return _handshake(MessageKind(kind), frame, payload)
    raise PacketError(f"unknown message kind {kind}", bit=8)


def _header(data: bytes) -> tuple[int, int]:
    """The kind and frame of a datagram, after checking its size, magic byte and length."""
    if not _HEADER.size <= len(data) <= MAX_DATAGRAM:
        raise PacketError(
            f"a datagram of {len(data)} bytes is outside {_HEADER.size}..{MAX_DATAGRAM}", bit=0
        )
    magic, kind, frame, length = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise PacketError(f"magic byte {magic:#04x} is not {MAGIC:#04x}", bit=0)
    if length != len(data) - _HEADER.size:
        raise PacketError(
            f"the header announces {length} payload bytes, the datagram has "
            f"{len(data) - _HEADER.size}",
            bit=48,
        )
    return kind, frame


def _inputs(frame: int, payload: bytes) -> InputMessage:
    size = payload[0] if payload else 0
    body = payload[1:]
    count = len(body) // size if size else 0
    if not size or not body or len(body) % size or count > 255 or count > frame:
        raise PacketError(
            f"an inputs payload of {len(payload)} bytes with input size {size} for frame "
            f"{frame} does not hold whole inputs for frames 1 and up",
            bit=64,
        )
    return InputMessage(frame, tuple(body[i : i + size] for i in range(0, len(body), size)))


def _state(frame: int, payload: bytes) -> StateMessage:
    length = _STATE_LENGTH.size
    size = _STATE_LENGTH.unpack_from(payload)[0] if len(payload) >= length else -1
    if size < 0 or len(payload) < length + size:
        raise PacketError(
            f"a state payload of {len(payload)} bytes cannot hold the state it announces",
            bit=64,
        )
    return StateMessage(frame, payload[length : length + size], payload[length + size :])


def _handshake(kind: MessageKind, frame: int, payload: bytes) -> HandshakeMessage:
    fingerprint, reason = payload[:8], payload[8:]
    if frame or len(fingerprint) != 8 or len(reason) > _MAX_REASON:
        raise PacketError(
            f"a {kind.name.lower()} message is frame 0 and 8 fingerprint bytes"
            f"{' then a reason' if kind is MessageKind.REFUSED else ''}",
            bit=16,
        )
    if reason and kind is not MessageKind.REFUSED:
        raise PacketError(f"a {kind.name.lower()} message gives no reason", bit=128)
    try:
        text = reason.decode("utf-8")
    except UnicodeDecodeError:
        raise PacketError("the reason of a refusal is not UTF-8", bit=128) from None
    return HandshakeMessage(kind, fingerprint.hex(), text)


def _check_frame(frame: object) -> None:
    if isinstance(frame, bool) or not isinstance(frame, int) or frame < 0:
        raise UsageError(f"a frame is a whole number of at least 0, got {frame!r}")
