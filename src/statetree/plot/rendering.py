"""SVG, PNG and PDF through Graphviz, via the ``graphviz`` package (the ``plot`` extra).

This is the only module that touches that package. It is imported on first use, so
``import statetree`` and the DOT / Mermaid output never need it.
"""

from __future__ import annotations

import importlib
from numbers import Real
from types import ModuleType

from statetree.errors import StateTreeError, UsageError

__all__ = ["MAX_DPI", "MIN_DPI", "RENDERED_FORMATS", "RenderError", "render"]

RENDERED_FORMATS = ("svg", "png", "pdf")
"""The formats Graphviz renders for us."""

DEFAULT_DPI = 144
"""The resolution of PNG plots, in dots per inch: twice Graphviz's default of 72, sharp on
high-density screens and still small on others."""

MIN_DPI = 1
"""The lowest resolution of a PNG plot: below it a chart has no pixels to draw on."""
MAX_DPI = 1200
"""The highest resolution of a PNG plot, in dots per inch: print quality. Each doubling
makes four times the pixels; far above it a chart's PNG takes gigabytes to draw."""

INSTALL_HINT = (
    "install Graphviz (https://graphviz.org/download/; on Debian or Ubuntu: "
    "apt-get install graphviz)"
)


class RenderError(StateTreeError, RuntimeError):
    """Graphviz is missing or failed to render a plot."""


def _graphviz() -> ModuleType:
    try:
        return importlib.import_module("graphviz")
    except ImportError as error:
        raise RenderError(
            "SVG, PNG and PDF plots need the graphviz package: pip install 'statetree[plot]' "
            f"and {INSTALL_HINT}; DOT and Mermaid output need nothing"
        ) from error


def with_dpi(dot: str, dpi: float) -> str:
    """``dot`` with its resolution set to ``dpi`` (used by bitmap formats such as PNG)."""
    opening, brace, rest = dot.partition("{\n")
    plain = f"{dpi:f}".rstrip("0").rstrip(".")  # DOT reads no exponent (1e+06)
    return f"{opening}{brace}  graph [dpi={plain}];\n{rest}"


def render(dot: str, format: str, *, dpi: float = DEFAULT_DPI) -> bytes:
    """Render DOT text with Graphviz's ``dot`` layout.

    Args:
        dot: the graph, e.g. from :func:`statetree.plot.to_dot`.
        format: ``"svg"``, ``"png"`` or ``"pdf"``.
        dpi: the resolution of a PNG, in dots per inch (vector formats ignore it).

    Raises:
        UsageError: ``format`` is not one Graphviz renders here, or ``dpi`` is no number
            from :data:`MIN_DPI` to :data:`MAX_DPI`.
        RenderError: the graphviz package or the ``dot`` program is missing, or ``dot``
            failed (its message is included).
    """
    if format not in RENDERED_FORMATS:
        raise UsageError(f"cannot render {format!r}; choose one of {', '.join(RENDERED_FORMATS)}")
    if isinstance(dpi, bool) or not isinstance(dpi, Real) or not MIN_DPI <= dpi <= MAX_DPI:
        raise UsageError(
            f"dpi takes a number of dots per inch from {MIN_DPI} to {MAX_DPI}, got {dpi!r} "
            f"({type(dpi).__name__})"
        )
    if format == "png":
        dot = with_dpi(dot, dpi)
    graphviz = _graphviz()
    try:
        data = graphviz.Source(dot).pipe(format=format, engine="dot")
    except graphviz.ExecutableNotFound as error:
        raise RenderError(
            f"Graphviz's dot program is not on the PATH, so no {format.upper()} can be made; "
            f"{INSTALL_HINT}"
        ) from error
    except graphviz.CalledProcessError as error:
        detail = error.stderr.decode(errors="replace").strip() if error.stderr else str(error)
        raise RenderError(f"Graphviz could not render the plot: {detail}") from error
    if not isinstance(data, bytes) or not data:
        raise RenderError(f"Graphviz returned no {format.upper()} (got {type(data).__name__})")
    return data
