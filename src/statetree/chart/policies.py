"""Which ``transition()`` a chart state gets: its explicit transitions, then its policy.

The compiler picks one function per generated class, so a state pays only for what its
definition uses (a leaf without transitions keeps ``State.transition``): a leaf with
transitions gets :func:`statetree.chart.states.fire`, a parent the functions its policy's
definition names (:mod:`statetree.chart.policy`).
"""

from __future__ import annotations

from statetree.chart import states
from statetree.chart.policy import DEFINITIONS
from statetree.chart.policy.definition import TransitionFunction

__all__ = ["TransitionFunction", "transition_of"]


def transition_of(policy: str | None, explicit: bool) -> TransitionFunction | None:
    """The ``transition`` of a state with ``policy`` (``None``: a leaf).

    Args:
        explicit: the state has explicit transitions of its own.

    Returns:
        ``None`` for a leaf without transitions: it keeps ``State.transition``.
    """
    if policy is None:
        return states.fire if explicit else None
    found = DEFINITIONS[policy]
    return found.fire_then_run if explicit else found.run
