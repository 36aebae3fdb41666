"""The order and causes of the changes one request makes, computed before anything changes."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from statetree.bitmask.bits import iter_bits, lowest_bit
from statetree.bitmask.records import BitCause

if TYPE_CHECKING:
    from statetree.bitmask.definition import BitmaskDefinition

Step = tuple[int, BitCause, int]
"""``(state index, cause, index of the responsible state or -1)``."""


def dependents_first(states: Iterable[int], requires: Callable[[int], int]) -> list[int]:
    """``states`` ordered so that each comes before every one of them it requires (the
    mask ``requires(state)``, within ``states``); whenever several may come next, the
    later-declared (higher index) comes first."""
    listed = list(states)
    waiting = dict.fromkeys(listed, 0)
    for state in listed:
        for ref in iter_bits(requires(state)):
            waiting[ref] += 1
    ready = [-state for state in listed if not waiting[state]]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:  # Kahn's algorithm: a state goes once nothing left requires it
        state = -heapq.heappop(ready)
        order.append(state)
        for ref in iter_bits(requires(state)):
            waiting[ref] -= 1
            if not waiting[ref]:
                heapq.heappush(ready, -ref)
    return order


def teardown(definition: BitmaskDefinition, remove: int) -> list[int]:
    """Return the states of ``remove`` in teardown order: dependents before the states they
    require; among states that do not depend on each other, the later-declared first.

    Removing them one by one in this order keeps every intermediate mask consistent: no
    active state ever lacks a requirement.
    """
    if not remove & (remove - 1):  # one state (or none): the usual request
        return [remove.bit_length() - 1] if remove else []
    requires = definition.requires_all
    return dependents_first(iter_bits(remove), lambda state: requires[state] & remove)


def setup(definition: BitmaskDefinition, add: int) -> list[int]:
    """Return the states of ``add`` in setup order: the teardown order reversed
    (requirements first)."""
    return teardown(definition, add)[::-1]


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
