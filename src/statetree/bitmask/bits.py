"""Small helpers for masks stored as Python ints (one bit per state, any number of states)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first.

    Args:
        mask: a non-negative int.

    Returns:
        An iterator over bit indices.
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest_bit(mask: int) -> int:
    """Return the index of the lowest set bit of ``mask``, or -1 if it is zero."""
    return (mask & -mask).bit_length() - 1


def mask_from(indices: Iterable[int]) -> int:
    """Return the mask with exactly the bits ``indices`` set."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def names_in(mask: int, names: Sequence[str]) -> tuple[str, ...]:
    """Return the names of the set bits of ``mask``, in bit order."""
    return tuple(names[index] for index in iter_bits(mask))


def join_names(names: Sequence[str]) -> str:
    """Join names for a message: ``A``, ``A and B``, ``A, B and C``."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
