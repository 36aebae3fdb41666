"""Bitmask machines behind the common codec interface (:class:`MachineCodec`).

The value of a bitmask machine is its mask. On the wire, a definition of up to
:data:`RANKED_STATES` states sends the index of the mask among the masks its rules allow,
in ``ceil(log2(legal masks))`` bits (the fewest any encoding could use); a larger one sends
one bit per state. Decoding refuses what the rules forbid, as ``decode_mask`` does, before
anything changes. Rollback, the transport, packed streams and the benchmarks then treat
bitmask machines like state machines.
"""

from __future__ import annotations

import operator
from contextlib import AbstractContextManager
from typing import Any

from statetree.bitmask import BitCause, BitmaskDefinition, BitmaskMachine
from statetree.bitmask.codec import check_mask
from statetree.core.cause import Cause
from statetree.errors import DecodeError, UsageError
from statetree.net.bits import BitReader, BitWriter
from statetree.net.errors import PacketError
from statetree.net.schema import FORMAT, fingerprint

__all__ = ["RANKED_STATES", "BitmaskCodec"]

_BIT_CAUSES = {
    Cause.TRANSITION: BitCause.REQUESTED,
    Cause.DESERIALIZATION: BitCause.NETWORK,
    Cause.PREDICTION: BitCause.PREDICTED,
    Cause.RESIMULATION: BitCause.ROLLBACK,
}


def _bit_cause(cause: object, call: str) -> BitCause:
    """The ``BitCause`` of a net ``Cause`` (a ``BitCause`` is its own)."""
    if isinstance(cause, BitCause):
        return cause
    if isinstance(cause, Cause):
        return _BIT_CAUSES[cause]
    raise UsageError(f"{call}(cause=...) takes a statetree.net.Cause or a BitCause, got {cause!r}")


RANKED_STATES = 16
"""Definitions of up to this many states send the index of their mask among the legal ones."""
_COUNTABLE = 20
"""Legal masks are counted by trying every mask: up to this many states."""


