"""Mermaid flowchart text of a structure (renders in Markdown viewers; no dependency)."""

from __future__ import annotations

from statetree.core.transition import TransitionKind
from statetree.plot.diagram import Active, Diagram, Link, Node, NodeKind, build_diagram
from statetree.plot.style import DEFAULT_STYLE, PlotStyle
from statetree.structure.model import Structure

__all__ = ["diagram_to_mermaid", "to_mermaid"]

_ARROWS = {
    TransitionKind.SIBLING: "-.->",
    TransitionKind.INNER: "-->",
    TransitionKind.INNER_ENTRY: "==>",
    TransitionKind.CONCURRENT: "--o",
}
"""The arrow of each kind of transition."""

START = "start"
"""The id of the start marker: a dot whose arrow points at the initial state."""


def identifiers(keys: list[str]) -> dict[str, str]:
    """Mermaid ids: the key with every non-alphanumeric character as ``_``, made unique."""
    ids: dict[str, str] = {}
    used: set[str] = set()
    for key in keys:
        base = "s_" + "".join(c if c.isascii() and c.isalnum() else "_" for c in key)
        candidate, number = base, 1
        while candidate in used:
            number += 1
            candidate = f"{base}_{number}"
        used.add(candidate)
        ids[key] = candidate
    return ids


def quoted(label: str) -> str:
    """``label`` as a quoted Mermaid string (line breaks as ``<br>``)."""
    return '"' + label.replace('"', "#quot;").replace("\n", "<br>") + '"'


def _class_of(node: Node) -> str:
    if node.active:
        return "active"
    if node.kind is NodeKind.STATE:
        return f"depth{node.depth}"
    return "unreachable" if node.kind is NodeKind.UNREACHABLE else "unknown"


def _class_definition(name: str, node: Node, style: PlotStyle) -> str:
    stroke = style.active_line if node.active else style.line
    extra = ""
    if node.active:
        extra = ",stroke-width:2px"
    elif node.kind is not NodeKind.STATE:
        stroke = node.text if node.kind is NodeKind.UNKNOWN else stroke
        extra = ",stroke-dasharray:4 3"
    return f"    classDef {name} fill:{node.fill},color:{node.text},stroke:{stroke}{extra}"


def node_styles(nodes: tuple[Node, ...], style: PlotStyle, ids: dict[str, str]) -> list[str]:
    """The ``classDef`` and ``class`` lines colouring ``nodes`` as the other formats do."""
    members: dict[str, list[Node]] = {}
    for node in nodes:
        members.setdefault(_class_of(node), []).append(node)
    lines = []
    for name, grouped in members.items():
        lines.append(_class_definition(name, grouped[0], style))
        lines.append(f"    class {','.join(ids[n.key] for n in grouped)} {name}")
    return lines


def _styles(diagram: Diagram, ids: dict[str, str]) -> list[str]:
    lines = node_styles(diagram.nodes, diagram.style, ids)
    # Links are numbered in the order written: the start arrow first, then the transitions.
    first = sum(node.initial for node in diagram.nodes)
    active = [str(first + i) for i, link in enumerate(diagram.links) if link.active]
    if active:
        color = diagram.style.active_fill
        lines.append(f"    linkStyle {','.join(active)} stroke:{color},stroke-width:2px")
    return lines


def _link(link: Link, ids: dict[str, str]) -> str:
    arrow = _ARROWS[link.kind]
    if link.label:
        arrow += f"|{quoted(link.label)}|"
    return f"    {ids[link.source]} {arrow} {ids[link.target]}"


def _start(diagram: Diagram, ids: dict[str, str]) -> list[str]:
    """The start marker, its arrow to the initial state and its style."""
    initial = [ids[node.key] for node in diagram.nodes if node.initial]
    line = diagram.style.line
    lines = [f'    {START}((" "))', *(f"    {START} --> {key}" for key in initial)]
    return [*lines, f"    style {START} fill:{line},stroke:{line}"]


def diagram_to_mermaid(diagram: Diagram) -> str:
    """The Mermaid text of ``diagram``: same diagram, same bytes."""
    ids = identifiers([node.key for node in diagram.nodes])
    nodes = {n.key: f"    {ids[n.key]}[{quoted(n.label)}]" for n in diagram.nodes}
    lines = ["flowchart TD"]
    clustered: list[str] = []
    for number, cluster in enumerate(diagram.clusters):
        clustered.append(f"    subgraph cluster{number} [{quoted(cluster.label)}]")
        clustered += ["    " + nodes.pop(member) for member in cluster.members]
        clustered.append("    end")
    lines += [*nodes.values(), *clustered]
    lines += _start(diagram, ids)
    lines += [_link(link, ids) for link in diagram.links]
    # Invisible links keep each state below an outer it belongs to (Mermaid has no root).
    lines += [f"    {ids[outer]} ~~~ {ids[state]}" for outer, state in diagram.layout if outer]
    lines += _styles(diagram, ids)
    return "\n".join(lines) + "\n"


def to_mermaid(
    structure: Structure, *, active: Active = (), style: PlotStyle = DEFAULT_STYLE
) -> str:
    """Mermaid flowchart text for ``structure``, with the ``active`` states highlighted.

    Args:
        structure: what to draw.
        active: the active states, outermost first: names, classes or ``machine.stack``.
        style: colours and clustering.
    """
    return diagram_to_mermaid(build_diagram(structure, active, style))
