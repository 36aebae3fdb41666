"""Networked machines: compact packets of a machine's configuration, rollback, UDP transport.

A :class:`Codec` built from a machine's ``Structure`` encodes the active configuration in a
few bits (the path or leaf-index header) followed by the payloads of stateful states, and
decodes packets into an immutable :class:`Configuration` before anything changes, so a bad
packet raises :class:`PacketError` (a ``DecodeError``) and leaves the machine as it was.
Every codec has a ``fingerprint`` of its wire schema. :func:`pack` and :func:`unpack` put
many machines in one packet with no rounding between them. :class:`Rollback` predicts a
client's machine ahead of the authority and re-simulates from confirmed states;
:class:`StateServer` and :class:`StateClient` shake hands (refusing another wire schema),
then carry inputs and states over UDP, through an optional :class:`LinkConditioner`.
:class:`BitmaskCodec` gives bitmask machines the same interface (:class:`MachineCodec`).
"""

from __future__ import annotations

from statetree.net.bitmask import BitmaskCodec
from statetree.net.bits import BitReader, BitWriter
from statetree.net.client import StateClient
from statetree.net.codec import Codec, HeaderMode
from statetree.net.conditioner import LinkConditioner, LinkProfile, LinkStats
from statetree.net.configuration import ActiveState, Configuration
from statetree.net.errors import HandshakeError, PacketError
from statetree.net.fields import Bool, Bytes, Enum, Field, Float32, Float64, Int, UInt
from statetree.net.interface import MachineCodec
from statetree.net.layout import HeaderDigit, LayoutField, PacketLayout, explain_packet
from statetree.net.messages import (
    MAX_DATAGRAM,
    MAX_STATE,
    HandshakeMessage,
    InputMessage,
    Message,
    MessageKind,
    StateMessage,
    decode_message,
    encode_message,
)
from statetree.net.ordering import InputQueue
from statetree.net.payload import Stateful
from statetree.net.rollback import Outcome, Rollback, RollbackStats
from statetree.net.schema import schema_diff, schema_text
from statetree.net.server import StateServer
from statetree.net.stream import (
    pack,
    pack_values,
    read_stamp,
    stream_fingerprint,
    unpack,
    write_stamp,
)
from statetree.net.transport import LOOPBACK, Address, Endpoint, EndpointStats, open_endpoint

__all__ = [
    "LOOPBACK",
    "MAX_DATAGRAM",
    "MAX_STATE",
    "ActiveState",
    "Address",
    "BitReader",
    "BitWriter",
    "BitmaskCodec",
    "Bool",
    "Bytes",
    "Codec",
    "Configuration",
    "Endpoint",
    "EndpointStats",
    "Enum",
    "Field",
    "Float32",
    "Float64",
    "HandshakeError",
    "HandshakeMessage",
    "HeaderDigit",
    "HeaderMode",
    "InputMessage",
    "InputQueue",
    "Int",
    "LayoutField",
    "LinkConditioner",
    "LinkProfile",
    "LinkStats",
    "MachineCodec",
    "Message",
    "MessageKind",
    "Outcome",
    "PacketError",
    "PacketLayout",
    "Rollback",
    "RollbackStats",
    "StateClient",
    "StateMessage",
    "StateServer",
    "Stateful",
    "UInt",
    "decode_message",
    "encode_message",
    "explain_packet",
    "open_endpoint",
    "pack",
    "pack_values",
    "read_stamp",
    "schema_diff",
    "schema_text",
    "stream_fingerprint",
    "unpack",
    "write_stamp",
]
