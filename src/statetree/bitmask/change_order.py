"""The order and causes of the changes one request makes, computed before anything changes."""

from __future__ import annotations

from statetree.bitmask.bits import iter_bits, lowest_bit
from statetree.bitmask.definition import BitmaskDefinition
from statetree.bitmask.records import BitCause

Step = tuple[int, BitCause, int]
"""``(state index, cause, index of the responsible state or -1)``."""


def teardown(definition: BitmaskDefinition, remove: int) -> list[int]:
    """Return the states of ``remove`` in teardown order (dependents first).

    Removing them one by one in this order keeps every intermediate mask consistent: no
    active state ever lacks a requirement.
    """
    return sorted(iter_bits(remove), key=definition.teardown_rank.__getitem__)


def setup(definition: BitmaskDefinition, add: int) -> list[int]:
    """Return the states of ``add`` in setup order (requirements first)."""
    return sorted(iter_bits(add), key=definition.teardown_rank.__getitem__, reverse=True)


def removal_steps(
    definition: BitmaskDefinition,
    remove: int,
    origin: int,
    origin_cause: BitCause,
    terminator: int = -1,
) -> list[Step]:
    """Plan the deactivations caused by one request.

    Args:
        definition: the rules.
        remove: every state to deactivate (a mask, all currently active).
        origin: the state the request deactivates itself, or -1.
        origin_cause: the cause given to ``origin``.
        terminator: the state being activated whose ``terminates`` list applies, or -1.

    Returns:
        Steps in teardown order. States in the terminator's list get ``TERMINATED``; the
        others lose a requirement and name the first required state that goes with them.
    """
    terminated = definition.terminates[terminator] if terminator >= 0 else 0
    steps: list[Step] = []
    for state in teardown(definition, remove):
        if state == origin:
            steps.append((state, origin_cause, -1))
        elif terminated >> state & 1:
            steps.append((state, BitCause.TERMINATED, terminator))
        else:
            lost = lowest_bit(definition.requires[state] & remove)
            steps.append((state, BitCause.LOST_REQUIREMENT, lost))
    return steps
