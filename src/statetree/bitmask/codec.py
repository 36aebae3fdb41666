"""Masks as bytes for replication: the minimal fixed length, checked against the rules."""

from __future__ import annotations

from numbers import Integral

from statetree.bitmask.bits import iter_bits, join_names, lowest_bit
from statetree.bitmask.definition import BitmaskDefinition
from statetree.errors import DecodeError, UsageError


def encode_mask(definition: BitmaskDefinition, mask: int) -> bytes:
    """Encode a mask in ``definition.byte_length`` bytes, little-endian (state 0 = bit 0).

    Raises:
        UsageError: ``mask`` is no integer, is negative or sets bits beyond the defined
            states.
    """
    if isinstance(mask, bool) or not isinstance(mask, Integral):  # NumPy's integers too
        raise UsageError(f"{_label(definition)}: a mask is an integer, got {mask!r}")
    mask = int(mask)
    if mask < 0 or mask >> definition.size:
        raise UsageError(
            f"mask {mask:#x} does not fit the {definition.size} states of {_label(definition)}"
        )
    return mask.to_bytes(definition.byte_length, "little")


def decode_mask(definition: BitmaskDefinition, data: bytes | bytearray | memoryview) -> int:
    """Decode and validate bytes produced by :func:`encode_mask`.

    Returns:
        The mask.

    Raises:
        DecodeError: not bytes, the length is wrong, bits beyond the defined states are
            set, or the combination of states breaks the rules (naming the states involved).
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DecodeError(f"{_label(definition)}: expected bytes, got {type(data).__name__}")
    if isinstance(data, memoryview):  # its length counts items, which may be wider than bytes
        data = data.tobytes()
    if len(data) != definition.byte_length:
        raise DecodeError(
            f"{_label(definition)}: expected {definition.byte_length} byte(s) for "
            f"{definition.size} states, got {len(data)}"
        )
    mask = int.from_bytes(data, "little")
    check_mask(definition, mask)
    return mask


def check_mask(definition: BitmaskDefinition, mask: int) -> int:
    """Check that ``mask`` is a combination the rules allow; return it as an ``int``.

    Raises:
        DecodeError: not an integer, or naming the offending bit or states.
    """
    if isinstance(mask, bool) or not isinstance(mask, Integral):  # NumPy's integers too
        raise DecodeError(f"{_label(definition)}: a mask is an integer, got {mask!r}")
    mask = int(mask)
    if mask < 0:
        raise DecodeError(f"{_label(definition)}: a mask cannot be negative ({mask})")
    extra = lowest_bit(mask >> definition.size)
    if extra >= 0:
        raise DecodeError(
            f"{_label(definition)}: bit {definition.size + extra} is set but only "
            f"{definition.size} states are defined (bits 0-{definition.size - 1})"
        )
    problem = mask_problem(definition, mask)
    if problem:
        raise DecodeError(f"{_label(definition)}: {problem}")
    return mask


def mask_problem(definition: BitmaskDefinition, mask: int) -> str | None:
    """Describe why ``mask`` breaks the rules, or return None if it does not.

    A mask breaks the rules if an active state lacks a requirement, or if two active states
    exclude each other (whichever activated later would have terminated the other or been
    blocked by it).
    """
    for state in iter_bits(mask):
        missing = definition.requires_all[state] & ~mask
        if missing:
            names = definition.names_in(missing)
            verb = "is" if len(names) == 1 else "are"
            return (
                f"{definition.names[state]} is active but requires {join_names(names)}, "
                f"which {verb} not active"
            )
    for state in iter_bits(mask):
        other = lowest_bit(definition.exclusive[state] & mask)
        if other >= 0:
            return exclusion_reason(definition, state, other)
    return None


def exclusion_reason(definition: BitmaskDefinition, first: int, second: int) -> str:
    """Explain why two states can never be active together.

    Args:
        definition: the rules.
        first: a state index.
        second: a state index in ``definition.exclusive[first]``.
    """
    names = definition.names
    pair = f"{names[first]} and {names[second]} cannot be active together"
    for a in iter_bits(definition.bits[first] | definition.requires_all[first]):
        for b in iter_bits(definition.bits[second] | definition.requires_all[second]):
            one, other = _later_fails(definition, a, b), _later_fails(definition, b, a)
            if one and other:
                direct = (a, b) == (first, second)
                needs = "" if direct else f" (they need {names[a]} and {names[b]})"
                return f"{pair}{needs}: {one}, and {other}"
    return pair


def _later_fails(definition: BitmaskDefinition, later: int, earlier: int) -> str | None:
    # Why `later` cannot be activated while `earlier` stays active, if it cannot.
    names = definition.names
    needed = definition.bits[earlier] | definition.requires_all[earlier]
    cut = lowest_bit(definition.terminates[later] & needed)
    if cut >= 0:
        via = "" if cut == earlier else f", which {names[earlier]} requires"
        return f"activating {names[later]} terminates {names[cut]}{via}"
    blocker = lowest_bit(definition.blocked_by[later] & needed)
    if blocker >= 0:
        via = "" if blocker == earlier else f", which {names[earlier]} requires"
        return f"{names[later]} is blocked by {names[blocker]}{via}"
    return None


def _label(definition: BitmaskDefinition) -> str:
    return f"bitmask {definition.name!r}" if definition.name else "bitmask"
