"""Conditions as array expressions: one boolean per agent of a working set.

The rules are those of :mod:`statetree.chart.conditions`: an edge trigger holds when its
event was latched after the threshold (the later of the processing's start and the asking
state's entry), a level trigger while the host holds it. Serial numbers here count from the
start of the current processing, so that start is 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import reduce
from typing import TYPE_CHECKING, TypeAlias

from statetree.chart.batch.arrays import Bools, Serials, np
from statetree.chart.events import Event
from statetree.chart.model import AllOf, AnyOf, Condition, NotOf, TriggerDef

if TYPE_CHECKING:
    from statetree.chart.batch.work import Work

__all__ = ["Threshold", "VectorCondition", "vectorise", "vectorise_all", "vectorise_any"]

Threshold: TypeAlias = "Serials | int"
VectorCondition: TypeAlias = "Callable[[Work, Threshold], Bools]"
"""Whether a condition holds for each agent of a working set (a new array, or a row of it
that callers only read)."""


def _latched(index: int) -> VectorCondition:
    def holds(work: Work, threshold: Threshold) -> Bools:
        result: Bools = work.latched[index] > threshold
        return result

    return holds


def _level(index: int) -> VectorCondition:
    def holds(work: Work, threshold: Threshold) -> Bools:
        row: Bools = work.levels[index]
        return row

    return holds


def _not(item: VectorCondition) -> VectorCondition:
    def holds(work: Work, threshold: Threshold) -> Bools:
        return ~item(work, threshold)

    return holds


def _combined(items: tuple[VectorCondition, ...], every: bool) -> VectorCondition:
    join = np.logical_and if every else np.logical_or

    def holds(work: Work, threshold: Threshold) -> Bools:
        result: Bools = reduce(join, (item(work, threshold) for item in items))
        return result

    return holds


def vectorise(
    condition: Condition, edges: Mapping[Event, int], levels: Mapping[Event, int]
) -> VectorCondition:
    """``condition`` over the latch rows ``edges`` and the level rows ``levels``."""
    if isinstance(condition, TriggerDef):
        event = Event(condition.type, condition.name)
        level = levels.get(event)
        return _latched(edges[event]) if level is None else _level(level)
    if isinstance(condition, NotOf):
        return _not(vectorise(condition.condition, edges, levels))
    items = tuple(vectorise(item, edges, levels) for item in condition.conditions)
    if len(items) == 1:
        return items[0]
    return _combined(items, isinstance(condition, AllOf))


def vectorise_all(
    conditions: tuple[Condition, ...], edges: Mapping[Event, int], levels: Mapping[Event, int]
) -> VectorCondition | None:
    """Pre-conditions: all of them (``None`` when there are none)."""
    return vectorise(AllOf(conditions), edges, levels) if conditions else None


def vectorise_any(
    conditions: tuple[Condition, ...], edges: Mapping[Event, int], levels: Mapping[Event, int]
) -> VectorCondition | None:
    """Post-conditions: any of them (``None`` when there are none)."""
    return vectorise(AnyOf(conditions), edges, levels) if conditions else None
