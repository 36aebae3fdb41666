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

from typing import TYPE_CHECKING

from statetree.exports import Exports

if TYPE_CHECKING:
    from statetree.net.bitmask import BitmaskCodec as BitmaskCodec
    from statetree.net.bits import BitReader as BitReader
    from statetree.net.bits import BitWriter as BitWriter
    from statetree.net.client import StateClient as StateClient
    from statetree.net.codec import Codec as Codec
    from statetree.net.codec import HeaderMode as HeaderMode
    from statetree.net.conditioner import LinkConditioner as LinkConditioner
    from statetree.net.conditioner import LinkProfile as LinkProfile
    from statetree.net.conditioner import LinkStats as LinkStats
    from statetree.net.configuration import ActiveState as ActiveState
    from statetree.net.configuration import Configuration as Configuration
    from statetree.net.errors import HandshakeError as HandshakeError
    from statetree.net.errors import PacketError as PacketError
    from statetree.net.fields import Bool as Bool
    from statetree.net.fields import Bytes as Bytes
    from statetree.net.fields import Enum as Enum
    from statetree.net.fields import Field as Field
    from statetree.net.fields import Float32 as Float32
    from statetree.net.fields import Float64 as Float64
    from statetree.net.fields import Int as Int
    from statetree.net.fields import UInt as UInt
    from statetree.net.interface import MachineCodec as MachineCodec
    from statetree.net.layout import HeaderDigit as HeaderDigit
    from statetree.net.layout import LayoutField as LayoutField
    from statetree.net.layout import PacketLayout as PacketLayout
    from statetree.net.layout import explain_packet as explain_packet
    from statetree.net.messages import MAX_DATAGRAM as MAX_DATAGRAM
    from statetree.net.messages import MAX_STATE as MAX_STATE
    from statetree.net.messages import HandshakeMessage as HandshakeMessage
    from statetree.net.messages import InputMessage as InputMessage
    from statetree.net.messages import Message as Message
    from statetree.net.messages import MessageKind as MessageKind
    from statetree.net.messages import StateMessage as StateMessage
    from statetree.net.messages import decode_message as decode_message
    from statetree.net.messages import encode_message as encode_message
    from statetree.net.ordering import InputQueue as InputQueue
    from statetree.net.payload import Stateful as Stateful
    from statetree.net.rollback import Outcome as Outcome
    from statetree.net.rollback import Rollback as Rollback
    from statetree.net.rollback import RollbackStats as RollbackStats
    from statetree.net.schema import schema_diff as schema_diff
    from statetree.net.schema import schema_text as schema_text
    from statetree.net.server import StateServer as StateServer
    from statetree.net.stream import pack as pack
    from statetree.net.stream import pack_values as pack_values
    from statetree.net.stream import read_stamp as read_stamp
    from statetree.net.stream import stream_fingerprint as stream_fingerprint
    from statetree.net.stream import unpack as unpack
    from statetree.net.stream import write_stamp as write_stamp
    from statetree.net.transport import LOOPBACK as LOOPBACK
    from statetree.net.transport import Address as Address
    from statetree.net.transport import Endpoint as Endpoint
    from statetree.net.transport import EndpointStats as EndpointStats
    from statetree.net.transport import open_endpoint as open_endpoint

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

_EXPORTS = Exports(
    __name__,
    {
        "statetree.net.bitmask": ("BitmaskCodec",),
        "statetree.net.bits": ("BitReader", "BitWriter"),
        "statetree.net.client": ("StateClient",),
        "statetree.net.codec": ("Codec", "HeaderMode"),
        "statetree.net.conditioner": ("LinkConditioner", "LinkProfile", "LinkStats"),
        "statetree.net.configuration": ("ActiveState", "Configuration"),
        "statetree.net.errors": ("HandshakeError", "PacketError"),
        "statetree.net.fields": (
            "Bool",
            "Bytes",
            "Enum",
            "Field",
            "Float32",
            "Float64",
            "Int",
            "UInt",
        ),
        "statetree.net.interface": ("MachineCodec",),
        "statetree.net.layout": ("HeaderDigit", "LayoutField", "PacketLayout", "explain_packet"),
        "statetree.net.messages": (
            "MAX_DATAGRAM",
            "MAX_STATE",
            "HandshakeMessage",
            "InputMessage",
            "Message",
            "MessageKind",
            "StateMessage",
            "decode_message",
            "encode_message",
        ),
        "statetree.net.ordering": ("InputQueue",),
        "statetree.net.payload": ("Stateful",),
        "statetree.net.rollback": ("Outcome", "Rollback", "RollbackStats"),
        "statetree.net.schema": ("schema_diff", "schema_text"),
        "statetree.net.server": ("StateServer",),
        "statetree.net.stream": (
            "pack",
            "pack_values",
            "read_stamp",
            "stream_fingerprint",
            "unpack",
            "write_stamp",
        ),
        "statetree.net.transport": (
            "LOOPBACK",
            "Address",
            "Endpoint",
            "EndpointStats",
            "open_endpoint",
        ),
    },
)
__getattr__ = _EXPORTS.attribute
__dir__ = _EXPORTS.dir
