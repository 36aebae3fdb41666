"""The interface every machine codec offers, so rollback, transport and benchmarks take any.

:class:`~statetree.net.Codec` implements it for state machines (class-based or charts),
:class:`~statetree.net.BitmaskCodec` for bitmask machines.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from statetree.core.cause import Cause
from statetree.net.bits import BitReader, BitWriter

__all__ = ["MachineCodec"]

M_contra = TypeVar("M_contra", contravariant=True)
C = TypeVar("C")


class MachineCodec(Protocol[M_contra, C]):
    """Captures, encodes, decodes and applies the state of machines of type ``M_contra`` as
    immutable values of type ``C``.

    A packet (``encode``/``decode``) is a stream of one value padded to whole bytes;
    ``write``/``read`` append and read values in a longer stream, so that many machines of
    any codecs share one packet with no rounding between them (see :func:`pack`).
    """

    @property
    def configurations(self) -> int:
        """How many states (configurations, masks) the header can tell apart."""
        ...

    @property
    def minimum_bits(self) -> int:
        """``ceil(log2(configurations))``: the fewest bits any header could take."""
        ...

    @property
    def header_bits(self) -> int:
        """The size of the fixed part of every packet, in bits."""
        ...

    @property
    def fingerprint(self) -> str:
        """A short digest of everything that decides the bits (equal fingerprints: the same
        bits for the same values)."""
        ...

    def schema(self) -> dict[str, Any]:
        """The wire layout as plain data (JSON-ready), ending with the fingerprint."""
        ...

    def capture(self, machine: M_contra) -> C:
        """The current state of ``machine`` as a value."""
        ...

    def encode(self, machine: M_contra) -> bytes:
        """The current state of ``machine`` as bytes."""
        ...

    def decode(self, data: bytes | bytearray | memoryview) -> C:
        """The value ``data`` describes, checked; raises ``DecodeError`` if it is not legal."""
        ...

    def write(self, writer: BitWriter, machine: M_contra) -> None:
        """Append the current state of ``machine`` to a stream, with no padding."""
        ...

    def write_value(self, writer: BitWriter, value: C) -> None:
        """Append ``value`` to a stream, with no padding."""
        ...

    def read(self, reader: BitReader) -> C:
        """Read the next value of a stream, checked; raises ``DecodeError`` if it is not
        legal."""
        ...

    def apply(self, machine: M_contra, value: C, *, cause: Cause = Cause.DESERIALIZATION) -> None:
        """Move ``machine`` to ``value``, hooks seeing ``cause``."""
        ...

    def receive(self, machine: M_contra, data: bytes | bytearray | memoryview) -> C:
        """Decode ``data`` and apply it to ``machine`` (``Cause.DESERIALIZATION``); the value."""
        ...

    def caused_by(self, machine: M_contra, cause: Cause) -> AbstractContextManager[None]:
        """A context in which the hooks ``machine`` runs see ``cause``."""
        ...
