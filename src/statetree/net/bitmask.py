"""Bitmask machines behind the common codec interface, using the bitmask package's codec.

The bytes are those of ``BitmaskMachine.encode`` (one bit per state, little-endian, the
fewest whole bytes); decoding checks the rules as ``decode_mask`` does. Rollback, the
transport and the benchmarks then treat bitmask machines like state machines.
"""

from __future__ import annotations

import contextlib
import math
from contextlib import AbstractContextManager
from typing import Any

from statetree.bitmask import BitCause, BitmaskDefinition, BitmaskMachine, decode_mask, mask_problem
from statetree.core.cause import Cause
from statetree.errors import UsageError

__all__ = ["BitmaskCodec"]

_BIT_CAUSES = {
    Cause.TRANSITION: BitCause.REQUESTED,
    Cause.DESERIALIZATION: BitCause.NETWORK,
    Cause.PREDICTION: BitCause.PREDICTED,
    Cause.RESIMULATION: BitCause.ROLLBACK,
}
_COUNTABLE = 20
"""Legal masks are counted by trying every mask: up to this many states."""


class BitmaskCodec:
    """The codec of the bitmask machines of one definition; values are masks (ints)."""

    __slots__ = ("_count", "definition")

    def __init__(self, definition: BitmaskDefinition) -> None:
        self.definition = definition
        self._count: int | None = None

    @property
    def configurations(self) -> int:
        """How many masks the rules allow (the empty mask included).

        Raises:
            UsageError: the definition has more than 20 states (too many masks to try).
        """
        if self._count is None:
            size = self.definition.size
            if size > _COUNTABLE:
                raise UsageError(
                    f"counting the legal masks of {size} states means trying 2**{size} masks; "
                    f"only definitions of up to {_COUNTABLE} states are counted"
                )
            legal = (m for m in range(1 << size) if mask_problem(self.definition, m) is None)
            self._count = sum(1 for _ in legal)
        return self._count

    @property
    def header_bits(self) -> int:
        """The packet size in bits: one per state, rounded up to whole bytes."""
        return 8 * self.definition.byte_length

    @property
    def minimum_bits(self) -> int:
        """``ceil(log2(configurations))``."""
        return math.ceil(math.log2(self.configurations))

    def capture(self, machine: BitmaskMachine[Any]) -> int:
        """The machine's mask."""
        return machine.mask

    def encode(self, machine: BitmaskMachine[Any]) -> bytes:
        """The machine's mask as bytes."""
        return machine.encode()

    def decode(self, data: bytes | bytearray | memoryview) -> int:
        """The mask ``data`` holds, checked against the rules.

        Raises:
            DecodeError: wrong length, unknown bits, or states the rules forbid together.
        """
        return decode_mask(self.definition, data)

    def apply(
        self, machine: BitmaskMachine[Any], value: int, *, cause: Cause = Cause.DESERIALIZATION
    ) -> None:
        """Set ``machine`` to the mask ``value``; hooks get the matching ``BitCause``
        (network, rolled back, predicted or requested)."""
        machine.apply_mask(value, cause=_BIT_CAUSES[cause])

    def caused_by(self, machine: BitmaskMachine[Any], cause: Cause) -> AbstractContextManager[None]:
        """Nothing to set: bitmask hooks receive the cause of each request as an argument."""
        return contextlib.nullcontext()
