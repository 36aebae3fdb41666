"""A :class:`Structure` laid out for drawing, independent of the output format.

Renderers (DOT, Mermaid) only translate a :class:`Diagram`; every decision about labels,
colours, clusters and highlighting is made here once.
"""

from __future__ import annotations

import enum
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import get_close_matches
from itertools import pairwise
from typing import Any

from statetree.core.state import State
from statetree.core.transition import TransitionKind
from statetree.errors import UsageError
from statetree.plot.style import DEFAULT_STYLE, PlotStyle, require_style
from statetree.structure.model import Edge, Structure, require_structure

__all__ = [
    "Active",
    "Cluster",
    "Diagram",
    "Link",
    "Node",
    "NodeKind",
    "active_items",
    "build_diagram",
]

Active = Iterable["str | type[State[Any]] | State[Any]"]
"""The active states, outermost first: names, classes, or a machine's ``stack``."""


class NodeKind(enum.Enum):
    """What a node stands for."""

    STATE = "state"
    UNREACHABLE = "unreachable"
    UNKNOWN = "unknown"
    """A transition target that is not a state of the structure."""


@dataclass(frozen=True, slots=True)
class Node:
    """A state to draw: ``key`` is its name in the structure.

    ``initial`` marks the machine's initial state, drawn with a start marker pointing at it.
    """

    key: str
    label: str
    kind: NodeKind
    depth: int | None
    fill: str
    text: str
    active: bool
    initial: bool = False


@dataclass(frozen=True, slots=True)
class Link:
    """A transition to draw.

    ``label`` is the text drawn on the arrow (empty for none): when the transition is
    taken (``input: Attack``, ``timer: Window``), and ``override`` when a machine may push
    another class in place of the target.
    """

    source: str
    target: str
    kind: TransitionKind
    overridable: bool
    active: bool
    label: str = ""
    apart: bool = False
    """A sibling transition to a state that is not next to its source, with a transition
    back: Graphviz draws both along one path, so DOT puts their labels at their heads."""


@dataclass(frozen=True, slots=True)
class Cluster:
    """States drawn in one box because their names share ``label`` + ``_``."""

    label: str
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Diagram:
    """Everything a renderer draws.

    Attributes:
        title: the name of the initial state.
        nodes: in structure order, unknown targets last.
        links: in structure order.
        clusters: in order of their first member.
        layout: ``(outer, state)`` pairs that place each state one level below a state it
            can be inner of; ``None`` stands for a hidden root above the depth-0 states.
        style: the style the colours came from.
    """

    title: str
    nodes: tuple[Node, ...]
    links: tuple[Link, ...]
    clusters: tuple[Cluster, ...]
    layout: tuple[tuple[str | None, str], ...]
    style: PlotStyle

    @property
    def has_root(self) -> bool:
        """Whether the layout uses a hidden root (several states at depth 0)."""
        return any(outer is None for outer, _ in self.layout)


def active_items(active: object) -> tuple[object, ...]:
    """The states an ``active`` argument lists.

    Raises:
        UsageError: ``active`` lists nothing: a string, or no iterable at all (a machine
            rather than its ``stack``, say).
    """
    # A string iterates its letters: refused rather than read as one state per letter.
    if not isinstance(active, (str, bytes)):
        try:
            listed = iter(active)  # type: ignore[call-overload]
        except TypeError:
            pass
        else:
            return tuple(listed)
    raise UsageError(
        "active takes the states to highlight: names, state classes, machine.stack or a "
        f"bitmask machine's active_states; got {active!r} ({type(active).__name__})"
    )


