"""The shape of an active configuration: the main stack plus the stacks of regions.

A state that entered concurrent regions (``st.concurrent(...)``) is always the last of its
stack; each of its regions is a stack of its own. These helpers walk that tree without
changing it. ``regions`` maps each such host state, by identity (``id``), to its region
stacks: states compare by identity, and a state class may define ``==`` or be unhashable.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from statetree.core.state import State

__all__ = ["Regions", "ancestors", "descendants", "home_of", "index_in", "walk"]

Stack = list[State[Any]]
Regions = dict[int, list[Stack]]
"""Each host state's region stacks, by the host's ``id``."""


def walk(stack: Stack, regions: Regions) -> Iterator[State[Any]]:
    """Every state, depth first: a stack's states in order, then its host's regions."""
    yield from stack
    if stack and regions:
        for region in regions.get(id(stack[-1]), ()):
            yield from walk(region, regions)


def index_in(stack: Stack, state: State[Any]) -> int:
    """The index of ``state`` itself in ``stack``, else -1: states compare by identity (a
    state class may define ``==``, a dataclass's say, and two of its states be equal)."""
    for index, held in enumerate(stack):
        if held is state:
            return index
    return -1


def home_of(state: State[Any], stack: Stack, regions: Regions) -> tuple[Stack, ...] | None:
    """The chain of stacks from the main one to the one holding ``state``, or ``None``."""
    if index_in(stack, state) >= 0:
        return (stack,)
    if stack and regions:
        for region in regions.get(id(stack[-1]), ()):
            chain = home_of(state, region, regions)
            if chain is not None:
                return (stack, *chain)
    return None


def place_of(state: State[Any], stack: Stack, regions: Regions) -> tuple[int, ...] | None:
    """Where ``state`` is: its index in ``stack``, or its host's index, its region's number
    and its place in that region (recursively). Places compare as the walk visits states,
    so ``stop()`` exits them in decreasing order; ``None`` if it is not active."""
    index = index_in(stack, state)
    if index >= 0:
        return (index,)
    if stack and regions:
        for number, region in enumerate(regions.get(id(stack[-1]), ())):
            inner = place_of(state, region, regions)
            if inner is not None:
                return (len(stack) - 1, number, *inner)
    return None


def ancestors(state: State[Any], stack: Stack, regions: Regions) -> list[State[Any]]:
    """The states outside ``state``, outermost first (empty if it is not active)."""
    chain = home_of(state, stack, regions)
    if chain is None:
        return []
    outer = [s for host_stack in chain[:-1] for s in host_stack]
    home = chain[-1]
    return outer + home[: index_in(home, state)]


def descendants(state: State[Any], stack: Stack, regions: Regions) -> Iterator[State[Any]]:
    """The states inside ``state``, in processing order."""
    chain = home_of(state, stack, regions)
    if chain is None:
        return
    home = chain[-1]
    below = home[index_in(home, state) + 1 :]
    yield from below
    for region in regions.get(id(home[-1]), ()) if regions else ():
        yield from walk(region, regions)


def immediate_inners(state: State[Any], stack: Stack, regions: Regions) -> list[State[Any]]:
    """The states right inside ``state``: its next state, or its regions' roots."""
    chain = home_of(state, stack, regions)
    if chain is None:
        return []
    home = chain[-1]
    index = index_in(home, state)
    if index + 1 < len(home):
        return [home[index + 1]]
    return [region[0] for region in (regions.get(id(state), ()) if regions else ()) if region]
