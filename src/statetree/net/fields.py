"""Typed payload fields: how one ``on_enter`` argument of a stateful state goes on the wire.

Every field knows its exact bit layout, so a payload needs no tags or flags: the state's
class says which fields follow, in order. Decoding checks every range and raises
:class:`PacketError` for a value no encoder could have produced.
"""

from __future__ import annotations

import enum
import math
import struct
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Generic, TypeGuard, TypeVar

from statetree.errors import DefinitionError
from statetree.net.bits import BitReader, BitWriter
from statetree.net.errors import PacketError

__all__ = ["Bool", "Bytes", "Enum", "Field", "Float32", "Float64", "Int", "UInt"]

T = TypeVar("T")
E = TypeVar("E", bound=enum.Enum)


class Field(ABC, Generic[T]):
    """One typed value of a payload."""

    @abstractmethod
    def problem(self, value: object) -> str | None:
        """Why ``value`` cannot be sent in this field, or ``None`` if it can."""

    def canonical(self, value: T) -> T:
        """``value`` exactly as the receiver will decode it (``value`` must be valid)."""
        return value

    @abstractmethod
    def write(self, writer: BitWriter, value: T) -> None:
        """Write a valid ``value``."""

    @abstractmethod
    def read(self, reader: BitReader) -> T:
        """Read a value.

        Raises:
            PacketError: the bits run out or hold a value out of this field's range.
        """


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class UInt(Field[int]):
    """An unsigned integer in ``bits`` bits: 0 to ``2**bits - 1``."""

    bits: int

    def __post_init__(self) -> None:
        if not _is_int(self.bits) or self.bits < 1:
            raise DefinitionError(f"UInt needs a positive number of bits, got {self.bits!r}")

    def problem(self, value: object) -> str | None:
        if not _is_int(value):
            return f"{value!r} is not an int"
        if not 0 <= value < 1 << self.bits:
            return f"{value} is out of the range 0..{(1 << self.bits) - 1}"
        return None

    def write(self, writer: BitWriter, value: int) -> None:
        writer.write_uint(value, self.bits)

    def read(self, reader: BitReader) -> int:
        return reader.read_uint(self.bits)


@dataclass(frozen=True)
class Int(Field[int]):
    """An integer from ``minimum`` to ``maximum``, in the fewest bits that hold the range."""

    minimum: int
    maximum: int
    bits: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not (_is_int(self.minimum) and _is_int(self.maximum)) or self.minimum > self.maximum:
            raise DefinitionError(
                f"Int needs integer bounds with minimum <= maximum, got "
                f"{self.minimum!r}..{self.maximum!r}"
            )
        object.__setattr__(self, "bits", (self.maximum - self.minimum).bit_length())

    def problem(self, value: object) -> str | None:
        if not _is_int(value):
            return f"{value!r} is not an int"
        if not self.minimum <= value <= self.maximum:
            return f"{value} is out of the range {self.minimum}..{self.maximum}"
        return None

    def write(self, writer: BitWriter, value: int) -> None:
        writer.write_uint(value - self.minimum, self.bits)

    def read(self, reader: BitReader) -> int:
        start = reader.position
        value = self.minimum + reader.read_uint(self.bits)
        if value > self.maximum:
            raise PacketError(f"{value} is above the maximum {self.maximum}", bit=start)
        return value


@dataclass(frozen=True)
class Bool(Field[bool]):
    """``True`` or ``False`` in one bit."""

    def problem(self, value: object) -> str | None:
        return None if isinstance(value, bool) else f"{value!r} is not a bool"

    def write(self, writer: BitWriter, value: bool) -> None:
        writer.write_bool(value)

    def read(self, reader: BitReader) -> bool:
        return reader.read_bool()


