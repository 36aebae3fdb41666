"""The drawing conventions shared by every output format (after the HSM book's plotHsm).

* each state shows its depth level in parentheses: ``Stand (2)``; ``(2+)`` when it can
  also be deeper, ``(?)`` when it is unreachable;
* deeper states are brighter;
* a dot with an arrow marks the initial state;
* inner-entry transitions are bold, inner transitions solid, sibling transitions dotted,
  and the transitions entering concurrent regions dashed (one arrow per region root);
* an arrow's label says when it is taken, where the structure knows it (a chart's
  ``input: Attack``), and ``override`` for a target a machine may replace;
* states whose names share a ``Prefix_`` are grouped in a box labelled ``Prefix``;
* the active states of a live machine are filled with a distinct colour (blue), and the
  transitions linking them are drawn in that colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from statetree.core.transition import TransitionKind
from statetree.errors import UsageError

__all__ = ["DEFAULT_STYLE", "EDGE_STYLES", "PlotStyle", "require_style"]

EDGE_STYLES = {
    TransitionKind.SIBLING: "dotted",
    TransitionKind.INNER: "solid",
    TransitionKind.INNER_ENTRY: "bold",
    TransitionKind.CONCURRENT: "dashed",
}
"""The line of each kind of transition."""


@dataclass(frozen=True, slots=True)
class PlotStyle:
    """Colours and fonts of a plot.

    Attributes:
        depth_fills: fill colours by depth, outermost (darkest) first; deeper states use the
            last one.
        dark_text_from: the first depth drawn with ``dark_text`` instead of ``light_text``.
        active_fill, active_text, active_line: the active states and the links between them.
        unreachable_fill: states that cannot be reached from the initial state.
        unknown_line: targets that are not states of the structure.
        line: the colour of transitions and borders.
        font: the font name.
        clusters: whether to group ``Prefix_`` states.
        box_fills: the backgrounds of states drawn with their children inside (the nested
            layout), outermost (lightest) first; deeper boxes use the last one.
    """

    depth_fills: tuple[str, ...] = (
        "#5c4d3c",
        "#7d6a52",
        "#9e876a",
        "#bba585",
        "#d4c2a3",
        "#e8dcc4",
        "#f6f0e3",
    )
    dark_text_from: int = 3
    light_text: str = "#ffffff"
    dark_text: str = "#1f1a14"
    active_fill: str = "#1f6feb"
    active_text: str = "#ffffff"
    active_line: str = "#0b3d91"
    unreachable_fill: str = "#ffffff"
    unknown_line: str = "#b42318"
    line: str = "#3d3d3d"
    font: str = "Helvetica"
    clusters: bool = True
    box_fills: tuple[str, ...] = ("#fbf8f2", "#f3ecdf", "#ebe0cc", "#e2d4ba")

    def fill(self, depth: int) -> str:
        """The fill colour of a state at ``depth``."""
        return self.depth_fills[min(depth, len(self.depth_fills) - 1)]

    def box_fill(self, depth: int) -> str:
        """The background of a state at ``depth`` drawn with its children inside."""
        return self.box_fills[min(depth, len(self.box_fills) - 1)]

    def text(self, depth: int) -> str:
        """The text colour of a state at ``depth``."""
        return self.dark_text if depth >= self.dark_text_from else self.light_text


DEFAULT_STYLE = PlotStyle()
"""The style plots use unless given another: every option at its default."""


def require_style(style: object) -> PlotStyle:
    """``style``, checked to be a :class:`PlotStyle`.

    Raises:
        UsageError: it is something else (a colour scheme's name, say).
    """
    if isinstance(style, PlotStyle):
        return style
    raise UsageError(
        f"style takes a PlotStyle, got {style!r} ({type(style).__name__}), e.g. "
        "PlotStyle(clusters=False)"
    )
