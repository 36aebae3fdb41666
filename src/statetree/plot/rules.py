"""Plots of a bitmask machine: its states and the rules between them, as a graph.

A bitmask machine has no stack and no transitions; what shapes it are its rules. Each
state is a box; an arrow ``Moving -> Alive`` labelled ``requires`` says Moving needs Alive
(states that require nothing are drawn on top, their dependents below), a red dashed arrow
``terminates`` says activating the source deactivates the target, and a dotted arrow
ending in a bar, ``blocks``, says the source being active refuses the target; one arrow
carries every rule between two states (``terminates, blocks``). Flags are listed under a
state's name: ``retriggerable``, ``predictable``, ``can_activate`` (a custom check).
Deeper colours are states with fewer requirements above them, as depth in other plots.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from statetree.bitmask import BitmaskDefinition, StateRef
from statetree.plot.diagram import Node, NodeKind, active_items
from statetree.plot.dot import attributes, header, node_line, quote
from statetree.plot.mermaid import identifiers, node_styles, quoted
from statetree.plot.style import DEFAULT_STYLE, PlotStyle, require_style

__all__ = [
    "RuleDiagram",
    "RuleKind",
    "RuleLink",
    "build_rule_diagram",
    "rules_to_dot",
    "rules_to_mermaid",
]

ActiveFlags = Iterable[Any]
"""Active states by name or class (e.g. ``machine.active_states``)."""


class RuleKind(enum.Enum):
    """What a link between two bitmask states says."""

    REQUIRES = "requires"
    TERMINATES = "terminates"
    BLOCKS = "blocks"


@dataclass(frozen=True, slots=True)
class RuleLink:
    """``source`` requires, terminates or blocks ``target`` (``kinds``: one or several)."""

    source: str
    target: str
    kinds: tuple[RuleKind, ...]

    @property
    def kind(self) -> RuleKind:
        """The kind that sets the line: requires, else terminates, else blocks."""
        return self.kinds[0]

    @property
    def label(self) -> str:
        """The words on the arrow: ``requires``, ``terminates, blocks``..."""
        return ", ".join(kind.value for kind in self.kinds)


@dataclass(frozen=True, slots=True)
class RuleDiagram:
    """Everything a renderer draws of a bitmask definition.

    Attributes:
        title: the definition's name.
        nodes: one per state, in bit order; ``depth`` is the length of its longest chain of
            requirements (0 for a state that requires nothing).
        links: requirements first, then terminations, then blocks, each in bit order.
        style: the style the colours came from.
    """

    title: str
    nodes: tuple[Node, ...]
    links: tuple[RuleLink, ...]
    style: PlotStyle


def _levels(definition: BitmaskDefinition) -> list[int]:
    """The length of each state's longest chain of requirements."""
    levels = [0] * definition.size
    for state in reversed(definition.teardown_order):  # requirements before dependents
        needed = [definition.index_of(name) for name in definition.rules[state].requires]
        levels[state] = 1 + max((levels[i] for i in needed), default=-1)
    return levels


def _label(definition: BitmaskDefinition, index: int) -> str:
    rule = definition.rules[index]
    flags = [flag for flag in ("retriggerable", "predictable") if getattr(rule, flag)]
    flags += ["can_activate"] * definition.checked[index]
    return "\n".join([rule.name, " · ".join(flags)] if flags else [rule.name])


def _nodes(definition: BitmaskDefinition, active: int, style: PlotStyle) -> Iterator[Node]:
    for index, level in enumerate(_levels(definition)):
        label = _label(definition, index)
        name = definition.names[index]
        if active >> index & 1:
            fill, text = style.active_fill, style.active_text
            yield Node(name, label, NodeKind.STATE, level, fill, text, True)
        else:
            fill, text = style.fill(level), style.text(level)
            yield Node(name, label, NodeKind.STATE, level, fill, text, False)


def _links(definition: BitmaskDefinition) -> Iterator[RuleLink]:
    """One link per pair of states, with every rule between them, requirements first."""
    found: dict[tuple[str, str], list[RuleKind]] = {}
    for rule in definition.rules:
        for other in rule.requires:
            found.setdefault((rule.name, other), []).append(RuleKind.REQUIRES)
    for rule in definition.rules:
        for other in rule.terminates:
            found.setdefault((rule.name, other), []).append(RuleKind.TERMINATES)
    for rule in definition.rules:
        for other in rule.blocked_by:
            found.setdefault((other, rule.name), []).append(RuleKind.BLOCKS)
    for (source, target), kinds in found.items():
        yield RuleLink(source, target, tuple(kinds))


def build_rule_diagram(
    definition: BitmaskDefinition, active: ActiveFlags = (), style: PlotStyle = DEFAULT_STYLE
) -> RuleDiagram:
    """Lay out ``definition``'s rules; the ``active`` states (names or classes) are highlighted.

    Raises:
        UsageError: ``active`` is no collection of states, or ``style`` is no ``PlotStyle``.
        NoSuchStateError: an active state is not part of the definition.
    """
    require_style(style)
    # Whatever the items are, mask_of refuses each one that is no state of the definition.
    mask = definition.mask_of(cast("tuple[StateRef, ...]", active_items(active)))
    nodes = tuple(_nodes(definition, mask, style))
    return RuleDiagram(definition.name or "bitmask", nodes, tuple(_links(definition)), style)


def _dot_link(link: RuleLink, style: PlotStyle) -> str:
    label = quote(link.label)
    if link.kind is RuleKind.REQUIRES:
        # Drawn from the requirement down to its dependent, the arrowhead back at the
        # requirement: states that require nothing end up on top.
        return f"  {quote(link.target)} -> {quote(link.source)} [dir=back, label={label}];"
    if link.kind is RuleKind.TERMINATES:
        colour = quote(style.unknown_line)
        pairs = {"style": "dashed", "color": colour, "fontcolor": colour, "label": label}
    else:
        pairs = {"style": "dotted", "arrowhead": "tee", "label": label}
    return f"  {quote(link.source)} -> {quote(link.target)} [{attributes(pairs)}];"


def rules_to_dot(diagram: RuleDiagram) -> str:
    """The DOT text of a bitmask rule diagram: same diagram, same bytes."""
    lines = header(diagram.title, diagram.style)
    lines += [node_line(node, diagram.style) for node in diagram.nodes]
    lines += [_dot_link(link, diagram.style) for link in diagram.links]
    lines.append("}")
    return "\n".join(lines) + "\n"


_MERMAID_ARROWS = {RuleKind.REQUIRES: "-->", RuleKind.TERMINATES: "-.->", RuleKind.BLOCKS: "-.-x"}


def rules_to_mermaid(diagram: RuleDiagram) -> str:
    """The Mermaid text of a bitmask rule diagram (drawn bottom to top: requirements above)."""
    ids = identifiers([node.key for node in diagram.nodes])
    lines = ["flowchart BT"]
    lines += [f"    {ids[n.key]}[{quoted(n.label)}]" for n in diagram.nodes]
    for link in diagram.links:
        arrow = f"{_MERMAID_ARROWS[link.kind]}|{quoted(link.label)}|"
        lines.append(f"    {ids[link.source]} {arrow} {ids[link.target]}")
    lines += node_styles(diagram.nodes, diagram.style, ids)
    terminations = [
        str(i) for i, link in enumerate(diagram.links) if link.kind is RuleKind.TERMINATES
    ]
    if terminations:
        lines.append(f"    linkStyle {','.join(terminations)} stroke:{diagram.style.unknown_line}")
    return "\n".join(lines) + "\n"
