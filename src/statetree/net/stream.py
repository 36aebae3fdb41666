"""Packed streams: the states of many machines in one packet, with no rounding between them.

A :class:`BitWriter` is the stream: each codec appends its machine's bits right after the
previous machine's (``codec.write(writer, machine)``), whatever the codecs, and the packet
is padded to a whole byte once, at the end. Reading goes the same way with a
:class:`BitReader`; :func:`unpack` reads a whole packet and returns nothing unless every
machine in it decodes and nothing is left over, so a bad packet changes nothing.

.. code-block:: python

    data = net.pack((hero_codec, actor.machine) for actor in actors)
    states = net.unpack(data, [hero_codec] * len(actors))      # all or nothing
    for actor, state in zip(actors, states):
        hero_codec.apply(actor.machine, state)

A stream can start with a *stamp*: the first bits of the fingerprint of the codecs that wrote
it (a version byte, for ``stamp_bits=8``), so that a reader built from other code refuses
it instead of decoding it into wrong states. The transport exchanges whole fingerprints in
its handshake instead.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Sequence
from typing import Any

from statetree.errors import UsageError
from statetree.net.bits import BitReader, BitWriter
from statetree.net.errors import PacketError
from statetree.net.interface import MachineCodec
from statetree.net.schema import fingerprint

__all__ = ["pack", "pack_values", "read_stamp", "stream_fingerprint", "unpack", "write_stamp"]

_FINGERPRINT_BITS = 64


def stream_fingerprint(codecs: Iterable[MachineCodec[Any, Any]]) -> str:
    """The fingerprint of a stream written with ``codecs``: a codec's own when they are all
    the same one, else a digest of their fingerprints in order of first use."""
    distinct = list(dict.fromkeys(codec.fingerprint for codec in codecs))
    if not distinct:
        raise UsageError("a stream fingerprint needs at least one codec")
    return distinct[0] if len(distinct) == 1 else fingerprint(distinct)


def _stamp(codecs: Iterable[MachineCodec[Any, Any]], bits: int) -> tuple[int, str]:
    if isinstance(bits, bool) or not isinstance(bits, int) or not 1 <= bits <= _FINGERPRINT_BITS:
        raise UsageError(f"a stamp takes 1 to {_FINGERPRINT_BITS} bits, not {bits}")
    digest = stream_fingerprint(codecs)
    return int(digest, 16) >> (_FINGERPRINT_BITS - bits), digest


def write_stamp(writer: BitWriter, codecs: Iterable[MachineCodec[Any, Any]], bits: int) -> None:
    """Append the first ``bits`` bits of the fingerprint of ``codecs``.

    Raises:
        UsageError: ``bits`` is not 1 to 64, or no codec is given.
    """
    writer.write_uint(_stamp(codecs, bits)[0], bits)


def read_stamp(reader: BitReader, codecs: Iterable[MachineCodec[Any, Any]], bits: int) -> None:
    """Read a stamp and check it against the fingerprint of ``codecs``.

    Raises:
        PacketError: the stamp differs: the stream was written with other codecs.
        UsageError: ``bits`` is not 1 to 64, or no codec is given.
    """
    start = reader.position
    expected, digest = _stamp(codecs, bits)
    found = reader.read_uint(bits)
    if found != expected:
        raise PacketError(
            f"stamp {found:#x} is not this reader's {expected:#x} (the first {bits} bit(s) of "
            f"fingerprint {digest}): the packet was written by a program with another wire "
            "schema (see statetree net schema)",
            bit=start,
        )


def pack(items: Iterable[tuple[MachineCodec[Any, Any], Any]], *, stamp_bits: int = 0) -> bytes:
    """One packet holding the state of each ``(codec, machine)`` in turn.

    Args:
        items: the machines, each with its codec (any codecs, in any order).
        stamp_bits: start with this many bits of the codecs' fingerprint (0: no stamp).

    Raises:
        UsageError: a machine's state cannot be sent (as ``codec.encode`` says).
    """
    return _packed(items, stamp_bits, machines=True)


def pack_values(
    items: Iterable[tuple[MachineCodec[Any, Any], Any]], *, stamp_bits: int = 0
) -> bytes:
    """As :func:`pack`, for values already captured (``(codec, value)`` pairs)."""
    return _packed(items, stamp_bits, machines=False)


def _packed(
    items: Iterable[tuple[MachineCodec[Any, Any], Any]], stamp_bits: int, *, machines: bool
) -> bytes:
    name = "pack" if machines else "pack_values"
    if not isinstance(items, Iterable) or isinstance(items, (str, bytes)):
        raise UsageError(f"{name}() takes a list of (codec, machine) pairs, got {items!r}")
    pairs = list(items)
    for index, pair in enumerate(pairs):
        if not (isinstance(pair, tuple) and len(pair) == 2 and _is_codec(pair[0])):
            held = "machine" if machines else "value"
            raise UsageError(
                f"{name}() takes (codec, {held}) pairs; item {index} is {reprlib.repr(pair)}"
            )
    writer = BitWriter()
    if stamp_bits:
        write_stamp(writer, (codec for codec, _ in pairs), stamp_bits)
    for codec, item in pairs:
        if machines:
            codec.write(writer, item)
        else:
            codec.write_value(writer, item)
    return writer.to_bytes()


def unpack(
    data: bytes | bytearray | memoryview,
    codecs: Sequence[MachineCodec[Any, Any]],
    *,
    stamp_bits: int = 0,
) -> list[Any]:
    """The values of a packet written by :func:`pack` with ``codecs``, in order.

    Every value is read and checked, and the packet must end right after the last one
    (only the zero padding of the last byte may follow), before anything is returned.

    Raises:
        PacketError: a value does not decode (naming the machine's index, the bit and the
            state), the stamp differs, or the packet is shorter or longer.
    """
    if _is_codec(codecs) or not isinstance(codecs, Sequence):
        raise UsageError(
            f"unpack() takes a sequence of codecs, one per machine in the packet; got "
            f"{reprlib.repr(codecs)}"
        )
    for index, codec in enumerate(codecs):
        if not _is_codec(codec):
            raise UsageError(f"unpack(): codecs[{index}] is {reprlib.repr(codec)}, not a codec")
    reader = BitReader(data)
    if stamp_bits:
        read_stamp(reader, codecs, stamp_bits)
    values = []
    for index, codec in enumerate(codecs):
        try:
            values.append(codec.read(reader))
        except PacketError as error:
            raise error.of_machine(index) from None
    reader.finish()
    return values


def _is_codec(value: object) -> bool:
    return all(callable(getattr(value, name, None)) for name in ("write", "read", "write_value"))
