"""A packet field by field: where each part sits, its bits, and what they mean.

:func:`explain_packet` decodes a packet with the codec's own decoder, so a bad packet raises
the same :class:`PacketError` as :meth:`Codec.decode`. It then walks the decoded
configuration down the codec tree in the order the encoder writes it: the header, the
payload fields of each stateful state (outermost first, regions in order), the padding.

.. code-block:: python

    layout = net.explain_packet(codec, data)
    print(layout)          # one line per field: bits, raw bits, field, meaning
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from statetree.errors import UsageError
from statetree.net.bits import BitWriter
from statetree.net.codec import Codec, HeaderMode
from statetree.net.configuration import ActiveState, Configuration, _show
from statetree.net.fields import Field
from statetree.net.path_codec import HeaderDigit, digits
from statetree.net.shape import Pick, resolve

__all__ = ["HeaderDigit", "LayoutField", "PacketLayout", "explain_packet"]

FieldKind = Literal["header", "payload", "padding"]
_PADDING = "zero bits up to a whole byte"


@dataclass(frozen=True, slots=True)
class LayoutField:
    """One field of a packet.

    Attributes:
        kind: ``header``, ``payload`` or ``padding``.
        name: ``path header`` or ``leaf index``; a payload field's ``Class.parameter``;
            ``padding``.
        start: its first bit, counted from the start of the packet (most significant bit of
            the first byte first).
        width: how many bits it takes.
        bits: those bits, as a string of ``0`` and ``1``.
        value: the decoded value: the header's number, the payload value, 0 for padding.
        meaning: the value in words: the choices the header makes, a payload value as
            written in code.
        state: for a payload field, the path of its state (``Alive/Jump``).
        type: for a payload field, its field type as constructed (``UInt(16)``).
        digits: for a path header, its digits (see :class:`HeaderDigit`).
    """

    kind: FieldKind
    name: str
    start: int
    width: int
    bits: str
    value: object
    meaning: str
    state: str = ""
    type: str = ""
    digits: tuple[HeaderDigit, ...] = ()

    @property
    def label(self) -> str:
        """The field's name, with its type for a payload field."""
        return f"{self.name}: {self.type}" if self.type else self.name

    @property
    def span(self) -> str:
        """Its bits as ``first-last`` (``first`` for one bit, ``-`` for none)."""
        if self.width <= 1:
            return str(self.start) if self.width else "-"
        return f"{self.start}-{self.start + self.width - 1}"


@dataclass(frozen=True, slots=True)
class PacketLayout:
    """A decoded packet and its fields, in the order they are written.

    Attributes:
        data: the packet.
        configuration: what it decodes to.
        fields: the header, each payload field, then the padding (when there is any).
    """

    data: bytes
    configuration: Configuration
    fields: tuple[LayoutField, ...]

    @property
    def header(self) -> LayoutField:
        """The header field."""
        return self.fields[0]

    def __str__(self) -> str:
        """A table: bits, raw bits, field and meaning, one line per field."""
        rows = [("bits", "raw", "field", "meaning")]
        rows += [(f.span, f.bits, f.label, f.meaning) for f in self.fields]
        widths = [max(len(row[column]) for row in rows) for column in range(3)]
        lines = []
        for *cells, meaning in rows:
            padded = (cell.ljust(width) for cell, width in zip(cells, widths, strict=True))
            lines.append(f"{'  '.join(padded)}  {meaning}".rstrip())
        return "\n".join(lines)


def explain_packet(codec: Codec, data: bytes | bytearray | memoryview) -> PacketLayout:
    """The fields of ``data``, a packet of ``codec``, with their bits and meanings.

    Raises:
        PacketError: ``data`` is not a legal packet (exactly as :meth:`Codec.decode`).
        UsageError: ``codec`` is not a machine's ``Codec`` (a bitmask's packet is one mask:
            its ``decode`` says which), or ``data`` is not bytes.
    """
    if not isinstance(codec, Codec):
        raise UsageError(
            f"explain_packet() explains the packets of a state machine's Codec, got "
            f"{type(codec).__name__}; a BitmaskCodec's packet is one mask: decode() it"
        )
    configuration = codec.decode(data)
    packet = bytes(data)
    stream = "".join(format(byte, "08b") for byte in packet)
    pick = resolve(codec.tree.top, configuration.root)
    fields = [_header(codec, configuration, pick, stream)]
    fields += _payloads(pick, configuration.root, stream, codec.header_bits)
    end = fields[-1].start + fields[-1].width
    if end < len(stream):
        fields.append(
            LayoutField("padding", "padding", end, len(stream) - end, stream[end:], 0, _PADDING)
        )
    return PacketLayout(packet, configuration, tuple(fields))


def _header(codec: Codec, configuration: Configuration, pick: Pick, stream: str) -> LayoutField:
    value = codec.header_of(configuration)
    width = codec.header_bits
    bits = stream[:width]
    if codec.header_mode is HeaderMode.LEAF:
        path = "/".join(_chain(pick))
        meaning = f"leaf {value} of {codec.configurations}: {path}"
        return LayoutField("header", "leaf index", 0, width, bits, value, meaning)
    found = digits(codec.tree.top, pick)
    terms = [f"{d.choice} {d.index}" + (f"*{d.weight}" if d.weight > 1 else "") for d in found]
    meaning = f"{' + '.join(terms)} = {value}" if terms else "a single configuration"
    return LayoutField("header", "path header", 0, width, bits, value, meaning, digits=found)


def _payloads(pick: Pick, root: ActiveState, stream: str, start: int) -> list[LayoutField]:
    fields = []
    for path, located, active in _stateful(pick, root, ""):
        spec = located.node.spec
        for name, field, value in zip(spec.names, spec.fields, active.payload, strict=True):
            width = _width(field, value)
            bits = stream[start : start + width]
            fields.append(
                LayoutField(
                    "payload", name, start, width, bits, value, _show(value), path, field.describe()
                )
            )
            start += width
    return fields


def _chain(pick: Pick | None) -> Iterator[str]:
    while pick is not None:
        yield pick.node.cls.__name__
        pick = pick.inner


def _stateful(
    pick: Pick, active: ActiveState, outer: str
) -> Iterator[tuple[str, Pick, ActiveState]]:
    """The stateful states in the encoder's order: each state, its inner, its regions."""
    path = f"{outer}/{active.cls.__name__}" if outer else active.cls.__name__
    if active.payload:
        yield path, pick, active
    if pick.inner is not None and active.inner is not None:
        yield from _stateful(pick.inner, active.inner, path)
    for region_pick, region in zip(pick.regions, active.regions, strict=True):
        yield from _stateful(region_pick, region, path)


def _width(field: Field[Any], value: object) -> int:
    """How many bits the field's own encoder writes for ``value``."""
    writer = BitWriter()
    field.write(writer, value)
    return writer.size
