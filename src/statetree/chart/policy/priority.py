"""The priority policy: the first child whose pre-condition holds is active.

The last child is the ground state, held when no other child's pre-condition holds. The
choice is made again in every pass: a child whose pre-condition holds preempts an active
child listed after it; a child with a post-condition, once active, stays until it holds;
a child without one stays while its pre-condition holds.
"""

from __future__ import annotations

from collections.abc import Iterator

from statetree.chart import states
from statetree.chart.describe import describe_all
from statetree.chart.model import DataPath, Policy, StateDef
from statetree.chart.policy.definition import Entry, PolicyDef, Report, lacking
from statetree.core.transition import TransitionKind
from statetree.structure.model import Edge

__all__ = ["DEFINITION"]


def _choices(path: str, state: StateDef) -> Iterator[Edge]:
    """Each child but the ground is chosen by its pre-condition."""
    for child in state.states[:-1]:
        target = f"{path}.{child.name}"
        yield Edge(path, target, TransitionKind.INNER, label=describe_all(child.pre))


def _check(state: StateDef, path: str, where: DataPath, report: Report) -> None:
    """Every child but the ground needs a pre-condition, or those after it are never chosen."""
    for index, child in lacking(state, "pre"):
        report(
            (*where, "states", index),
            f"{path}.{child.name} has no pre-condition, so the children after it could never "
            "be chosen; only the last child (the ground state) may lack one",
        )


DEFINITION = PolicyDef(
    Policy.PRIORITY,
    "The first child whose pre-condition holds is active; the last one is the ground.",
    entry=Entry.GROUND,
    reads=("pre", "post"),
    run=states.priority,
    fire_then_run=states.fire_or_priority,
    moves=_choices,
    check=_check,
    last_reads=(),
)
