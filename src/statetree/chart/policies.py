"""The ``transition()`` of chart states: explicit transitions, then the children's policy.

The compiler picks one function per generated class, so a state pays only for what its
definition uses. Each function only reads data, as ``transition()`` must.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from statetree.chart.model import Policy
from statetree.core.transition import Transition

if TYPE_CHECKING:
    from statetree.chart.conditions import Compiled
    from statetree.chart.runtime import ChartRuntime
    from statetree.chart.states import ChartState

__all__ = ["TransitionFunction", "transition_function"]

TransitionFunction = Callable[["ChartState"], "Transition | None"]


def _fire(state: ChartState) -> Transition | None:
    """The first explicit transition whose condition holds since the state's entry.

    A condition that is a single edge trigger comes with its latch index (else -1), and
    is tested here without a call: most transitions fire on one event.
    """
    runtime = state.owner
    base = runtime.base
    entry = state.entry
    threshold = entry if entry > base else base
    latched = runtime.latched
    for index, condition, chosen in state._out:
        if index >= 0:
            if latched[index] > threshold:
                return chosen
        elif condition.holds(runtime, threshold):
            return chosen
    return None


def _resume(state: ChartState) -> Transition | None:
    """Enter the child recorded in the history (the first one unless cleared otherwise)."""
    if state.child is None:
        return state._entries[state.owner.history[state._id]]
    return None


def _sequential(state: ChartState) -> Transition | None:
    child = state.child
    if child is None:
        return state._entries[state.owner.history[state._id]]
    advance = child._advance
    if advance is not None and child.done():
        return advance
    return None


def _first_holding(
    pres: tuple[Compiled | None, ...], runtime: ChartRuntime, base: int, skip: int
) -> int:
    """The first child, ``skip`` aside, whose pre-condition holds (the ground at worst)."""
    for index, pre in enumerate(pres):
        if index != skip and (pre is None or pre.holds(runtime, base)):
            return index
    return len(pres) - 1


def _priority(state: ChartState) -> Transition | None:
    runtime = state.owner
    base = runtime.base
    pres = state._pres
    child = state.child
    if child is None:
        return state._inners[_first_holding(pres, runtime, base, -1)]
    index = child._index
    for higher in range(index):
        pre = pres[higher]
        if pre is not None and pre.holds(runtime, base):
            return state._inners[higher]
    if child._post is not None:
        if child.done():
            return state._inners[_first_holding(pres, runtime, base, index)]
        return None
    pre = pres[index]
    if pre is not None and not pre.holds(runtime, base):
        return state._inners[_first_holding(pres, runtime, base, index)]
    return None


def _concurrent(state: ChartState) -> Transition | None:
    return state._regions


_POLICIES: dict[Policy, TransitionFunction] = {
    Policy.EXPLICIT: _resume,
    Policy.SEQUENTIAL: _sequential,
    Policy.PRIORITY: _priority,
    Policy.CONCURRENT: _concurrent,
}


def _fire_then(policy: TransitionFunction) -> TransitionFunction:
    def transition(state: ChartState) -> Transition | None:
        chosen = _fire(state)
        return policy(state) if chosen is None else chosen

    return transition


def _fire_or_resume(state: ChartState) -> Transition | None:
    """``_fire`` then ``_resume`` in one call: the most common composite state, per frame."""
    chosen = _fire(state)
    if chosen is None and state.child is None:
        return state._entries[state.owner.history[state._id]]
    return chosen


_WITH_TRANSITIONS = {policy: _fire_then(function) for policy, function in _POLICIES.items()}
_WITH_TRANSITIONS[Policy.EXPLICIT] = _fire_or_resume


def transition_function(policy: Policy | None, explicit: bool) -> TransitionFunction | None:
    """The ``transition`` of a state with ``policy`` (``None``: a leaf).

    Args:
        explicit: the state has explicit transitions of its own.

    Returns:
        ``None`` for a leaf without transitions: it keeps ``State.transition``.
    """
    if policy is None:
        return _fire if explicit else None
    return (_WITH_TRANSITIONS if explicit else _POLICIES)[policy]
