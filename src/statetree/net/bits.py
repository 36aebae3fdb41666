"""Bit-level writing and reading: unsigned ints of any width, bools, floats and bytes.

Bits are written most significant first, so a packet reads left to right as a bit string;
the last byte is padded with zero bits. Reading past the end raises :class:`PacketError`.
"""

from __future__ import annotations

import operator
import struct

from statetree.errors import UsageError
from statetree.net.errors import PacketError

__all__ = ["BitReader", "BitWriter", "require_bytes", "require_packet"]

_FLOAT32 = struct.Struct(">f")
_FLOAT64 = struct.Struct(">d")
_UINT32 = struct.Struct(">I")
_UINT64 = struct.Struct(">Q")


class BitWriter:
    """Accumulates bits; :meth:`to_bytes` pads the last byte with zeros.

    A writer is a bit stream: any number of values (and of machines' packets, see
    :meth:`MachineCodec.write <statetree.net.MachineCodec.write>`) can be appended, each
    right after the previous one, with no rounding in between. Whole bytes are moved out of
    the accumulator as it fills, so a long stream costs time in proportion to its length.
    """

    __slots__ = ("_bits", "_done", "_value")

    def __init__(self) -> None:
        self._done = bytearray()
        self._value = 0
        self._bits = 0

    @property
    def size(self) -> int:
        """How many bits were written."""
        return 8 * len(self._done) + self._bits

    def write_uint(self, value: int, width: int) -> None:
        """Write ``value`` in ``width`` bits.

        Raises:
            UsageError: ``value`` is negative or needs more than ``width`` bits.
        """
        if type(value) is not int or type(width) is not int:  # NumPy's integers, a float
            value = _whole(value, "a value written in bits")
            width = _whole(width, "a width of bits")
        if width < 0 or value < 0 or value >> width:
            raise UsageError(f"{value} does not fit in {width} unsigned bit(s)")
        value |= self._value << width
        bits = self._bits + width
        if bits > 64:
            kept = bits & 7
            self._done += (value >> kept).to_bytes(bits >> 3, "big")
            value &= (1 << kept) - 1
            bits = kept
        self._value = value
        self._bits = bits

    def write_bool(self, value: bool) -> None:
        """Write one bit."""
        self.write_uint(1 if value else 0, 1)

    def write_float32(self, value: float) -> None:
        """Write ``value`` as an IEEE 754 single (32 bits).

        Raises:
            UsageError: ``value`` is no number, or too large for a single.
        """
        self.write_uint(_UINT32.unpack(_packed(_FLOAT32, value, "32"))[0], 32)

    def write_float64(self, value: float) -> None:
        """Write ``value`` as an IEEE 754 double (64 bits).

        Raises:
            UsageError: ``value`` is no number.
        """
        self.write_uint(_UINT64.unpack(_packed(_FLOAT64, value, "64"))[0], 64)

    def write_bytes(self, data: bytes) -> None:
        """Write every byte of ``data``, 8 bits each.

        Raises:
            UsageError: ``data`` is not ``bytes``, ``bytearray`` or ``memoryview``.
        """
        given = require_bytes(data, "write_bytes() writes")
        if self._bits & 7 == 0:  # aligned: the bytes go out as they are
            self._flush()
            self._done += given
        else:
            self.write_uint(int.from_bytes(given, "big"), 8 * len(given))

    def write_bits(self, other: BitWriter) -> None:
        """Append the bits written to ``other``.

        Raises:
            UsageError: ``other`` is not a ``BitWriter``.
        """
        if not isinstance(other, BitWriter):
            raise UsageError(f"write_bits() appends a BitWriter's bits, got {other!r}")
        self.write_bytes(bytes(other._done))
        self.write_uint(other._value, other._bits)

    def _flush(self) -> None:
        """Move the whole bytes of the accumulator out (it is byte-aligned)."""
        if self._bits:
            self._done += self._value.to_bytes(self._bits >> 3, "big")
            self._value = self._bits = 0

    def to_uint(self) -> int:
        """The bits written so far as one unsigned int of :attr:`size` bits."""
        return (int.from_bytes(self._done, "big") << self._bits) | self._value

    def to_bytes(self) -> bytes:
        """The bits written so far, padded with zeros to a whole number of bytes."""
        padding = -self._bits % 8
        last = (self._value << padding).to_bytes((self._bits + padding) >> 3, "big")
        return bytes(self._done) + last if self._done else last

    def __str__(self) -> str:
        """The bits as a string of ``0`` and ``1``, first written first."""
        done = "".join(format(byte, "08b") for byte in self._done)
        return done + (format(self._value, f"0{self._bits}b") if self._bits else "")


