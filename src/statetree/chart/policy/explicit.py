"""The explicit policy: the classic event-driven state machine.

The first child is entered (or, on re-entry, the one its history recorded); a child leaves
only through its own transitions, each naming the sibling to go to, which only an explicit
parent reads: nothing else moves its children.
"""

from __future__ import annotations

from statetree.chart import states
from statetree.chart.model import Policy
from statetree.chart.policy.definition import Entry, PolicyDef

__all__ = ["DEFINITION"]

DEFINITION = PolicyDef(
    Policy.EXPLICIT,
    "The first child is entered; children leave through their own transitions.",
    entry=Entry.FIRST,
    reads=("transitions",),
    run=states.resume,
    fire_then_run=states.fire_or_resume,
)
