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

from statetree.plot.diagram import Active, Cluster, Diagram, Link, Node, NodeKind, build_diagram
from statetree.plot.dot import diagram_to_dot, to_dot
from statetree.plot.mermaid import diagram_to_mermaid, to_mermaid
from statetree.plot.nested import Nesting, nested_to_dot, nesting
from statetree.plot.output import (
    EXTENSIONS,
    PlotFormat,
    Plottable,
    check_format,
    format_for,
    plot_bytes,
    plot_text,
    write_plot,
)
from statetree.plot.render import DEFAULT_DPI, RENDERED_FORMATS, RenderError, render
from statetree.plot.rules import (
    RuleDiagram,
    RuleKind,
    RuleLink,
    build_rule_diagram,
    rules_to_dot,
    rules_to_mermaid,
)
from statetree.plot.style import DEFAULT_STYLE, EDGE_STYLES, PlotStyle

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
