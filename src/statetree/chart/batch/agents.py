"""The agents of a batch: a few arrays, one column per agent slot.

An agent is its situation's number (``situations``, 0 for a free slot), its clock and the
deadline of each timer row (NaN: not running), with each row's start order when timers of
one agent can run together. Clocks are shared: agents spawned in the same frame tick
together for ever, so each agent only names its *epoch*, and a tick advances each epoch's
clock once, with the same additions every agent's own machine would make. Levels the host
holds that the chart does not use (kept for a reload to a chart that does) live aside, one
boolean per slot, only for such events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from statetree.chart.batch.arrays import Bools, Floats, Indexes, NDArray, np
from statetree.chart.batch.table import LEVELS, Table
from statetree.chart.events import Event
from statetree.errors import UsageError

__all__ = ["MAX_AGENTS", "Agents", "check_room", "held", "set_held"]

MAX_AGENTS = (1 << 31) - 1
"""The most agent slots a batch holds: a pass lists agents as 32-bit numbers."""
COMPACT_EPOCHS = 64
"""Epochs may number this many (or twice the last count in use) before unused ones go."""


class Agents:
    """Every agent slot of a batch.

    Attributes:
        size: slots in use or used before (agent indexes are below it).
        situations: each slot's situation, in the narrowest unsigned type that holds the
            table's numbers (``uint8`` up to 255 situations: a pass reads fewer bytes).
        epochs: each slot's epoch; ``clocks``: each epoch's clock.
        due: ``(rows, slots)`` each timer row's deadline.
        order: ``(rows, slots)`` each row's start order (no rows unless timers of an agent
            can run together).
        extra: levels held that the chart does not use: one boolean per slot, by event.
    """

    def __init__(self, capacity: int, rows: int, ordered: bool) -> None:
        check_room(capacity)
        capacity = max(capacity, 1)
        self.size = 0
        self.situations: NDArray[Any] = np.zeros(capacity, np.uint8)
        self.epochs: NDArray[np.uint32] = np.zeros(capacity, np.uint32)
        self.clocks: Floats = np.zeros(1, np.float64)
        self.due: Floats = np.full((rows, capacity), np.nan)
        self.order: NDArray[np.int64] = np.zeros((rows if ordered else 0, capacity), np.int64)
        self.extra: dict[Event, Bools] = {}
        self._compacted = 1

    @property
    def capacity(self) -> int:
        """How many slots the arrays have room for."""
        return int(self.situations.size)

    @property
    def alive(self) -> Bools:
        """Whether each slot below ``size`` holds an agent."""
        alive: Bools = self.situations[: self.size] != 0
        return alive

    @property
    def nbytes(self) -> int:
        """The bytes of every per-agent array."""
        arrays = (self.situations, self.epochs, self.due, self.order, *self.extra.values())
        return sum(array.nbytes for array in arrays)

    def clock(self, ids: Indexes | int) -> Any:
        """The clock of the agents ``ids``."""
        return self.clocks[self.epochs[ids]]

    def widen(self, situations: int) -> None:
        """Make room for situation numbers up to ``situations``."""
        needed = np.min_scalar_type(situations)
        if needed.itemsize > self.situations.itemsize:
            self.situations = self.situations.astype(needed)

    # -- slots -----------------------------------------------------------------------------

    def spawn(self, count: int, fresh: int) -> Indexes:
        """``count`` agents in situation ``fresh`` at clock 0: free slots first (lowest
        first), then new ones; the arrays double when full."""
        free = np.flatnonzero(self.situations[: self.size] == 0)[:count]
        added = count - free.size
        if self.size + added > self.capacity:
            check_room(self.size + added)
            self.grow(min(max(2 * self.capacity, self.size + added), MAX_AGENTS))
        ids = np.concatenate([free, np.arange(self.size, self.size + added)]).astype(np.intp)
        self.size += added
        self.clear(ids)
        self.situations[ids] = fresh
        self.epochs[ids] = self.epoch_of(0.0)
        return ids

    def free(self, ids: Indexes) -> None:
        """Forget the agents ``ids``: their slots read as never used."""
        self.clear(ids)
        self.situations[ids] = 0
        self.epochs[ids] = 0  # every slot names a clock, after a compaction too

    def clear(self, ids: Indexes) -> None:
        """No timer, no extra level, for the slots ``ids``."""
        self.due[:, ids] = np.nan
        self.order[:, ids] = 0
        for flags in self.extra.values():
            flags[ids] = False

    def relayout(self, rows: int, ordered: bool) -> None:
        """Timer rows for another chart: ``rows`` of them, none running."""
        self.due = np.full((rows, self.capacity), np.nan)
        self.order = np.zeros((rows if ordered else 0, self.capacity), np.int64)

    def grow(self, capacity: int) -> None:
        """Make room for ``capacity`` slots, keeping every agent."""

        def grown(array: NDArray[Any], fill: object) -> NDArray[Any]:
            bigger = np.full((*array.shape[:-1], capacity), fill, array.dtype)
            bigger[..., : self.size] = array[..., : self.size]
            return bigger

        self.situations = grown(self.situations, 0)
        self.epochs = grown(self.epochs, 0)
        self.due = grown(self.due, np.nan)
        self.order = grown(self.order, 0)
        self.extra = {event: grown(flags, False) for event, flags in self.extra.items()}

    # -- clocks ----------------------------------------------------------------------------

    def epoch_of(self, clock: float) -> int:
        """An epoch reading ``clock`` (a new one if none does)."""
        same = np.flatnonzero(self.clocks == clock)
        if same.size:
            return int(same[0])
        self.clocks = np.append(self.clocks, clock)
        return int(self.clocks.size - 1)

    def set_clocks(self, ids: Indexes, clocks: Floats) -> None:
        """Give the agents ``ids`` the clocks ``clocks``."""
        if ids.size == 0:
            return
        values, inverse = np.unique(clocks, return_inverse=True)
        epochs = np.array([self.epoch_of(float(value)) for value in values.tolist()], np.uint32)
        self.epochs[ids] = epochs[inverse.reshape(-1)]

    def tidy(self) -> None:
        """Drop epochs no agent is in, once they have piled up (between calls only)."""
        if self.clocks.size >= max(COMPACT_EPOCHS, 2 * self._compacted):
            self.compact()

    def compact(self) -> None:
        """Keep only the epochs some agent is in, one per distinct clock."""
        alive = self.situations[: self.size] != 0
        used = self.epochs[: self.size][alive]
        values, inverse = np.unique(self.clocks[used], return_inverse=True)
        self.epochs[: self.size][alive] = inverse.reshape(-1).astype(np.uint32)
        self.clocks = values if values.size else np.zeros(1, np.float64)
        self._compacted = int(self.clocks.size)


def check_room(slots: int) -> None:
    """Refuse a batch (or a sharded one) of more than :data:`MAX_AGENTS` slots.

    Raises:
        UsageError: ``slots`` is more.
    """
    if slots > MAX_AGENTS:
        raise UsageError(f"a batch holds at most {MAX_AGENTS:,} agents, {slots:,} were asked for")


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
