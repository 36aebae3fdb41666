"""Choosing an output format and writing plots to files."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from statetree.errors import UsageError
from statetree.plot.diagram import Active, build_diagram
from statetree.plot.dot import diagram_to_dot
from statetree.plot.mermaid import diagram_to_mermaid
from statetree.plot.render import render
from statetree.plot.style import DEFAULT_STYLE, PlotStyle
from statetree.structure.model import Structure

__all__ = ["EXTENSIONS", "PlotFormat", "check_format", "format_for", "plot_bytes", "write_plot"]

PlotFormat = Literal["dot", "mmd", "svg", "png"]
"""DOT and Mermaid text need nothing; SVG and PNG need Graphviz."""

EXTENSIONS: dict[str, PlotFormat] = {
    ".dot": "dot",
    ".gv": "dot",
    ".mmd": "mmd",
    ".mermaid": "mmd",
    ".svg": "svg",
    ".png": "png",
}
"""The format each file extension stands for."""


_BY_NAME: dict[str, PlotFormat] = {"dot": "dot", "mmd": "mmd", "svg": "svg", "png": "png"}


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


def plot_bytes(
    structure: Structure,
    format: PlotFormat,
    *,
    active: Active = (),
    style: PlotStyle = DEFAULT_STYLE,
) -> bytes:
    """The plot of ``structure`` in ``format`` (text formats encoded as UTF-8).

    Raises:
        RenderError: SVG or PNG was asked for and Graphviz is missing or failed.
    """
    diagram = build_diagram(structure, active, style)
    if format == "mmd":
        return diagram_to_mermaid(diagram).encode()
    dot = diagram_to_dot(diagram)
    return dot.encode() if format == "dot" else render(dot, format)


def write_plot(
    structure: Structure,
    path: Path | str,
    *,
    format: PlotFormat | None = None,
    active: Active = (),
    style: PlotStyle = DEFAULT_STYLE,
) -> Path:
    """Write the plot of ``structure`` to ``path``; the format comes from its extension.

    Args:
        structure: what to draw.
        path: the file to write (its directory must exist).
        format: the format, when the extension does not say it.
        active: states to highlight, outermost first (e.g. ``machine.stack``).
        style: colours, font and clustering.

    Returns:
        the path written.

    Raises:
        UsageError: no format given and the extension is unknown.
        RenderError: SVG or PNG was asked for and Graphviz is missing or failed.
    """
    target = Path(path)
    data = plot_bytes(structure, format or format_for(target), active=active, style=style)
    target.write_bytes(data)
    return target
