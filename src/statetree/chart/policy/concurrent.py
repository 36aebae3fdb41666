"""The concurrent policy: every child is active at once, each as a region of the core
runtime (``st.concurrent``); regions are processed in order and exited last first. Nothing
moves a region, so the policy reads none of its children's parts."""

from __future__ import annotations

from statetree.chart.policy.definition import Entry, PolicyDef
from statetree.chart.states import ChartState, fire
from statetree.core.transition import Transition

__all__ = ["DEFINITION", "concurrent", "fire_or_concurrent"]


def concurrent(state: ChartState) -> Transition | None:
    """Enter every child as a region (once: the core ignores it while they are active)."""
    return state._regions


def fire_or_concurrent(state: ChartState) -> Transition | None:
    """``fire`` then ``concurrent``."""
    chosen = fire(state)
    return state._regions if chosen is None else chosen


DEFINITION = PolicyDef(
    "concurrent",
    "Every child is active at once, each as a region.",
    entry=Entry.EVERY,
    reads=(),
    run=concurrent,
    fire_then_run=fire_or_concurrent,
)
