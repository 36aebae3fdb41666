"""Which ``transition()`` a chart state gets: its explicit transitions, then its policy.

The compiler picks one :class:`ChartState` method per generated class, so a state pays only
for what its definition uses (a leaf without transitions keeps ``State.transition``); each
policy's methods are named by its definition (:mod:`statetree.chart.policy`).
"""

from __future__ import annotations

from statetree.chart.model import Policy
from statetree.chart.policy import definition
from statetree.chart.policy.definition import TransitionFunction
from statetree.chart.states import ChartState

__all__ = ["TransitionFunction", "transition_of"]


def transition_of(policy: Policy | None, explicit: bool) -> TransitionFunction | None:
    """The ``transition`` of a state with ``policy`` (``None``: a leaf).

    Args:
        explicit: the state has explicit transitions of its own.

    Returns:
        ``None`` for a leaf without transitions: it keeps ``State.transition``.
    """
    if policy is None:
        return ChartState.fire if explicit else None
    found = definition(policy)
    return found.fire_then_run if explicit else found.run
