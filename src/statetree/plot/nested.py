"""A structure drawn as a statechart: each state's children inside it.

The book's layout (:mod:`statetree.plot.dot`) draws every state as a box one row below the
state it can be inside, so that a state reused in several places is drawn once. When every
state has one place (a chart always; a class-based machine whose states are not reused),
the structure is a tree, and it reads as people who use statechart tools expect:

* a state with children is a box holding them, its name at its top left;
* a dot inside it points at the child it enters first; a state that chooses its child by
  conditions (inner transitions without an entry) has a diamond there instead, with one
  labelled arrow per child;
* a state that enters its first child and moves on by inner transitions (a sequence) draws
  each inner transition from the child before its target;
* a concurrent region is a dashed box; sibling transitions are dotted arrows between the
  states (to and from a box's border when the state has children);
* the active states are drawn in the active colour: filled for a state without children,
  outlined for one with children.

Every state, box or not, and every drawn transition carries an SVG ``id``:
``state:NAME`` and ``link:SOURCE->TARGET`` (the transition of the structure it draws), so
that tools find them in the rendered SVG.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from statetree.core.transition import TransitionKind
from statetree.plot.diagram import Active, Diagram, Link, Node, NodeKind, build_diagram
from statetree.plot.dot import START, attributes, helper_id, quote
from statetree.plot.style import DEFAULT_STYLE, EDGE_STYLES, PlotStyle
from statetree.structure.model import Structure, require_structure
from statetree.structure.places import Place

__all__ = ["Nesting", "nested_to_dot", "nesting"]

ENTRY = "/entry"
"""Appended to a state's name: the id of the dot (or diamond) inside its box."""


@dataclass(frozen=True, slots=True)
class Nesting:
    """Which state holds which: the tree a statechart draws.

    Attributes:
        top: the states drawn outside every box, in order.
        inside: the children of each state that has some, in order.
        regions: the states that are concurrent regions of their parent.
    """

    top: tuple[str, ...]
    inside: dict[str, tuple[str, ...]]
    regions: frozenset[str]


def nesting(structure: Structure) -> Nesting | None:
    """The structure as a tree of states, or ``None`` when it is not one (a state can be
    in two places, or inside itself): then only the book's layout can draw it."""
    places = require_structure(structure, "a plot").places
    parent: dict[str, str | None] = {}
    for place in places.all():
        for name in place.states:
            if name in parent:
                return None
            parent[name] = place.parent
    inside: dict[str, list[str]] = {}
    top: list[str] = []
    for name in structure.names:  # a state no place holds (unreachable) is drawn at the top
        owner = parent.get(name)
        (inside.setdefault(owner, []) if owner is not None else top).append(name)
    regions = frozenset(
        name for owner in places.regions.values() for p in owner for name in p.states
    )
    ordered = {owner: tuple(_placed(places.of(owner), names)) for owner, names in inside.items()}
    return Nesting(tuple(_placed((places.top,), top)), ordered, regions)


def _placed(places: tuple[Place, ...], names: list[str]) -> list[str]:
    """``names`` in the order of their places (declared or derived), the rest after."""
    order = [name for place in places for name in place.states]
    rank = {name: index for index, name in enumerate(order)}
    return sorted(names, key=lambda name: rank.get(name, len(rank)))


