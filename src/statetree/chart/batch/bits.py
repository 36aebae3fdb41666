"""Flags packed into words: one bit per state of each agent.

An agent's active states are a bit mask in the smallest unsigned integer that holds them
(up to 64 states), or in several 64-bit words. Packed, gathering or writing back the flags
of many agents moves a few bytes each instead of one byte per state.
"""

from __future__ import annotations

from typing import Any

from statetree.chart.batch.arrays import Bools, Indexes, NDArray, np

__all__ = ["Bits", "Packed"]

Packed = NDArray[np.unsignedinteger]
"""Packed flags, shape ``(words, agents)``."""

_TYPES = ((8, np.uint8), (16, np.uint16), (32, np.uint32))


class Bits:
    """``count`` flags per agent, packed into ``words`` words of type ``dtype``.

    Flag ``i`` is bit ``i % width`` of word ``i // width``.
    """

    __slots__ = ("count", "dtype", "masks", "rows", "shifts", "width", "words")

    # Declared so that the build's type check (which compiles the core without NumPy's
    # stubs at hand) still knows what they are.
    width: int
    dtype: type[np.unsignedinteger[Any]]

    def __init__(self, count: int) -> None:
        self.count = count
        self.width, self.dtype = next(
            ((bits, kind) for bits, kind in _TYPES if count <= bits), (64, np.uint64)
        )
        self.words = max(1, -(-count // self.width))
        flags = np.arange(count)
        self.rows: Indexes = flags // self.width
        shifts = (flags % self.width).astype(np.uint64)
        self.masks: Packed = (np.ones(count, np.uint64) << shifts).astype(self.dtype)
        self.shifts = [self.dtype(shift) for shift in shifts.tolist()]

    def zeros(self, agents: int) -> Packed:
        """Packed flags of ``agents`` agents, all clear."""
        return np.zeros((self.words, agents), self.dtype)

    def unpack(self, packed: Packed) -> Bools:
        """``(count, agents)`` booleans from packed flags."""
        flags: Bools = (packed[self.rows] & self.masks[:, None]) != 0
        return flags

    def pack(self, flags: Bools) -> Packed:
        """Packed flags from ``(count, agents)`` booleans."""
        packed = self.zeros(flags.shape[1])
        ones = flags.view(np.uint8)
        for flag, (row, shift) in enumerate(zip(self.rows.tolist(), self.shifts, strict=True)):
            packed[row] |= np.left_shift(ones[flag], shift, dtype=self.dtype)
        return packed

    def flag(self, packed: Packed, index: int) -> Bools:
        """Flag ``index`` of every agent of ``packed``."""
        row: Bools = (packed[self.rows[index]] & self.masks[index]) != 0
        return row

    def flags(self, packed: Packed, numbers: Indexes, ids: Indexes) -> Bools:
        """``(len(numbers), len(ids))``: flags ``numbers`` of agents ``ids``."""
        if self.words == 1:
            words = packed[0][ids]
            return (words & self.masks[numbers, None]) != 0  # type: ignore[no-any-return]
        return self.take(packed, ids)[numbers]

    def take(self, packed: Packed, ids: Indexes) -> Bools:
        """The flags of agents ``ids``, unpacked."""
        return self.unpack(packed.take(ids, axis=1))
