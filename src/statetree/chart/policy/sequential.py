"""The sequential policy: children run in order, each until its post-condition holds.

The first child is entered (or the one history recorded); when the active child's
post-condition holds, the next one is. The last child stays: the sequential state's own
post-condition says when the whole sequence is done, for its parent to read.
"""

from __future__ import annotations

from collections.abc import Iterator

from statetree.chart.describe import describe_any
from statetree.chart.model import DataPath, StateDef
from statetree.chart.policy.definition import Entry, PolicyDef, Report
from statetree.chart.states import ChartState, done, fire
from statetree.core.transition import Transition, TransitionKind
from statetree.structure.model import Edge

__all__ = ["DEFINITION", "fire_or_sequential", "sequential"]


def sequential(state: ChartState) -> Transition | None:
    """Resume a child, then advance to the next one once the active child is done."""
    child = state.child
    if child is None:
        runtime = state.owner
        return state._entries[runtime.history[state._id]]
    advance = child._advance
    if advance is not None and done(child):
        return advance
    return None


def fire_or_sequential(state: ChartState) -> Transition | None:
    """``fire`` then ``sequential``."""
    chosen = fire(state)
    return sequential(state) if chosen is None else chosen


def _advances(path: str, state: StateDef) -> Iterator[Edge]:
    """The sequence moves on to the next child when the current one's post-condition holds."""
    for current, following in zip(state.states, state.states[1:], strict=False):
        if current.post:
            target = f"{path}.{following.name}"
            yield Edge(path, target, TransitionKind.INNER, label=describe_any(current.post))


def _check(state: StateDef, path: str, where: DataPath, report: Report) -> None:
    """The last child has no post-condition of its own, as nothing would read it (one its
    pattern gives every use of it is allowed)."""
    last = state.states[-1]
    if last.post and (last.use is None or "post" in last.use.given):
        report(
            (*where, "states", len(state.states) - 1, "post"),
            f"the post-condition of {path}.{last.name} would never be read: the last child "
            f"of sequence {path} stays; give {path} itself a post-condition to end the sequence",
        )


DEFINITION = PolicyDef(
    "sequential",
    "Children run in order, each until its post-condition holds.",
    entry=Entry.FIRST,
    reads=("post",),
    run=sequential,
    fire_then_run=fire_or_sequential,
    moves=_advances,
    needs=(("post", "so the sequence {path} would never advance past it"),),
    check=_check,
    last_reads=(),
)
