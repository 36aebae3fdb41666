"""Typed payload fields: how one ``on_enter`` argument of a stateful state goes on the wire.

Every field knows its exact bit layout, so a payload needs no tags or flags: the state's
class says which fields follow, in order. Decoding checks every range and raises
:class:`PacketError` for a value no encoder could have produced.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import struct
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Generic, TypeGuard, TypeVar

from statetree.errors import DefinitionError
from statetree.net.bits import BitReader, BitWriter
from statetree.net.errors import PacketError

__all__ = ["Bool", "Bytes", "Enum", "Field", "Float32", "Float64", "Int", "UInt"]

T = TypeVar("T")
E = TypeVar("E", bound=enum.Enum)


class Field(ABC, Generic[T]):
    """One typed value of a payload.

    A field of fixed width sets ``width`` and implements :meth:`to_bits` and
    :meth:`from_bits`; reading and writing then follow (and the codec packs such fields
    without a writer). A field of varying width (``Bytes``) overrides :meth:`write` and
    :meth:`read` instead.
    """

    width: int | None = None
    """How many bits every value takes, or ``None`` when it depends on the value."""

    @abstractmethod
    def problem(self, value: object) -> str | None:
        """Why ``value`` cannot be sent in this field, or ``None`` if it can."""

    def canonical(self, value: T) -> T:
        """``value`` exactly as the receiver will decode it (``value`` must be valid)."""
        return value

    def to_bits(self, value: T) -> int:
        """A valid ``value`` as an unsigned int of ``width`` bits (fixed-width fields)."""
        raise NotImplementedError(f"{type(self).__name__} has no fixed width")

    def checked_bits(self, value: object) -> int:
        """``to_bits(value)`` if ``value`` can be sent, else -1 (fixed-width fields; one call
        where encoding would otherwise make two)."""
        return -1 if self.problem(value) is not None else self.to_bits(value)  # type: ignore[arg-type]

    def from_bits(self, raw: int, bit: int) -> T:
        """The value of ``raw`` (``width`` bits read at offset ``bit``).

        Raises:
            PacketError: ``raw`` is out of this field's range.
        """
        raise NotImplementedError(f"{type(self).__name__} has no fixed width")

    def write(self, writer: BitWriter, value: T) -> None:
        """Write a valid ``value``."""
        writer.write_uint(self.to_bits(value), self._fixed())

    def read(self, reader: BitReader) -> T:
        """Read a value.

        Raises:
            PacketError: the bits run out or hold a value out of this field's range.
        """
        start = reader.position
        return self.from_bits(reader.read_uint(self._fixed()), start)

    def _fixed(self) -> int:
        if self.width is None:
            raise NotImplementedError(f"{type(self).__name__} must override write and read")
        return self.width

    def layout(self) -> dict[str, Any]:
        """What decides this field's bits, as plain data: two fields with the same layout
        write the same bits for the same values (schema fingerprints compare these)."""
        if dataclasses.is_dataclass(self):
            return {"type": type(self).__qualname__, **_init_values(self)}
        return {"type": type(self).__qualname__, "repr": repr(self)}

    def describe(self) -> str:
        """The field as constructed, leaving out defaults: ``UInt(16)``, ``Enum(Direction)``."""
        if not dataclasses.is_dataclass(self):
            return type(self).__name__
        shown = [_argument(value) for value in _init_values(self, defaults=False).values()]
        return f"{type(self).__name__}({', '.join(shown)})"


def _init_values(field: object, *, defaults: bool = True) -> dict[str, Any]:
    """The constructor arguments of a dataclass field (without those left at their default)."""
    assert dataclasses.is_dataclass(field)
    return {
        declared.name: getattr(field, declared.name)
        for declared in dataclasses.fields(field)
        if declared.init and (defaults or getattr(field, declared.name) != declared.default)
    }


def _argument(value: object) -> str:
    if isinstance(value, type) and issubclass(value, enum.Enum):
        return value.__qualname__
    return repr(value)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class UInt(Field[int]):
    """An unsigned integer in ``bits`` bits: 0 to ``2**bits - 1``."""

    bits: int

    def __post_init__(self) -> None:
        if not _is_int(self.bits) or self.bits < 1:
            raise DefinitionError(f"UInt needs a positive number of bits, got {self.bits!r}")
        object.__setattr__(self, "width", self.bits)

    def problem(self, value: object) -> str | None:
        if not _is_int(value):
            return f"{value!r} is not an int"
        if not 0 <= value < 1 << self.bits:
            return f"{value} is out of the range 0..{(1 << self.bits) - 1}"
        return None

    def to_bits(self, value: int) -> int:
        return value

    def checked_bits(self, value: object) -> int:
        if type(value) is int and 0 <= value >> self.bits < 1:
            return value
        return super().checked_bits(value)

    def from_bits(self, raw: int, bit: int) -> int:
        return raw

    def layout(self) -> dict[str, Any]:
        return {"type": "Int", "minimum": 0, "maximum": (1 << self.bits) - 1}


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
        object.__setattr__(self, "width", self.bits)

    def problem(self, value: object) -> str | None:
        if not _is_int(value):
            return f"{value!r} is not an int"
        if not self.minimum <= value <= self.maximum:
            return f"{value} is out of the range {self.minimum}..{self.maximum}"
        return None

    def to_bits(self, value: int) -> int:
        return value - self.minimum

    def from_bits(self, raw: int, bit: int) -> int:
        value = self.minimum + raw
        if value > self.maximum:
            raise PacketError(f"{value} is above the maximum {self.maximum}", bit=bit)
        return value

    def layout(self) -> dict[str, Any]:
        return {"type": "Int", "minimum": self.minimum, "maximum": self.maximum}


@dataclass(frozen=True)
class Bool(Field[bool]):
    """``True`` or ``False`` in one bit."""

    width = 1

    def problem(self, value: object) -> str | None:
        return None if isinstance(value, bool) else f"{value!r} is not a bool"

    def to_bits(self, value: bool) -> int:
        return 1 if value else 0

    def from_bits(self, raw: int, bit: int) -> bool:
        return raw == 1


def _is_number(value: object) -> bool:
    """Whether ``value`` is an int or a float (not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class _Float(Field[float]):
    """A finite IEEE 754 float between ``minimum`` and ``maximum`` (NaN is never sent)."""

    minimum: float = -math.inf
    maximum: float = math.inf
    _format = struct.Struct(">d")
    _raw = struct.Struct(">Q")
    _name = "Float64"

    def __post_init__(self) -> None:
        for bound in (self.minimum, self.maximum):
            if not _is_number(bound) or math.isnan(bound):
                raise DefinitionError(
                    f"{self._name} needs numbers as its minimum and maximum, got {bound!r}"
                )
        if not self.minimum <= self.maximum:
            raise DefinitionError(
                f"{self._name} needs minimum <= maximum, got {self.minimum!r}..{self.maximum!r}"
            )
        object.__setattr__(self, "width", 8 * self._format.size)
        # Values are compared once rounded, with the bounds rounded the same way: rounding
        # keeps order, so a value within the bounds is sent and received within them.
        object.__setattr__(self, "_low", self._rounded(self.minimum))
        object.__setattr__(self, "_high", self._rounded(self.maximum))

    def _rounded(self, bound: float) -> float:
        try:
            exact: float = self._format.unpack(self._format.pack(bound))[0]
        except OverflowError:  # beyond the format's largest: as far as infinity
            return math.copysign(math.inf, bound)
        return exact

    def problem(self, value: object) -> str | None:
        if not _is_number(value):
            return f"{value!r} is not a float"
        try:
            exact = self._format.unpack(self._format.pack(value))[0]
        except (OverflowError, struct.error):
            return f"{value!r} is too large for a {self._name}"
        return self._range_problem(exact, value)

    def _range_problem(self, value: float, given: object = None) -> str | None:
        shown = value if given is None else given
        if not math.isfinite(value):
            return f"{shown!r} is not a finite number"
        if not self._low <= value <= self._high:  # type: ignore[attr-defined]
            return f"{shown!r} is out of the range {self.minimum!r}..{self.maximum!r}"
        return None

    def canonical(self, value: float) -> float:
        exact: float = self._format.unpack(self._format.pack(value))[0]
        return exact

    def to_bits(self, value: float) -> int:
        raw: int = self._raw.unpack(self._format.pack(value))[0]
        return raw

    def from_bits(self, raw: int, bit: int) -> float:
        value: float = self._format.unpack(self._raw.pack(raw))[0]
        problem = self._range_problem(value)
        if problem:
            raise PacketError(problem, bit=bit)
        return value

    def layout(self) -> dict[str, Any]:
        # The bounds as compared (rounded to the format, as floats): bounds written another
        # way that accept the same values (1 and 1.0) give the same fingerprint.
        low, high = self._low, self._high  # type: ignore[attr-defined]
        return {"type": self._name, "minimum": repr(float(low)), "maximum": repr(float(high))}


@dataclass(frozen=True)
class Float32(_Float):
    """A finite 32-bit float between ``minimum`` and ``maximum``; values are rounded to it."""

    _format = struct.Struct(">f")
    _raw = struct.Struct(">I")
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
        object.__setattr__(self, "width", self.bits)

    def problem(self, value: object) -> str | None:
        if isinstance(value, self.type):
            return None
        return f"{value!r} is not a member of {self.type.__qualname__}"

    def to_bits(self, value: E) -> int:
        return self.members.index(value)  # identity first: faster than hashing a member

    def checked_bits(self, value: object) -> int:
        if type(value) is self.type:
            return self.members.index(value)
        return super().checked_bits(value)

    def from_bits(self, raw: int, bit: int) -> E:
        if raw >= len(self.members):
            raise PacketError(
                f"index {raw} is not a member of {self.type.__qualname__} "
                f"({len(self.members)} members)",
                bit=bit,
            )
        return self.members[raw]

    def layout(self) -> dict[str, Any]:
        return {"type": "Enum", "members": [member.name for member in self.members]}


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
