"""Choosing an output format and writing plots to files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, TypeAlias

from statetree.bitmask import BitmaskDefinition
from statetree.errors import UsageError
from statetree.files import replace_file
from statetree.plot.diagram import build_diagram
from statetree.plot.dot import diagram_to_dot
from statetree.plot.mermaid import diagram_to_mermaid
from statetree.plot.rendering import DEFAULT_DPI, RENDERED_FORMATS, render
from statetree.plot.rules import build_rule_diagram, rules_to_dot, rules_to_mermaid
from statetree.plot.style import DEFAULT_STYLE, PlotStyle
from statetree.structure.model import Structure

__all__ = [
    "EXTENSIONS",
    "PlotFormat",
    "Plottable",
    "check_format",
    "format_for",
    "plot_bytes",
    "plot_text",
    "write_plot",
]

PlotFormat = Literal["dot", "mmd", "svg", "png", "pdf"]
"""DOT and Mermaid text need nothing; SVG, PNG and PDF need Graphviz."""

Plottable: TypeAlias = "Structure | BitmaskDefinition"
"""What can be plotted: a machine's structure, or a bitmask machine's rules."""

EXTENSIONS: dict[str, PlotFormat] = {
    ".dot": "dot",
    ".gv": "dot",
    ".mmd": "mmd",
    ".mermaid": "mmd",
    ".svg": "svg",
    ".png": "png",
    ".pdf": "pdf",
}
"""The format each file extension stands for."""


_BY_NAME: dict[str, PlotFormat] = {name: name for name in EXTENSIONS.values()}
_TEXT_FORMATS = ("dot", "mmd")


def check_format(name: str) -> PlotFormat:
    """``name`` as a :data:`PlotFormat`.

    Raises:
        UsageError: ``name`` is not a plot format.
    """
    found = _BY_NAME.get(name)
    if found is None:
        raise UsageError(f"unknown plot format {name!r}; choose one of {', '.join(_BY_NAME)}")
    return found


def format_for(path: Path) -> PlotFormat:
    """The format a file name asks for, from its extension.

    Raises:
        UsageError: the extension is not one of :data:`EXTENSIONS`.
    """
    found = EXTENSIONS.get(path.suffix.lower())
    if found is None:
        known = ", ".join(EXTENSIONS)
        raise UsageError(
            f"cannot tell the plot format of {str(path)!r} from its extension; "
            f"use one of {known} or give the format explicitly"
        )
    return found


def plot_text(
    plotted: Plottable,
    format: Literal["dot", "mmd"],
    *,
    active: Iterable[Any] = (),
    style: PlotStyle = DEFAULT_STYLE,
) -> str:
    """The DOT or Mermaid text of a structure or a bitmask definition.

    Args:
        plotted: what to draw.
        format: ``"dot"`` or ``"mmd"``.
        active: states to highlight (see :func:`plot_bytes`).
        style: colours, font and clustering.

    Raises:
        UsageError: ``format`` is not a text format (:func:`plot_bytes` makes SVG, PNG
            and PDF), or another argument is wrong.
    """
    if format not in _TEXT_FORMATS:
        drawn = "; plot_bytes() makes SVG, PNG and PDF" if format in RENDERED_FORMATS else ""
        raise UsageError(f"plot_text() takes format 'dot' or 'mmd', got {format!r}{drawn}")
    if isinstance(plotted, BitmaskDefinition):
        rules = build_rule_diagram(plotted, active, style)
        return rules_to_mermaid(rules) if format == "mmd" else rules_to_dot(rules)
    diagram = build_diagram(plotted, active, style)
    return diagram_to_mermaid(diagram) if format == "mmd" else diagram_to_dot(diagram)


def plot_bytes(
    plotted: Plottable,
    format: PlotFormat,
    *,
    active: Iterable[Any] = (),
    style: PlotStyle = DEFAULT_STYLE,
    dpi: float = DEFAULT_DPI,
) -> bytes:
    """The plot of a structure or a bitmask definition in ``format`` (text as UTF-8).

    Args:
        plotted: what to draw.
        format: the output format.
        active: states to highlight: outermost first for a structure (``machine.stack``),
            names or classes for a bitmask definition (``machine.active_states``).
        style: colours, font and clustering.
        dpi: the resolution of a PNG.

    Raises:
        UsageError: ``format`` is unknown, ``dpi`` is out of range (for SVG, PNG and PDF),
            or another argument is wrong.
        RenderError: SVG, PNG or PDF was asked for and Graphviz is missing or failed.
    """
    if format == "mmd":
        return plot_text(plotted, "mmd", active=active, style=style).encode()
    dot = plot_text(plotted, "dot", active=active, style=style)
    return dot.encode() if format == "dot" else render(dot, format, dpi=dpi)


def write_plot(
    plotted: Plottable,
    path: Path | str,
    *,
    format: PlotFormat | None = None,
    active: Iterable[Any] = (),
    style: PlotStyle = DEFAULT_STYLE,
    dpi: float = DEFAULT_DPI,
) -> Path:
    """Write the plot of a structure or a bitmask definition to ``path``.

    Args:
        plotted: what to draw.
        path: the file to write; its extension gives the format.
        format: the format, when the extension does not say it.
        active: states to highlight (see :func:`plot_bytes`).
        style: colours, font and clustering.
        dpi: the resolution of a PNG.

    Returns:
        the path written.

    Raises:
        UsageError: no format given and the extension is unknown, or the file cannot be
            written (its directory does not exist, no permission).
        RenderError: SVG, PNG or PDF was asked for and Graphviz is missing or failed.
    """
    target = Path(path)
    data = plot_bytes(plotted, format or format_for(target), active=active, style=style, dpi=dpi)
    try:
        replace_file(target, data)
    except OSError as error:
        raise UsageError(f"cannot write {str(target)!r}: {error.strerror or error}") from error
    return target