def _active_names(structure: Structure, active: Active) -> tuple[str, ...]:
    names = []
    for item in active_items(active):
        if isinstance(item, str):
            name, shown = item, repr(item)
        elif isinstance(item, type) and issubclass(item, State):
            name, shown = structure.name_of(item), item.__qualname__
        elif isinstance(item, State):
            name, shown = structure.name_of(type(item)), f"a {type(item).__qualname__} state"
        else:
            raise UsageError(
                f"active holds {item!r} ({type(item).__name__}); it takes state names, "
                "state classes or states"
            )
        if name not in structure:
            close = get_close_matches(name, structure.names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UsageError(
                f"active holds {shown}, which is no state of the structure of "
                f"{structure.initial!r}{hint}"
            )
        names.append(name)
    return tuple(names)


def _suffixes(names: list[str]) -> dict[str, str]:
    """For each dotted name, its shortest ending that no other name shares."""
    parts = {name: name.split(".") for name in names}
    chosen: dict[str, str] = {}
    for size in range(1, max((len(p) for p in parts.values()), default=0) + 1):
        endings = Counter(".".join(p[-size:]) for p in parts.values())
        for name, split in parts.items():
            ending = ".".join(split[-size:])
            if name not in chosen and (endings[ending] == 1 or size >= len(split)):
                chosen[name] = ending
    return chosen


def _labels(structure: Structure) -> dict[str, str]:
    """The shortest unambiguous name (``Stand``, or ``Attack1.Pre`` when ``Pre`` repeats),
    the state's note on a line of its own."""
    shorts = _suffixes([info.name for info in structure.states])
    labels = {}
    for info in structure.states:
        name = shorts[info.name]
        depths = structure.depths(info.name)
        level = "?" if not depths else f"{min(depths)}{'+' * (len(depths) > 1)}"
        note = f"\n{info.note}" if info.note else ""
        labels[info.name] = f"{name} ({level}){note}"
    return labels


def _node(name: str, structure: Structure, label: str, active: bool, style: PlotStyle) -> Node:
    depth = structure.depth(name)
    initial = name == structure.initial
    if active:
        fill, text = style.active_fill, style.active_text
        return Node(name, label, NodeKind.STATE, depth, fill, text, True, initial)
    if depth is None:
        fill, text = style.unreachable_fill, style.dark_text
        return Node(name, label, NodeKind.UNREACHABLE, None, fill, text, False)
    fill, text = style.fill(depth), style.text(depth)
    return Node(name, label, NodeKind.STATE, depth, fill, text, False, initial)


def _nodes(structure: Structure, active: tuple[str, ...], style: PlotStyle) -> list[Node]:
    labels = _labels(structure)
    nodes = [_node(n, structure, labels[n], n in active, style) for n in structure.names]
    endpoints = (name for edge in structure.edges for name in (edge.source, edge.target))
    for name in dict.fromkeys(n for n in endpoints if n not in structure):
        fill, text = style.unreachable_fill, style.unknown_line
        nodes.append(Node(name, f"{name} (unknown)", NodeKind.UNKNOWN, None, fill, text, False))
    return nodes


def _links(structure: Structure, active: tuple[str, ...]) -> list[Link]:
    apart = _apart(structure)
    return [
        Link(
            edge.source,
            edge.target,
            edge.kind,
            edge.overridable,
            _lit(edge, active),
            _link_label(edge),
            (edge.source, edge.target) in apart,
        )
        for edge in structure.edges
    ]


def _apart(structure: Structure) -> set[tuple[str, str]]:
    """The sibling edges with an edge back whose states are not next to each other in their
    row (the states with the same outer, in structure order)."""
    outer = _outers(structure)
    rows: dict[str | None, list[str]] = {}
    for info in structure.states:
        if info.name in outer:
            rows.setdefault(outer[info.name], []).append(info.name)
    place = {name: (row, index) for row, names in rows.items() for index, name in enumerate(names)}
    siblings = {(e.source, e.target) for e in structure.edges if e.kind is TransitionKind.SIBLING}
    apart = set()
    for source, target in siblings:
        if (target, source) in siblings and source in place and target in place:
            (row, index), (other_row, other_index) = place[source], place[target]
            if row != other_row or abs(index - other_index) > 1:
                apart.add((source, target))
    return apart


def _link_label(edge: Edge) -> str:
    """The edge's own label, then ``override`` for an overridable target."""
    return ", ".join(text for text in (edge.label, "override" * edge.overridable) if text)


def _lit(edge: Edge, active: tuple[str, ...]) -> bool:
    """Whether ``edge`` links two states of the active configuration.

    ``active`` lists states depth first, so an inner follows its outer directly; a region
    root follows its host only for the first region, so region links are lit whenever both
    ends are active.
    """
    if edge.kind is TransitionKind.SIBLING:
        return False
    if edge.kind is TransitionKind.CONCURRENT:
        return edge.source in active and edge.target in active
    return (edge.source, edge.target) in set(pairwise(active))


def _clusters(structure: Structure) -> list[Cluster]:
    groups: dict[str, list[str]] = {}
    for info in structure.states:
        prefix, underscore, rest = info.short_name.partition("_")
        if prefix and underscore and rest:
            groups.setdefault(prefix, []).append(info.name)
    return [Cluster(label, tuple(names)) for label, names in groups.items() if len(names) > 1]


def _outers(structure: Structure) -> dict[str, str | None]:
    """For each reachable state, a state it can be the immediate inner of (``None``: none).

    Walks the edges that keep every state at its smallest depth: an inner edge gives the
    outer directly, a sibling edge passes on its source's outer.
    """
    outer: dict[str, str | None] = {structure.initial: None}
    queue = deque([structure.initial])
    while queue:
        source = queue.popleft()
        source_depth = structure.depth(source)
        for edge in structure.edges_from(source):
            step = 0 if edge.kind is TransitionKind.SIBLING else 1
            target_depth = structure.depth(edge.target)
            if edge.target in outer or target_depth is None or source_depth is None:
                continue
            if target_depth == source_depth + step:
                outer[edge.target] = outer[source] if step == 0 else source
                queue.append(edge.target)
    return outer


def _layout(structure: Structure) -> list[tuple[str | None, str]]:
    """Invisible ``(outer, state)`` links that put each state one level below an outer.

    ``None`` is a hidden root, used when several states are at depth 0. Links already
    drawn (inner transitions) are left out.
    """
    outer = _outers(structure)
    roots = sum(1 for parent in outer.values() if parent is None)
    drawn = {(e.source, e.target) for e in structure.edges if e.kind is not TransitionKind.SIBLING}
    return [
        (parent, state)
        for state, parent in outer.items()
        if (parent is not None or roots > 1) and (parent, state) not in drawn
    ]


def build_diagram(
    structure: Structure, active: Active = (), style: PlotStyle = DEFAULT_STYLE
) -> Diagram:
    """Lay out ``structure``; ``active`` (outermost first) is highlighted.

    Raises:
        UsageError: ``structure`` is not a :class:`~statetree.structure.Structure`,
            ``active`` is no collection of its states, or ``style`` is no ``PlotStyle``.
    """
    require_structure(structure, "a plot")
    require_style(style)
    names = _active_names(structure, active)
    return Diagram(
        structure.initial,
        tuple(_nodes(structure, names, style)),
        tuple(_links(structure, names)),
        tuple(_clusters(structure)) if style.clusters else (),
        tuple(_layout(structure)),
        style,
    )
