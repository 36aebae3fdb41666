"""Bit-level writing and reading: unsigned ints of any width, bools, floats and bytes.

Bits are written most significant first, so a packet reads left to right as a bit string;
the last byte is padded with zero bits. Reading past the end raises :class:`PacketError`.
"""

from __future__ import annotations

import struct

from statetree.errors import UsageError
from statetree.net.errors import PacketError

__all__ = ["BitReader", "BitWriter"]

_FLOAT32 = struct.Struct(">f")
_FLOAT64 = struct.Struct(">d")
_UINT32 = struct.Struct(">I")
_UINT64 = struct.Struct(">Q")


class BitWriter:
    """Accumulates bits; :meth:`to_bytes` pads the last byte with zeros."""

    __slots__ = ("_size", "_value")

    def __init__(self) -> None:
        self._value = 0
        self._size = 0

    @property
    def size(self) -> int:
        """How many bits were written."""
        return self._size

    def write_uint(self, value: int, width: int) -> None:
        """Write ``value`` in ``width`` bits.

        Raises:
            UsageError: ``value`` is negative or needs more than ``width`` bits.
        """
        if value < 0 or value >> width:
            raise UsageError(f"{value} does not fit in {width} unsigned bit(s)")
        self._value = (self._value << width) | value
        self._size += width

    def write_bool(self, value: bool) -> None:
        """Write one bit."""
        self.write_uint(1 if value else 0, 1)

    def write_float32(self, value: float) -> None:
        """Write ``value`` as an IEEE 754 single (32 bits)."""
        self.write_uint(_UINT32.unpack(_FLOAT32.pack(value))[0], 32)

    def write_float64(self, value: float) -> None:
        """Write ``value`` as an IEEE 754 double (64 bits)."""
        self.write_uint(_UINT64.unpack(_FLOAT64.pack(value))[0], 64)

    def write_bytes(self, data: bytes) -> None:
        """Write every byte of ``data``, 8 bits each."""
        self.write_uint(int.from_bytes(data, "big"), 8 * len(data))

    def write_bits(self, other: BitWriter) -> None:
        """Append the bits written to ``other``."""
        self.write_uint(other._value, other._size)

    def to_bytes(self) -> bytes:
        """The bits written so far, padded with zeros to a whole number of bytes."""
        padding = -self._size % 8
        return (self._value << padding).to_bytes((self._size + padding) // 8, "big")

    def __str__(self) -> str:
        """The bits as a string of ``0`` and ``1``, first written first."""
        return format(self._value, f"0{self._size}b") if self._size else ""


class BitReader:
    """Reads what a :class:`BitWriter` wrote, refusing to read past the end."""

    __slots__ = ("_position", "_size", "_value")

    def __init__(self, data: bytes | bytearray | memoryview) -> None:
        self._value = int.from_bytes(data, "big")
        self._size = 8 * len(data)
        self._position = 0

    @property
    def position(self) -> int:
        """How many bits were read."""
        return self._position

    @property
    def remaining(self) -> int:
        """How many bits are left."""
        return self._size - self._position

    def read_uint(self, width: int) -> int:
        """Read an unsigned int of ``width`` bits.

        Raises:
            PacketError: fewer than ``width`` bits are left.
        """
        end = self._position + width
        if end > self._size:
            raise PacketError(
                f"{width} more bit(s) needed, but the packet ends {self._size - self._position} "
                "bit(s) further",
                bit=self._position,
            )
        self._position = end
        return (self._value >> (self._size - end)) & ((1 << width) - 1)

    def read_bool(self) -> bool:
        """Read one bit."""
        return self.read_uint(1) == 1

    def read_float32(self) -> float:
        """Read an IEEE 754 single."""
        value: float = _FLOAT32.unpack(_UINT32.pack(self.read_uint(32)))[0]
        return value

    def read_float64(self) -> float:
        """Read an IEEE 754 double."""
        value: float = _FLOAT64.unpack(_UINT64.pack(self.read_uint(64)))[0]
        return value

    def read_bytes(self, count: int) -> bytes:
        """Read ``count`` bytes, 8 bits each."""
        return self.read_uint(8 * count).to_bytes(count, "big")

    def finish(self) -> None:
        """Check that only the zero padding of the last byte is left.

        Raises:
            PacketError: a whole byte or more is left, or a padding bit is set.
        """
        left = self.remaining
        if left >= 8:
            raise PacketError(
                f"{left // 8} byte(s) of trailing data after the end", bit=self._position
            )
        if self._value & ((1 << left) - 1):
            raise PacketError("the padding bits of the last byte are not zero", bit=self._position)
