"""The explicit policy: the classic event-driven state machine.

The first child is entered (or, on re-entry, the one its history recorded); a child leaves
only through its own transitions, each naming the sibling to go to, which only an explicit
parent reads: nothing else moves its children.
"""

from __future__ import annotations

from statetree.chart.policy.definition import Entry, PolicyDef
from statetree.chart.states import ChartState, fire
from statetree.core.transition import Transition

__all__ = ["DEFINITION", "fire_or_resume", "resume"]


def resume(state: ChartState) -> Transition | None:
    """Enter the child recorded in the history (the first one unless cleared otherwise)."""
    if state.child is None:
        runtime = state.owner
        return state._entries[runtime.history[state._id]]
    return None


def fire_or_resume(state: ChartState) -> Transition | None:
    """``fire`` then ``resume`` in one call: the most common composite state, per frame."""
    chosen = fire(state)
    if chosen is None and state.child is None:
        runtime = state.owner
        return state._entries[runtime.history[state._id]]
    return chosen


DEFINITION = PolicyDef(
    "explicit",
    "The first child is entered; children leave through their own transitions.",
    entry=Entry.FIRST,
    reads=("transitions",),
    run=resume,
    fire_then_run=fire_or_resume,
)
