"""Which ``transition()`` a chart state gets: its explicit transitions, then its policy.

The compiler picks one :class:`ChartState` method per generated class, so a state pays only
for what its definition uses (a leaf without transitions keeps ``State.transition``).
"""

from __future__ import annotations

from collections.abc import Callable

from statetree.chart import states
from statetree.chart.model import Policy
from statetree.chart.states import ChartState
from statetree.core.transition import Transition

__all__ = ["TransitionFunction", "transition_of"]

TransitionFunction = Callable[[ChartState], "Transition | None"]

_POLICIES: dict[Policy, TransitionFunction] = {
    Policy.EXPLICIT: states.resume,
    Policy.SEQUENTIAL: states.sequential,
    Policy.PRIORITY: states.priority,
    Policy.CONCURRENT: states.concurrent,
}

_WITH_TRANSITIONS: dict[Policy, TransitionFunction] = {
    Policy.EXPLICIT: states.fire_or_resume,
    Policy.SEQUENTIAL: states.fire_or_sequential,
    Policy.PRIORITY: states.fire_or_priority,
    Policy.CONCURRENT: states.fire_or_concurrent,
}


def transition_of(policy: Policy | None, explicit: bool) -> TransitionFunction | None:
    """The ``transition`` of a state with ``policy`` (``None``: a leaf).

    Args:
        explicit: the state has explicit transitions of its own.

    Returns:
        ``None`` for a leaf without transitions: it keeps ``State.transition``.
    """
    if policy is None:
        return states.fire if explicit else None
    return (_WITH_TRANSITIONS if explicit else _POLICIES)[policy]
