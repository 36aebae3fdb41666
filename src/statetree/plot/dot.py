"""Graphviz DOT text of a structure (no dependency; Graphviz only renders it)."""

from __future__ import annotations

from statetree.core.transition import TransitionKind
from statetree.plot.diagram import Active, Diagram, Link, Node, NodeKind, build_diagram
from statetree.plot.style import DEFAULT_STYLE, EDGE_STYLES, PlotStyle
from statetree.structure.model import Structure

__all__ = ["diagram_to_dot", "to_dot"]

ROOT = "__root__"
"""The id of the hidden root node."""
START = "__start__"
"""The id of the start marker: a dot whose arrow points at the initial state."""


def quote(text: str) -> str:
    """``text`` as a DOT quoted string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def attributes(pairs: dict[str, str]) -> str:
    """``key=value, ...`` for a DOT attribute list (values already quoted)."""
    return ", ".join(f"{key}={value}" for key, value in pairs.items())


def node_line(node: Node, style: PlotStyle) -> str:
    """The DOT statement drawing ``node``."""
    pairs = {"label": quote(node.label), "fillcolor": quote(node.fill)}
    pairs["fontcolor"] = quote(node.text)
    if node.kind is NodeKind.UNREACHABLE:
        pairs["style"] = quote("rounded,filled,dashed")
    elif node.kind is NodeKind.UNKNOWN:
        pairs["style"] = quote("rounded,filled,dashed")
        pairs["color"] = pairs["fontcolor"] = quote(style.unknown_line)
    if node.active:
        pairs["color"] = quote(style.active_line)
        pairs["penwidth"] = "2"
    return f"  {quote(node.key)} [{attributes(pairs)}];"


def _link(link: Link, diagram: Diagram) -> str:
    pairs = {"style": EDGE_STYLES[link.kind]}
    if link.kind is TransitionKind.SIBLING:
        # Siblings share a level: only inner transitions (and the layout) set the rows.
        pairs["constraint"] = "false"
    if link.label:
        # Graphviz would put the labels of two such links on one spot.
        pairs["headlabel" if link.apart else "label"] = quote(link.label)
    if link.active:
        pairs["color"] = quote(diagram.style.active_fill)
        pairs["penwidth"] = "2"
    return f"  {quote(link.source)} -> {quote(link.target)} [{attributes(pairs)}];"


def helper_id(name: str, diagram: Diagram) -> str:
    """``name`` (``ROOT``, ``START``) made unlike every node of ``diagram``: a structure may
    name a state anything."""
    keys = {node.key for node in diagram.nodes}
    while name in keys:
        name += "_"
    return name


def _start(start: str, node: Node) -> str:
    return f"  {quote(start)} -> {quote(node.key)} [arrowsize=0.7];"


def header(title: str, style: PlotStyle) -> list[str]:
    """The opening lines of a DOT graph: its name, fonts and default colours."""
    font = quote(style.font)
    line = quote(style.line)
    return [
        f"digraph {quote(title)} {{",
        f"  graph [fontname={font}, nodesep=0.35, ranksep=0.55];",
        f'  node [shape=box, style="rounded,filled", fontname={font}, fontsize=12, color={line}];',
        f"  edge [fontname={font}, fontsize=10, color={line}];",
    ]


def _clusters(diagram: Diagram, nodes: dict[str, str]) -> list[str]:
    lines = []
    for cluster in diagram.clusters:
        lines += [
            f"  subgraph {quote('cluster_' + cluster.label)} {{",
            f"    label={quote(cluster.label)};",
            f'    style="rounded,dashed"; color={quote(diagram.style.line)};',
        ]
        lines += ["  " + nodes.pop(member) for member in cluster.members]
        lines.append("  }")
    return lines


def diagram_to_dot(diagram: Diagram) -> str:
    """The DOT text of ``diagram``: same diagram, same bytes."""
    lines = header(diagram.title, diagram.style)
    root, start = helper_id(ROOT, diagram), helper_id(START, diagram)
    if diagram.has_root:
        lines.append(f"  {quote(root)} [shape=point, style=invis, width=0];")
    line = quote(diagram.style.line)
    lines.append(f"  {quote(start)} [shape=point, width=0.15, color={line}, fillcolor={line}];")
    nodes = {node.key: node_line(node, diagram.style) for node in diagram.nodes}
    clustered = _clusters(diagram, nodes)
    lines += [*nodes.values(), *clustered]
    lines += [_start(start, node) for node in diagram.nodes if node.initial]
    lines += [_link(link, diagram) for link in diagram.links]
    for outer, state in diagram.layout:
        source = quote(root if outer is None else outer)
        lines.append(f"  {source} -> {quote(state)} [style=invis];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_dot(structure: Structure, *, active: Active = (), style: PlotStyle = DEFAULT_STYLE) -> str:
    """Graphviz DOT text for ``structure``, with the ``active`` states highlighted.

    Args:
        structure: what to draw.
        active: the active states, outermost first: names, classes or ``machine.stack``.
        style: colours, font and clustering.
    """
    return diagram_to_dot(build_diagram(structure, active, style))