class BitReader:
    """Reads what a :class:`BitWriter` wrote, refusing to read past the end.

    A reader is a bit stream too: read the values (or machines) in the order they were
    written, then :meth:`finish`.
    """

    __slots__ = ("_data", "_position", "_size")

    def __init__(self, data: bytes | bytearray | memoryview) -> None:
        self._data = bytes(require_packet(data))
        self._size = 8 * len(self._data)
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
            UsageError: ``width`` is negative or not a whole number.
        """
        if type(width) is not int:
            width = _whole(width, "a width of bits")
        if width < 0:
            raise UsageError(f"a width of bits is 0 or more, got {width}")
        value = self.take(width)
        if value < 0:
            raise PacketError(
                f"{width} more bit(s) needed, but the packet ends {self.remaining} bit(s) further",
                bit=self._position,
            )
        return value

    def take(self, width: int) -> int:
        """Read an unsigned int of ``width`` bits, or return -1 (reading nothing) when fewer
        than ``width`` bits are left: for decoders that then read field by field to say
        where the data ends."""
        start = self._position
        end = start + width
        if end > self._size:
            return -1
        self._position = end
        last = (end + 7) >> 3
        chunk = int.from_bytes(self._data[start >> 3 : last], "big")
        return (chunk >> ((last << 3) - end)) & ((1 << width) - 1)

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
        """Read ``count`` bytes, 8 bits each.

        Raises:
            PacketError: fewer bytes are left.
            UsageError: ``count`` is negative or not a whole number.
        """
        count = _whole(count, "a count of bytes")
        if count < 0:
            raise UsageError(f"a count of bytes is 0 or more, got {count}")
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
        if left and self._data[-1] & ((1 << left) - 1):
            raise PacketError("the padding bits of the last byte are not zero", bit=self._position)


def _whole(number: object, what: str) -> int:
    """``number`` as a Python integer (NumPy's integers are), else a ``UsageError``."""
    try:
        return operator.index(number)  # type: ignore[arg-type]
    except TypeError:
        raise UsageError(f"{what} is a whole number, got {number!r}") from None


def _packed(form: struct.Struct, value: object, bits: str) -> bytes:
    """``value`` packed as a float of ``form``, else a ``UsageError``."""
    try:
        return form.pack(value)
    except (OverflowError, struct.error):
        raise UsageError(f"{value!r} cannot be written as a {bits}-bit float") from None


def require_packet(data: object) -> bytes | bytearray:
    """``data``, a packet's bytes (see :func:`require_bytes`).

    Raises:
        UsageError: ``data`` is not ``bytes``, ``bytearray`` or ``memoryview``.
    """
    return require_bytes(data, "a packet is")


def require_bytes(data: object, what: str) -> bytes | bytearray:
    """``data`` as bytes (a ``memoryview``'s bytes whatever its item type: its length counts
    bytes, not items); ``what`` begins the error's message.

    Raises:
        UsageError: ``data`` is not ``bytes``, ``bytearray`` or ``memoryview``.
    """
    if isinstance(data, (bytes, bytearray)):
        return data
    if isinstance(data, memoryview):
        return data.tobytes()
    raise UsageError(f"{what} bytes, got {type(data).__name__}")