@dataclass(frozen=True)
class _Float(Field[float]):
    """A finite IEEE 754 float between ``minimum`` and ``maximum`` (NaN is never sent)."""

    minimum: float = -math.inf
    maximum: float = math.inf
    _format = struct.Struct(">d")
    _name = "Float64"

    def __post_init__(self) -> None:
        if not self.minimum <= self.maximum:
            raise DefinitionError(
                f"{self._name} needs minimum <= maximum, got {self.minimum!r}..{self.maximum!r}"
            )

    def problem(self, value: object) -> str | None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return f"{value!r} is not a float"
        try:
            exact = self._format.unpack(self._format.pack(value))[0]
        except (OverflowError, struct.error):
            return f"{value!r} is too large for a {self._name}"
        return self._range_problem(exact)

    def _range_problem(self, value: float) -> str | None:
        if not math.isfinite(value):
            return f"{value!r} is not a finite number"
        if not self.minimum <= value <= self.maximum:
            return f"{value!r} is out of the range {self.minimum!r}..{self.maximum!r}"
        return None

    def canonical(self, value: float) -> float:
        exact: float = self._format.unpack(self._format.pack(value))[0]
        return exact

    def write(self, writer: BitWriter, value: float) -> None:
        writer.write_bytes(self._format.pack(value))

    def read(self, reader: BitReader) -> float:
        start = reader.position
        value: float = self._format.unpack(reader.read_bytes(self._format.size))[0]
        problem = self._range_problem(value)
        if problem:
            raise PacketError(problem, bit=start)
        return value


@dataclass(frozen=True)
class Float32(_Float):
    """A finite 32-bit float between ``minimum`` and ``maximum``; values are rounded to it."""

    _format = struct.Struct(">f")
    _name = "Float32"


@dataclass(frozen=True)
class Float64(_Float):
    """A finite 64-bit float between ``minimum`` and ``maximum``."""


@dataclass(frozen=True)
class Enum(Field[E]):
    """A member of an enum class, sent as its index in definition order (fewest bits)."""

    type: type[E]
    members: tuple[E, ...] = field(init=False, repr=False)
    bits: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.type, type) and issubclass(self.type, enum.Enum)):
            raise DefinitionError(f"Enum needs an enum class, got {self.type!r}")
        members = tuple(self.type)
        if not members:
            raise DefinitionError(f"Enum({self.type.__qualname__}) has no members")
        object.__setattr__(self, "members", members)
        object.__setattr__(self, "bits", (len(members) - 1).bit_length())

    def problem(self, value: object) -> str | None:
        if isinstance(value, self.type):
            return None
        return f"{value!r} is not a member of {self.type.__qualname__}"

    def write(self, writer: BitWriter, value: E) -> None:
        writer.write_uint(self.members.index(value), self.bits)

    def read(self, reader: BitReader) -> E:
        start = reader.position
        index = reader.read_uint(self.bits)
        if index >= len(self.members):
            raise PacketError(
                f"index {index} is not a member of {self.type.__qualname__} "
                f"({len(self.members)} members)",
                bit=start,
            )
        return self.members[index]


@dataclass(frozen=True)
class Bytes(Field[bytes]):
    """Up to ``max_length`` bytes, after their length in the fewest bits that hold it."""

    max_length: int
    bits: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not _is_int(self.max_length) or self.max_length < 1:
            raise DefinitionError(f"Bytes needs a positive max_length, got {self.max_length!r}")
        object.__setattr__(self, "bits", self.max_length.bit_length())

    def problem(self, value: object) -> str | None:
        if not isinstance(value, bytes):
            return f"{value!r} is not bytes"
        if len(value) > self.max_length:
            return f"{len(value)} bytes is more than the maximum {self.max_length}"
        return None

    def write(self, writer: BitWriter, value: bytes) -> None:
        writer.write_uint(len(value), self.bits)
        writer.write_bytes(value)

    def read(self, reader: BitReader) -> bytes:
        start = reader.position
        length = reader.read_uint(self.bits)
        if length > self.max_length:
            raise PacketError(
                f"length {length} is more than the maximum {self.max_length}", bit=start
            )
        return reader.read_bytes(length)
