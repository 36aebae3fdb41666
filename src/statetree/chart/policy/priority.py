"""The priority policy: the first child whose pre-condition holds is active.

The last child is the ground state, held when no other child's pre-condition holds. The
choice is made again in every pass: a child whose pre-condition holds preempts an active
child listed after it; a child with a post-condition, once active, stays until it holds;
a child without one stays while its pre-condition holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from statetree.chart.describe import describe_all
from statetree.chart.model import StateDef
from statetree.chart.policy.definition import Entry, PolicyDef
from statetree.chart.states import ChartState, done, fire
from statetree.core.transition import Transition, TransitionKind
from statetree.structure.model import Edge

if TYPE_CHECKING:
    from statetree.chart.conditions import Compiled
    from statetree.chart.runtime import ChartRuntime

__all__ = ["DEFINITION", "fire_or_priority", "first_holding", "priority"]


def priority(state: ChartState) -> Transition | None:
    """The child whose pre-condition holds, highest first; the active one until done.

    To choose another child than the active one, an event counts once: if it arrived before
    the active child was entered (in the same processing), that child was entered after it,
    so one press of a button starts one attack, even one done at once.
    """
    runtime = state.owner
    base = runtime.base
    pres = state._pres
    child = state.child
    if child is None:
        return state._inners[first_holding(pres, runtime, base, -1)]
    index = child._index
    entry = child.entry
    since = entry if entry > base else base
    for higher in range(index):
        pre = pres[higher]
        if pre is not None and pre.holds(runtime, since):
            return state._inners[higher]
    if child._post is not None:
        if done(child):
            return state._inners[first_holding(pres, runtime, since, index)]
        return None
    pre = pres[index]  # its own pre-condition keeps it for the processing its event is in
    if pre is not None and not pre.holds(runtime, base):
        return state._inners[first_holding(pres, runtime, since, index)]
    return None


def fire_or_priority(state: ChartState) -> Transition | None:
    """``fire`` then ``priority``."""
    chosen = fire(state)
    return priority(state) if chosen is None else chosen


def first_holding(
    pres: tuple[Compiled | None, ...], runtime: ChartRuntime, base: int, skip: int
) -> int:
    """The first child, ``skip`` aside, whose pre-condition holds (the ground at worst)."""
    for index, pre in enumerate(pres):
        if index != skip and (pre is None or pre.holds(runtime, base)):
            return index
    return len(pres) - 1


def _choices(path: str, state: StateDef) -> Iterator[Edge]:
    """Each child but the ground is chosen by its pre-condition."""
    for child in state.states[:-1]:
        target = f"{path}.{child.name}"
        yield Edge(path, target, TransitionKind.INNER, label=describe_all(child.pre))


DEFINITION = PolicyDef(
    "priority",
    "The first child whose pre-condition holds is active; the last one is the ground.",
    entry=Entry.GROUND,
    reads=("pre", "post"),
    run=priority,
    fire_then_run=fire_or_priority,
    moves=_choices,
    needs=(
        (
            "pre",
            "so the children after it could never be chosen; only the last child (the ground "
            "state) may lack one",
        ),
    ),
    last_reads=(),
)
