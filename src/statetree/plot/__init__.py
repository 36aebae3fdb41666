"""Plots of a :class:`~statetree.structure.Structure` or of a bitmask machine's rules.

DOT and Mermaid text are produced with the standard library only; SVG, PNG and PDF go
through Graphviz (``pip install 'statetree[plot]'`` plus the Graphviz programs). Same
structure, same output bytes.

.. code-block:: python

    from statetree.plot import to_dot, write_plot
    from statetree.structure import derive

    structure = derive(CharacterStates.Alive)
    write_plot(structure, "character.svg", active=hero.machine.stack)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statetree.exports import Exports

if TYPE_CHECKING:
    from statetree.plot.diagram import Active as Active
    from statetree.plot.diagram import Cluster as Cluster
    from statetree.plot.diagram import Diagram as Diagram
    from statetree.plot.diagram import Link as Link
    from statetree.plot.diagram import Node as Node
    from statetree.plot.diagram import NodeKind as NodeKind
    from statetree.plot.diagram import build_diagram as build_diagram
    from statetree.plot.dot import diagram_to_dot as diagram_to_dot
    from statetree.plot.dot import to_dot as to_dot
    from statetree.plot.mermaid import diagram_to_mermaid as diagram_to_mermaid
    from statetree.plot.mermaid import to_mermaid as to_mermaid
    from statetree.plot.nested import Nesting as Nesting
    from statetree.plot.nested import nested_to_dot as nested_to_dot
    from statetree.plot.nested import nesting as nesting
    from statetree.plot.output import EXTENSIONS as EXTENSIONS
    from statetree.plot.output import PlotFormat as PlotFormat
    from statetree.plot.output import Plottable as Plottable
    from statetree.plot.output import check_format as check_format
    from statetree.plot.output import format_for as format_for
    from statetree.plot.output import plot_bytes as plot_bytes
    from statetree.plot.output import plot_text as plot_text
    from statetree.plot.output import write_plot as write_plot
    from statetree.plot.rendering import DEFAULT_DPI as DEFAULT_DPI
    from statetree.plot.rendering import RENDERED_FORMATS as RENDERED_FORMATS
    from statetree.plot.rendering import RenderError as RenderError
    from statetree.plot.rendering import render as render
    from statetree.plot.rules import RuleDiagram as RuleDiagram
    from statetree.plot.rules import RuleKind as RuleKind
    from statetree.plot.rules import RuleLink as RuleLink
    from statetree.plot.rules import build_rule_diagram as build_rule_diagram
    from statetree.plot.rules import rules_to_dot as rules_to_dot
    from statetree.plot.rules import rules_to_mermaid as rules_to_mermaid
    from statetree.plot.style import DEFAULT_STYLE as DEFAULT_STYLE
    from statetree.plot.style import EDGE_STYLES as EDGE_STYLES
    from statetree.plot.style import PlotStyle as PlotStyle

__all__ = [
    "DEFAULT_DPI",
    "DEFAULT_STYLE",
    "EDGE_STYLES",
    "EXTENSIONS",
    "RENDERED_FORMATS",
    "Active",
    "Cluster",
    "Diagram",
    "Link",
    "Nesting",
    "Node",
    "NodeKind",
    "PlotFormat",
    "PlotStyle",
    "Plottable",
    "RenderError",
    "RuleDiagram",
    "RuleKind",
    "RuleLink",
    "build_diagram",
    "build_rule_diagram",
    "check_format",
    "diagram_to_dot",
    "diagram_to_mermaid",
    "format_for",
    "nested_to_dot",
    "nesting",
    "plot_bytes",
    "plot_text",
    "render",
    "rules_to_dot",
    "rules_to_mermaid",
    "to_dot",
    "to_mermaid",
    "write_plot",
]

_EXPORTS = Exports(
    __name__,
    {
        "statetree.plot.diagram": (
            "Active",
            "Cluster",
            "Diagram",
            "Link",
            "Node",
            "NodeKind",
            "build_diagram",
        ),
        "statetree.plot.dot": ("diagram_to_dot", "to_dot"),
        "statetree.plot.mermaid": ("diagram_to_mermaid", "to_mermaid"),
        "statetree.plot.nested": ("Nesting", "nested_to_dot", "nesting"),
        "statetree.plot.output": (
            "EXTENSIONS",
            "PlotFormat",
            "Plottable",
            "check_format",
            "format_for",
            "plot_bytes",
            "plot_text",
            "write_plot",
        ),
        "statetree.plot.rendering": ("DEFAULT_DPI", "RENDERED_FORMATS", "RenderError", "render"),
        "statetree.plot.rules": (
            "RuleDiagram",
            "RuleKind",
            "RuleLink",
            "build_rule_diagram",
            "rules_to_dot",
            "rules_to_mermaid",
        ),
        "statetree.plot.style": ("DEFAULT_STYLE", "EDGE_STYLES", "PlotStyle"),
    },
)
__getattr__ = _EXPORTS.attribute
__dir__ = _EXPORTS.dir
