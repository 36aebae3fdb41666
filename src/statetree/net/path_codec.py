"""The mixed-radix path header: each choice on the way down is a digit.

Walking from the top, each choice is written as its index ``i`` among the ``n`` candidates
of its place, scaled by the product of the radices above it: ``header = i0 + n0 * (i1 +
n1 * (...))``. A host's regions form one digit each, of radix the region's largest value
plus one. The header takes the bits of the largest value the tree allows; it works for any
structure, including states reachable from several outers.
"""

from __future__ import annotations

from statetree.net.errors import PacketError
from statetree.net.shape import Pick
from statetree.net.tree import CodecTree, Level, Node, RegionSet

__all__ = ["PathHeader"]


class PathHeader:
    """Encodes picks as a mixed-radix number and back."""

    __slots__ = ("largest", "top", "width")

    def __init__(self, tree: CodecTree) -> None:
        self.top = tree.top
        self.largest = tree.top.largest
        self.width = self.largest.bit_length()

    def value(self, pick: Pick) -> int:
        """The header of the configuration ``pick`` locates."""
        return _level_value(self.top, pick)

    def pick(self, header: int) -> Pick:
        """The configuration ``header`` describes.

        Raises:
            PacketError: ``header`` is above the largest value, or goes on past a state that
                has nothing inside it.
        """
        if header > self.largest:
            raise PacketError(
                f"path header {header} is above the largest value {self.largest}", bit=0
            )
        return _level_pick(self.top, header)


def _level_value(level: Level, pick: Pick) -> int:
    return pick.position + len(level.nodes) * _node_value(pick)


def _node_value(pick: Pick) -> int:
    options = pick.node.options
    if not options:
        return 0
    chosen = options[pick.option]
    if pick.inner is not None:
        inside = _node_value(pick.inner)
    elif isinstance(chosen, RegionSet):
        inside = _regions_value(chosen, pick.regions)
    else:
        inside = 0
    return pick.option + len(options) * inside


def _regions_value(regions: RegionSet, picks: tuple[Pick, ...]) -> int:
    value = 0
    for level, pick in reversed(tuple(zip(regions.levels, picks, strict=True))):
        value = value * (level.largest + 1) + _level_value(level, pick)
    return value


def _level_pick(level: Level, value: int) -> Pick:
    size = len(level.nodes)
    index = value % size
    return _node_pick(level.nodes[index], index, value // size)


def _node_pick(node: Node, index: int, value: int) -> Pick:
    options = node.options
    if not options:
        _check_done(value, node)
        return Pick(node, index, -1, None, ())
    option = value % len(options)
    rest = value // len(options)
    chosen = options[option]
    try:
        if isinstance(chosen, Node):
            return Pick(node, index, option, _node_pick(chosen, option, rest), ())
        if isinstance(chosen, RegionSet):
            return Pick(node, index, option, None, _regions_pick(chosen, rest))
    except PacketError as error:
        raise error.under(node.cls.__name__) from None
    _check_done(rest, node)
    return Pick(node, index, option, None, ())


def _regions_pick(regions: RegionSet, value: int) -> tuple[Pick, ...]:
    picks = []
    for level in regions.levels:
        radix = level.largest + 1
        picks.append(_level_pick(level, value % radix))
        value //= radix
    if value:
        raise PacketError("the path header goes on past the last region", bit=0)
    return tuple(picks)


def _check_done(rest: int, node: Node) -> None:
    if rest:
        raise PacketError(
            "the path header goes on past a state with nothing more inside it",
            bit=0,
            state=node.cls.__name__,
        )