class BitmaskCodec:
    """The codec of the bitmask machines of one definition; values are masks (ints)."""

    __slots__ = ("_fingerprint", "_legal", "_rank", "_width", "definition")

    def __init__(self, definition: BitmaskDefinition) -> None:
        if not isinstance(definition, BitmaskDefinition):
            raise UsageError(
                f"a BitmaskCodec is built from a BitmaskDefinition (machine.definition), got "
                f"{definition!r}"
            )
        self.definition = definition
        self._legal: tuple[int, ...] | None = None
        self._rank: dict[int, int] = {}
        self._width = -1
        self._fingerprint: str | None = None

    def _prepared(self) -> int:
        """The bits of a value, once the index of every legal mask is known (ranked)."""
        if self._width < 0:
            if self.ranked:
                legal = self._masks()
                self._rank = {mask: index for index, mask in enumerate(legal)}
                self._width = (len(legal) - 1).bit_length()
            else:
                self._width = self.definition.size
        return self._width

    def _masks(self) -> tuple[int, ...]:
        """Every mask the rules allow, in increasing order (computed once, when needed)."""
        if self._legal is None:
            size = self.definition.size
            if size > _COUNTABLE:
                raise UsageError(
                    f"counting the legal masks of {size} states means trying 2**{size} "
                    f"masks; only definitions of up to {_COUNTABLE} states are counted"
                )
            self._legal = legal_masks(self.definition)
        return self._legal

    @property
    def ranked(self) -> bool:
        """Whether a mask is sent as its index among the legal masks (small definitions)."""
        return self.definition.size <= RANKED_STATES

    @property
    def configurations(self) -> int:
        """How many masks the rules allow (the empty mask included).

        Raises:
            UsageError: the definition has more than 20 states (too many masks to try).
        """
        return len(self._masks())

    @property
    def header_bits(self) -> int:
        """The bits of every value: the minimum when ranked, else one per state."""
        return self._prepared()

    @property
    def minimum_bits(self) -> int:
        """``ceil(log2(configurations))``.

        Raises:
            UsageError: the definition has more than 20 states (too many masks to try).
        """
        return (self.configurations - 1).bit_length()

    @property
    def fingerprint(self) -> str:
        """A short digest of what decides the bits: the states in order and the rules that
        decide which masks are legal (requirements and exclusions)."""
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self._description())
        return self._fingerprint

    def _description(self) -> dict[str, Any]:
        definition = self.definition
        return {
            "header": "rank" if self.ranked else "mask",
            "states": list(definition.names),
            "requires": [list(definition.names_in(mask)) for mask in definition.requires_all],
            "excludes": [list(definition.names_in(mask)) for mask in definition.exclusive],
        }

    def schema(self) -> dict[str, Any]:
        """The wire layout as plain data (JSON-ready), with the fingerprint (the header's
        ``configurations`` and ``minimum_bits`` for definitions of up to 20 states only)."""
        definition = self.definition
        rules = {
            name: {"requires": requires, "excludes": excludes}
            for name, requires, excludes in zip(
                definition.names,
                self._description()["requires"],
                self._description()["excludes"],
                strict=True,
            )
            if requires or excludes
        }
        header: dict[str, Any] = {
            "mode": "rank" if self.ranked else "mask",
            "bits": self.header_bits,
        }
        if definition.size <= _COUNTABLE:  # a larger one sends a bit per state: no count needed
            header.update(configurations=self.configurations, minimum_bits=self.minimum_bits)
        return {
            "format": FORMAT,
            "machine": definition.name or "bitmask",
            "header": header,
            "states": {name: index for index, name in enumerate(definition.names)},
            "rules": rules,
            "fingerprint": self.fingerprint,
        }

    # -- values ----------------------------------------------------------------------------

    def capture(self, machine: BitmaskMachine[Any]) -> int:
        """The machine's mask."""
        return machine.mask

    def encode(self, machine: BitmaskMachine[Any]) -> bytes:
        """The machine's mask as a packet (its bits, then zero bits to a byte)."""
        writer = BitWriter()
        self.write_value(writer, machine.mask)
        return writer.to_bytes()

    def write(self, writer: BitWriter, machine: BitmaskMachine[Any]) -> None:
        """Append the machine's mask to a stream."""
        self.write_value(writer, machine.mask)

    def write_value(self, writer: BitWriter, value: int) -> None:
        """Append the mask ``value`` to a stream.

        Raises:
            UsageError: ``value`` is not a whole number (True and False are not masks), or
                the rules do not allow it.
        """
        if isinstance(value, bool) or not isinstance(value, int):
            value = _whole(value)
        width = self._prepared()
        if self._rank:
            index = self._rank.get(value)
            if index is None:
                raise UsageError(f"mask {value:#x} is not one the rules of {self._label} allow")
            writer.write_uint(index, width)
            return
        try:
            check_mask(self.definition, value)
        except DecodeError as error:
            raise UsageError(str(error)) from None
        writer.write_uint(value, width)

    def decode(self, data: bytes | bytearray | memoryview) -> int:
        """The mask a packet holds, checked against the rules.

        Raises:
            PacketError: (a ``DecodeError``) truncated, an index past the legal masks,
                trailing data, or states the rules forbid together.
        """
        reader = BitReader(data)
        mask = self.read(reader)
        reader.finish()
        return mask

    def read(self, reader: BitReader) -> int:
        """Read the next mask of a stream, checked as :meth:`decode` checks it.

        Raises:
            PacketError: as :meth:`decode`.
        """
        raw = reader.read_uint(self._prepared())
        legal = self._legal
        if self._rank and legal is not None:
            if raw >= len(legal):
                raise PacketError(
                    f"mask index {raw} is out of range: the rules of {self._label} allow "
                    f"{len(legal)} masks",
                    bit=reader.position - self._width,
                )
            return legal[raw]
        try:
            check_mask(self.definition, raw)
        except DecodeError as error:
            raise PacketError(str(error), bit=reader.position - self._width) from None
        return raw

    @property
    def _label(self) -> str:
        return repr(self.definition.name) if self.definition.name else "the bitmask"

    def apply(
        self,
        machine: BitmaskMachine[Any],
        value: int,
        *,
        cause: Cause | BitCause = Cause.DESERIALIZATION,
    ) -> None:
        """Set ``machine`` to the mask ``value``; hooks get the matching ``BitCause``
        (network, rolled back, predicted or requested; a ``BitCause`` given is passed as it
        is).

        Raises:
            UsageError: ``cause`` is neither a ``Cause`` nor a ``BitCause``, or ``value`` is
                no mask the rules allow (as ``Codec.apply`` refuses a configuration its
                structure does not allow); the machine is left as it was.
        """
        bit_cause = _bit_cause(cause, "apply")
        try:
            mask = check_mask(self.definition, value)
        except DecodeError as error:
            raise UsageError(str(error)) from None
        machine.apply_mask(mask, cause=bit_cause)

    def receive(self, machine: BitmaskMachine[Any], data: bytes | bytearray | memoryview) -> int:
        """Decode ``data`` and apply it to ``machine``, under ``Cause.DESERIALIZATION``
        (``Codec.receive``); returns the mask.

        Raises:
            PacketError: the packet is bad; the machine is left exactly as it was.
        """
        value = self.decode(data)
        self.apply(machine, value)
        return value

    def caused_by(
        self, machine: BitmaskMachine[Any], cause: Cause | BitCause
    ) -> AbstractContextManager[None]:
        """Requests made in the block without a cause pass the matching ``BitCause``
        (``PREDICTED`` for a prediction, ``ROLLBACK`` for a replayed frame) to their hooks.

        Raises:
            UsageError: ``cause`` is neither a ``Cause`` nor a ``BitCause``.
        """
        return machine.caused_by(_bit_cause(cause, "caused_by"))

    def __repr__(self) -> str:
        mode = "rank" if self.ranked else "mask"
        return f"<BitmaskCodec {self._label} {mode} of {self.header_bits} bit(s)>"


def _whole(value: Any) -> int:
    """``value`` as a mask: NumPy's integers are masks too, True and False are not."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise UsageError(f"a mask is a whole number, got {value!r}")


def legal_masks(definition: BitmaskDefinition) -> tuple[int, ...]:
    """Every mask the rules of ``definition`` allow, in increasing order: each active state
    has its requirements active and excludes none of the others."""
    requires, exclusive = definition.requires_all, definition.exclusive
    legal = []
    for mask in range(1 << definition.size):
        rest = mask
        while rest:
            state = (rest & -rest).bit_length() - 1
            if requires[state] & ~mask or exclusive[state] & mask:
                break
            rest &= rest - 1
        else:
            legal.append(mask)
    return tuple(legal)