class _Writer:
    """The DOT text of one nested diagram."""

    def __init__(self, diagram: Diagram, tree: Nesting, structure: Structure) -> None:
        self.diagram = diagram
        self.tree = tree
        self.structure = structure
        self.style = diagram.style
        self.nodes = {node.key: node for node in diagram.nodes}
        # Inside its parent's box, a state's own name says enough.
        self.labels = {
            info.name: f"{info.short_name}\n{info.note}" if info.note else info.short_name
            for info in structure.states
        }
        # A state entered at one child (explicit, sequential) shows a dot; a priority state,
        # whose entry edge to its ground reads "otherwise", chooses: a diamond.
        self.entered = {
            link.source
            for link in diagram.links
            if link.kind is TransitionKind.INNER_ENTRY and not link.label
        }

    def boxed(self, name: str) -> bool:
        return name in self.tree.inside

    # -- states ----------------------------------------------------------------------------

    def items(self, names: tuple[str, ...], depth: int, indent: str) -> Iterator[str]:
        for name in names:
            if self.boxed(name):
                yield from self.box(name, depth, indent)
            else:
                yield indent + self.leaf(self.nodes[name])

    def leaf(self, node: Node) -> str:
        label = self.labels.get(node.key, node.label)
        pairs = {"id": quote(f"state:{node.key}"), "label": quote(label)}
        pairs["fillcolor"] = quote(node.fill)
        pairs["fontcolor"] = quote(node.text)
        if node.kind is not NodeKind.STATE:
            pairs["style"] = quote("rounded,filled,dashed")
        if node.kind is NodeKind.UNKNOWN:
            pairs["color"] = pairs["fontcolor"] = quote(self.style.unknown_line)
            pairs["label"] = quote(node.label)
        if node.active:
            pairs["color"] = quote(self.style.active_line)
            pairs["penwidth"] = "2"
        return f"{quote(node.key)} [{attributes(pairs)}];"

    def box(self, name: str, depth: int, indent: str) -> Iterator[str]:
        node = self.nodes[name]
        style = self.style
        region = name in self.tree.regions
        look = {
            "id": quote(f"state:{name}"),
            "label": quote(self.labels.get(name, name)),
            "style": quote("rounded,filled,dashed" if region else "rounded,filled"),
            "fillcolor": quote(style.box_fill(depth)),
            "color": quote(style.active_line if node.active else style.line),
            "fontcolor": quote(style.active_line if node.active else style.dark_text),
            "penwidth": "2" if node.active else "1",
        }
        yield f"{indent}subgraph {quote('cluster_' + name)} {{"
        yield f"{indent}  graph [{attributes(look)}, labeljust=l];"
        yield f"{indent}  {self.entry(name)}"
        yield from self.items(self.tree.inside[name], depth + 1, indent + "  ")
        yield f"{indent}}}"

    def entry(self, name: str) -> str:
        """The dot a box's first child is entered from, its choice diamond, or (regions
        only) an invisible point that transitions to the box end at."""
        key = quote(name + ENTRY)
        line = quote(self.style.line)
        chooses = not self._entered(name) and any(
            link.source == name and link.kind in (TransitionKind.INNER, TransitionKind.INNER_ENTRY)
            for link in self.diagram.links
        )
        if self._entered(name):
            return f"{key} [shape=point, width=0.12, color={line}, fillcolor={line}];"
        if chooses:
            return (
                f'{key} [shape=diamond, label="", width=0.22, height=0.22, '
                f"style=filled, color={line}, fillcolor={line}];"
            )
        return f"{key} [shape=point, style=invis, width=0.01];"

    def _entered(self, name: str) -> bool:
        return name in self.entered

    # -- transitions -----------------------------------------------------------------------

    def link(self, link: Link) -> str | None:
        kind = link.kind
        if kind is TransitionKind.CONCURRENT:
            return None  # the regions are drawn inside their state
        pairs = {"id": quote(f"link:{link.source}->{link.target}")}
        if kind is TransitionKind.SIBLING:
            source = link.source
            pairs["style"] = EDGE_STYLES[kind]
        else:
            source = self._inner_source(link)
            pairs["arrowsize"] = "0.7"
        if link.label:
            pairs["label"] = quote(link.label)
        if link.active:
            pairs["color"] = quote(self.style.active_fill)
            pairs["penwidth"] = "2"
        tail = self._end(source, pairs, "ltail")
        head = self._end(link.target, pairs, "lhead")
        return f"  {tail} -> {head} [{attributes(pairs)}];"

    def _inner_source(self, link: Link) -> str:
        """Where an inner transition starts: the parent's dot or diamond, or, in a
        sequence, the child before its target."""
        if link.kind is TransitionKind.INNER and self._entered(link.source):
            children = self.tree.inside.get(link.source, ())
            if link.target in children and children.index(link.target) > 0:
                return children[children.index(link.target) - 1]
        return link.source + ENTRY

    def _end(self, name: str, pairs: dict[str, str], clip: str) -> str:
        """The node an arrow starts or ends at: a box's own dot, clipped at its border."""
        if self.boxed(name):
            pairs[clip] = quote("cluster_" + name)
            return quote(name + ENTRY)
        return quote(name)

    # -- the whole -------------------------------------------------------------------------

    def text(self) -> str:
        style = self.style
        font, line = quote(style.font), quote(style.line)
        begin = quote(helper_id(START, self.diagram))
        lines = [
            f"digraph {quote(self.diagram.title)} {{",
            f"  graph [fontname={font}, fontsize=12, compound=true, nodesep=0.3, ranksep=0.4];",
            f'  node [shape=box, style="rounded,filled", fontname={font}, fontsize=12, '
            f"color={line}];",
            f"  edge [fontname={font}, fontsize=10, color={line}];",
            f"  {begin} [shape=point, width=0.15, color={line}, fillcolor={line}];",
        ]
        lines += self.items(self.tree.top, 0, "  ")
        # Targets that are not states of the structure: drawn as the flat plot draws them.
        unknown = [node for node in self.diagram.nodes if node.kind is NodeKind.UNKNOWN]
        lines += ["  " + self.leaf(node) for node in unknown]
        initial = self.structure.initial
        start = {"arrowsize": "0.7"}
        lines.append(f"  {begin} -> {self._end(initial, start, 'lhead')} [{attributes(start)}];")
        lines += [text for text in map(self.link, self.diagram.links) if text is not None]
        lines.append("}")
        return "\n".join(lines) + "\n"


def nested_to_dot(
    structure: Structure, *, active: Active = (), style: PlotStyle = DEFAULT_STYLE
) -> str | None:
    """Graphviz DOT text drawing ``structure`` as a statechart (see the module's text), with
    the ``active`` states highlighted; ``None`` when the structure is not a tree.

    Args:
        structure: what to draw.
        active: the active states, outermost first: names, classes or ``machine.stack``.
        style: colours and font.
    """
    tree = nesting(structure)
    if tree is None:
        return None
    return _Writer(build_diagram(structure, active, style), tree, structure).text()
