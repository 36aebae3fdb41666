"""Picks: a configuration located in the codec tree, the form both headers encode.

A :class:`Pick` says, for one active state, which candidate it is at its place and which
option is taken inside it. :func:`resolve` locates a configuration (checking that the
structure allows it); the header decoders produce picks from a header value.
"""

from __future__ import annotations

from typing import NamedTuple

from statetree.errors import UsageError
from statetree.net.configuration import ActiveState
from statetree.net.tree import Level, Node, RegionSet

__all__ = ["Pick", "resolve"]


class Pick(NamedTuple):
    """One active state located in the codec tree.

    Attributes:
        node: its node.
        position: its index among the candidates of its place (a level, or its outer's options).
        option: the index of the option taken inside it (-1 for a state with no options).
        inner: the pick of its inner state, if it has one.
        regions: the picks of its region roots, if it hosts regions.
    """

    node: Node
    position: int
    option: int
    inner: Pick | None
    regions: tuple[Pick, ...]


def resolve(level: Level, active: ActiveState, place: str = "at the top") -> Pick:
    """Locate ``active`` among the candidates of ``level``.

    Raises:
        UsageError: the configuration is not one the structure allows, naming where.
    """
    index = level.choice.get(active.cls)
    if index is None:
        allowed = ", ".join(node.cls.__name__ for node in level.nodes)
        raise UsageError(
            f"{active.cls.__qualname__} cannot be active {place}: the structure allows "
            f"{allowed} there (a transition missing from the structure?)"
        )
    return _inside(level.nodes[index], index, active)


def _inside(node: Node, index: int, active: ActiveState) -> Pick:
    if active.regions:
        return Pick(node, index, node.regions, None, _regions(node, active.regions))
    inner = active.inner
    if inner is None:
        if node.options and node.empty < 0:
            raise _never_empty(node)
        return Pick(node, index, node.empty, None, ())
    option = node.choice.get(inner.cls)
    child = node.options[option] if option is not None else None
    if not isinstance(child, Node) or option is None:
        raise UsageError(
            f"{inner.cls.__qualname__} cannot be inside {node.cls.__qualname__}: the structure "
            "has no such transition (declare it with statetree.structure.targets)"
        )
    return Pick(node, index, option, _inside(child, option, inner), ())


def _never_empty(node: Node) -> UsageError:
    return UsageError(
        f"{node.cls.__qualname__} has no inner state, but the codec expects one once the "
        "machine settles (it has an inner-entry or concurrent transition); process the "
        "machine's transitions first, or build the codec with "
        f"settles_empty={{{node.name!r}: True}}"
    )


def _regions(node: Node, roots: tuple[ActiveState, ...]) -> tuple[Pick, ...]:
    host = node.cls.__qualname__
    option = node.options[node.regions] if node.regions >= 0 else None
    if not isinstance(option, RegionSet):
        raise UsageError(f"{host} has regions, but the structure gives it no concurrent transition")
    if len(roots) != len(option.levels):
        raise UsageError(
            f"{host} has {len(roots)} region(s), but its concurrent transitions enter "
            f"{len(option.levels)}"
        )
    return tuple(
        resolve(level, root, f"in region {i} of {host}")
        for i, (level, root) in enumerate(zip(option.levels, roots, strict=True))
    )
