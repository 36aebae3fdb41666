"""Checks run when a rule set is defined, so that bad rules fail before any machine runs."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from difflib import get_close_matches

from statetree.bitmask.bits import lowest_bit
from statetree.bitmask.errors import (
    DuplicateStateError,
    RequirementCycleError,
    RuleConflictError,
    SelfReferenceError,
    StateDataError,
    UnknownStateError,
)
from statetree.bitmask.spec import StateRule

Graph = Sequence[Sequence[int]]


def index_names(rules: Sequence[StateRule]) -> dict[str, int]:
    """Map each state name to its bit index, checking that the names are usable.

    Raises:
        StateDataError: there are no states.
        DuplicateStateError: two states share a name.
        UnknownStateError: a rule names a state that is not defined.
        SelfReferenceError: a state terminates or is blocked by itself.
    """
    if not rules:
        raise StateDataError("a bitmask definition needs at least one state")
    index: dict[str, int] = {}
    for position, rule in enumerate(rules):
        if rule.name in index:
            raise DuplicateStateError(rule.name, index[rule.name], position)
        index[rule.name] = position
    for rule in rules:
        _check_refs(rule, index)
    return index


def _check_refs(rule: StateRule, index: Mapping[str, int]) -> None:
    for kind, ref in rule.refs():
        if ref not in index:
            raise UnknownStateError(rule.name, kind, ref, get_close_matches(ref, index, n=2))
        if ref == rule.name and kind != "requires":
            raise SelfReferenceError(rule.name, kind)


def check_acyclic(requires: Graph, names: Sequence[str]) -> None:
    """Raise :class:`RequirementCycleError` if the requirement graph has a cycle.

    Args:
        requires: for each state, the indices of the states it requires directly.
        names: state names by index, for the message.
    """
    colour = [0] * len(requires)
    for root in range(len(requires)):
        if not colour[root]:
            cycle = _cycle_from(root, requires, colour)
            if cycle:
                raise RequirementCycleError([names[i] for i in cycle])


def _cycle_from(root: int, requires: Graph, colour: list[int]) -> list[int]:
    # Iterative depth-first search: 1 = on the current path, 2 = fully explored.
    path = [root]
    pending: list[Iterator[int]] = [iter(requires[root])]
    colour[root] = 1
    while pending:
        target = next(pending[-1], None)
        if target is None:
            colour[path.pop()] = 2
            pending.pop()
        elif colour[target] == 1:
            return path[path.index(target) :]
        elif colour[target] == 0:
            colour[target] = 1
            path.append(target)
            pending.append(iter(requires[target]))
    return []


def check_conflicts(
    requires: Graph,
    requires_all: Sequence[int],
    forbidden: Mapping[str, Sequence[int]],
    names: Sequence[str],
) -> None:
    """Reject a state that (transitively) requires a state it terminates or is blocked by.

    Args:
        requires: direct requirement indices per state.
        requires_all: transitive requirement mask per state.
        forbidden: per rule name (``"terminates"``, ``"blocked_by"``), a mask per state.
        names: state names by index.

    Raises:
        RuleConflictError: naming the state, the conflicting state and the requirement path.
    """
    for rule, masks in forbidden.items():
        for state, mask in enumerate(masks):
            clash = lowest_bit(requires_all[state] & mask)
            if clash >= 0:
                path = [names[i] for i in requirement_path(requires, state, clash)]
                raise RuleConflictError(names[state], names[clash], rule, path)


def requirement_path(requires: Graph, start: int, goal: int) -> list[int]:
    """Return the shortest chain of direct requirements from ``start`` to ``goal``.

    Returns:
        The indices from ``start`` to ``goal`` inclusive, or an empty list if unreachable.
    """
    previous = {start: start}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            return _unwind(previous, goal)
        for target in requires[node]:
            if target not in previous:
                previous[target] = node
                queue.append(target)
    return []


def _unwind(previous: Mapping[int, int], goal: int) -> list[int]:
    path = [goal]
    while previous[path[-1]] != path[-1]:
        path.append(previous[path[-1]])
    return path[::-1]
