"""The levels each agent holds: bits of its situation for the chart's level events, one
boolean per slot aside for events the chart does not use (kept for a reload to a chart that
does)."""

from __future__ import annotations

from collections.abc import Mapping

from numpy.typing import ArrayLike

from statetree.chart.batch.agents import Agents
from statetree.chart.batch.arrays import Bools, Indexes, np
from statetree.chart.batch.table import LEVELS, Table
from statetree.chart.events import Event
from statetree.errors import UsageError

__all__ = ["held", "level_values", "set_held"]


def level_values(event: Event, on: bool | ArrayLike, count: int) -> Bools:
    """``on``, given to ``set_levels()`` for ``event``, as ``count`` booleans, one per agent.

    Raises:
        UsageError: ``on`` is neither a boolean nor ``count`` of them.
    """
    values = np.asarray(on)
    if values.dtype != np.bool_ or values.ndim > 1 or values.size not in (1, count):
        raise UsageError(
            f"set_levels() needs a boolean, or one boolean per agent ({count}), for "
            f"{event}: got shape {values.shape} of type {values.dtype}"
        )
    if values.size == count:
        flags: Bools = values.reshape(-1)
        return flags
    return np.full(count, bool(values.reshape(-1)[0]))


def held(table: Table, agents: Agents, event: Event, ids: Indexes) -> Bools:
    """Whether ``event`` is held for each agent of ``ids``."""
    levels = table.layout.levels
    if event in levels:
        bits = table.info[agents.situations[ids], LEVELS]
        on: Bools = (bits >> levels.index(event) & 1).astype(np.bool_)
        return on
    flags = agents.extra.get(event)
    return np.zeros(ids.size, np.bool_) if flags is None else flags[ids]


def set_held(table: Table, agents: Agents, levels: Mapping[Event, Bools], ids: Indexes) -> None:
    """Hold or release ``levels`` (one boolean per agent of ``ids`` each), processing none."""
    chart_levels = table.layout.levels
    situations = agents.situations[ids]
    bits = table.info[situations, LEVELS].astype(np.int64)
    for event, on in levels.items():
        if event in chart_levels:
            bit = 1 << chart_levels.index(event)
            bits = np.where(on, bits | bit, bits & ~bit)
        elif on.any() or event in agents.extra:
            flags = agents.extra.setdefault(event, np.zeros(agents.capacity, np.bool_))
            flags[ids] = on
    if chart_levels:
        pairs = situations.astype(np.int64) << 32 | bits
        distinct, inverse = np.unique(pairs, return_inverse=True)
        found = [table.with_levels(int(p >> 32), int(p & 0xFFFFFFFF)) for p in distinct.tolist()]
        agents.widen(len(table.situations))
        agents.situations[ids] = np.asarray(found, np.int64)[inverse.reshape(-1)]
