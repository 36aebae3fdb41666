"""The mixed-radix path header: each choice on the way down is a digit.

Walking from the top, each choice is written as its index ``i`` among the ``n`` candidates
of its place, scaled by the product of the radices above it: ``header = i0 + n0 * (i1 +
n1 * (...))``. A host's regions form one digit each, of radix the region's largest value
plus one. The header takes the bits of the largest value the tree allows; it works for any
structure, including states reachable from several outers.
"""

from __future__ import annotations

from dataclasses import dataclass

from statetree.net.errors import PacketError
from statetree.net.shape import Pick
from statetree.net.tree import CodecTree, Level, Node, Option, RegionSet

__all__ = ["HeaderDigit", "PathHeader", "digits"]


@dataclass(frozen=True, slots=True)
class HeaderDigit:
    """One choice of a path header: the header is the sum of ``index * weight``.

    Attributes:
        place: where the choice is made: ``top``, the state choosing what is inside it, or
            ``Host[region i]``.
        choice: what was chosen: a state's name, ``nothing`` or ``regions``.
        index: the chosen candidate's index among the ``radix`` candidates of ``place``.
        radix: how many candidates ``place`` has.
        weight: the product of the radices above this digit.
    """

    place: str
    choice: str
    index: int
    radix: int
    weight: int

    def __str__(self) -> str:
        return f"{self.place}: {self.choice} ({self.index} of {self.radix}, x{self.weight})"


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


def digits(top: Level, pick: Pick) -> tuple[HeaderDigit, ...]:
    """The digits of the header of ``pick``, from the top down (regions in order).

    Places with a single candidate are left out: they choose nothing and add nothing.
    """
    found: list[HeaderDigit] = []
    _level_digits(top, pick, "top", 1, found)
    return tuple(found)


def _level_digits(
    level: Level, pick: Pick, place: str, weight: int, found: list[HeaderDigit]
) -> None:
    size = len(level.nodes)
    if size > 1:
        found.append(HeaderDigit(place, pick.node.cls.__name__, pick.position, size, weight))
    _node_digits(pick, weight * size, found)


def _node_digits(pick: Pick, weight: int, found: list[HeaderDigit]) -> None:
    node, options = pick.node, pick.node.options
    if not options:
        return
    chosen = options[pick.option]
    name = node.cls.__name__
    if len(options) > 1:
        found.append(HeaderDigit(name, _option_name(chosen), pick.option, len(options), weight))
    inside = weight * len(options)
    if pick.inner is not None:
        _node_digits(pick.inner, inside, found)
    elif isinstance(chosen, RegionSet):
        for number, (level, region) in enumerate(zip(chosen.levels, pick.regions, strict=True)):
            _level_digits(level, region, f"{name}[region {number}]", inside, found)
            inside *= level.largest + 1


def _option_name(option: Option) -> str:
    if isinstance(option, Node):
        return option.cls.__name__
    return "regions" if isinstance(option, RegionSet) else "nothing"


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
