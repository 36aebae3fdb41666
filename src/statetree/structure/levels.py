"""Depth levels: at which depths of the stack each state of a structure can be."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from statetree.core.transition import TransitionKind

if TYPE_CHECKING:
    from statetree.structure.model import Edge

__all__ = ["Levels", "compute_levels"]


@dataclass(frozen=True, slots=True)
class Levels:
    """The depths of every reachable state, and the states whose depth has no bound."""

    depths: Mapping[str, frozenset[int]]
    unbounded: frozenset[str]


def compute_levels(initial: str, states: Iterable[str], edges: Iterable[Edge]) -> Levels:
    """Walk the edges from ``initial`` (depth 0): siblings keep the depth, inners add one.

    Without cycles through inner edges no state is deeper than the number of states minus
    one; a state that can be (it can be pushed inside itself, or follows such a state) is
    reported in ``unbounded``, and its depths are only listed up to a cut-off.
    """
    known = set(states)
    out: dict[str, list[tuple[str, int]]] = {}
    for edge in edges:
        if edge.source in known and edge.target in known:
            step = 0 if edge.kind is TransitionKind.SIBLING else 1
            out.setdefault(edge.source, []).append((edge.target, step))
    found = _explore(initial, out, cutoff=3 * len(known))
    unbounded = frozenset(name for name, depths in found.items() if max(depths) >= len(known))
    frozen = {
        name: frozenset(d for d in depths if name not in unbounded or d < len(known))
        for name, depths in found.items()
    }
    return Levels(MappingProxyType(frozen), unbounded)


def _explore(
    initial: str, out: Mapping[str, list[tuple[str, int]]], cutoff: int
) -> dict[str, set[int]]:
    """Every ``(state, depth)`` reachable from ``(initial, 0)`` with depth below ``cutoff``."""
    found: dict[str, set[int]] = {initial: {0}}
    queue = deque([(initial, 0)])
    while queue:
        name, depth = queue.popleft()
        for target, step in out.get(name, ()):
            deeper = depth + step
            if deeper < cutoff and deeper not in found.setdefault(target, set()):
                found[target].add(deeper)
                queue.append((target, deeper))
    return found
