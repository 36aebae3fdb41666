"""The concurrent policy: every child is active at once, each as a region of the core
runtime (``st.concurrent``); regions are processed in order and exited last first. Nothing
moves a region, so the policy reads none of its children's parts."""

from __future__ import annotations

from statetree.chart import states
from statetree.chart.model import Policy
from statetree.chart.policy.definition import Entry, PolicyDef

__all__ = ["DEFINITION"]

DEFINITION = PolicyDef(
    Policy.CONCURRENT,
    "Every child is active at once, each as a region.",
    entry=Entry.EVERY,
    reads=(),
    run=states.concurrent,
    fire_then_run=states.fire_or_concurrent,
)
