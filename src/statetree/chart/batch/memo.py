"""What a processing does, remembered: one entry per distinct case, shared by every agent in it.

A processing's course depends on nothing but the agent's active states, its histories, the
level triggers the host holds and the event latched: serial numbers start from zero in each
processing, and the clock and the timers are only written. So the batch keys each agent by
those, packed into one integer (:class:`Keys`), and the first time a key is seen it runs the
processing once, on one agent (:mod:`statetree.chart.batch.recall`). The entry records the
host actions performed, in order, and the end: the active states, histories, which timer rows
were started (with their delays, in start order) or killed, and whether the processing failed.
Every later agent with that key takes the entry's end by table lookups.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from statetree.chart.actions import ActionCall
from statetree.chart.batch.arrays import Floats, Indexes, NDArray, np
from statetree.chart.batch.errors import Failure
from statetree.chart.batch.plan import Plan
from statetree.chart.batch.store import Store

__all__ = ["LIMIT", "Ending", "Keys", "Memo", "Trace"]

Trace = tuple[tuple[int, int], ...]
"""The host calls of a processing, in order, as (moment, call number): moments order the
calls of all agents as the pass engine makes them (see ``recall``)."""

LIMIT = 1 << 14
"""Entries a memo holds; past it, it starts over (a chart with that many distinct cases)."""
_KEY_BITS = 63


@dataclass(frozen=True, eq=False)
class Keys:
    """How an agent's case is packed into one ``int64``: active flags, histories, held
    levels and the latched event's row, side by side.

    Attributes:
        history: the weight of each history row (its value is shifted into place).
        levels: the weight of each level trigger of the chart.
        edges: the key bits of each latch row, then of none (row -1).
    """

    history: NDArray[np.int64]
    levels: NDArray[np.int64]
    edges: NDArray[np.int64]

    @classmethod
    def of(cls, plan: Plan, store: Store) -> Keys | None:
        """The packing for ``plan`` (``None`` if a case does not fit in 63 bits)."""
        if store.bits.words != 1:
            return None
        widths = [max(1, (len(kids) - 1).bit_length()) for kids in plan.tree.children if kids]
        shifts, at = [], plan.states
        for width in widths:
            shifts.append(at)
            at += width
        levels = [at + level for level in range(len(plan.level_events))]
        at += len(levels)
        if at + plan.edges.bit_length() > _KEY_BITS:
            return None
        weights = np.left_shift(1, np.array(shifts, np.int64))
        edges = np.left_shift(np.arange(1, plan.edges + 2, dtype=np.int64), at)
        edges[-1] = 0
        return cls(weights, np.left_shift(1, np.array(levels, np.int64)), edges)

    def of_agents(
        self, store: Store, ids: Indexes, levels: Indexes, edge: int | Indexes | None
    ) -> NDArray[np.int64]:
        """The key of each agent ``ids`` about to process ``edge`` (``levels``: the rows of
        ``store.held`` holding the chart's levels)."""
        if self.history.size:
            keys: NDArray[np.int64] = self.history.dot(store.history.take(ids, axis=1))
            # Flags of 33 to 63 states are uint64, which NumPy will not or into int64.
            keys |= store.active[0][ids].astype(np.int64)
        else:
            keys = store.active[0][ids].astype(np.int64)
        if self.levels.size:
            keys |= self.levels @ store.held[levels[:, None], ids]
        if edge is not None:
            keys |= self.edges[edge]
        return keys


@dataclass(eq=False)
class Ending:
    """How the processings of some cases ended, one column per case (as learnt together).

    Attributes:
        active: (words, cases) the packed active flags.
        history: (history rows, cases) the histories.
        kept: (timer rows, cases) whether each row was left as it was.
        delays: (timer rows, cases) the delay of each row started (NaN: killed; a running
            timer reads the clock plus its delay, a dead one NaN).
        ranks: (timer rows, cases) the order rows were (last) started in, from 1 (0: not
            started).
        calls: the host calls of each case, in order.
        failures: why each case failed, or ``None``.
        timed: whether each case started or killed a timer.
    """

    active: NDArray[np.unsignedinteger]
    history: NDArray[np.signedinteger]
    kept: NDArray[np.bool_]
    delays: Floats
    ranks: NDArray[np.int64]
    calls: list[Trace]
    failures: list[Failure | None]
    timed: list[bool]


@dataclass(eq=False)
class Memo:
    """The endings of every case seen, by key, and the host calls they name by number.

    Entries live in growing arrays (one column per entry), so the ending of many agents is
    a few ``take`` operations.
    """

    plan: Plan
    keys: Keys
    index: dict[int, int] = field(default_factory=dict)
    table: Ending | None = None
    calls: list[tuple[int, ActionCall]] = field(default_factory=list)
    numbers: dict[int, int] = field(default_factory=dict)
    sorted: tuple[NDArray[np.int64], Indexes] | None = None
    """The known keys, sorted, and their entries (rebuilt after learning)."""
    makes_calls: NDArray[np.bool_] | None = None
    """Whether each entry makes host calls (rebuilt after learning)."""

    def calling(self) -> NDArray[np.bool_]:
        """Whether each entry makes host calls."""
        if self.makes_calls is None:
            calls = [] if self.table is None else self.table.calls
            self.makes_calls = np.array([bool(trace) for trace in calls], np.bool_)
        return self.makes_calls

    def call_number(self, slot: int, call: ActionCall) -> int:
        """The number of host call ``call`` (handler ``slot``), numbered when first seen."""
        number = self.numbers.get(id(call))
        if number is None:
            number = self.numbers[id(call)] = len(self.calls)
            self.calls.append((slot, call))
        return number

    def lookup(self, keys: NDArray[np.int64]) -> Indexes | None:
        """The entry of each key, or ``None`` if one is not known yet."""
        if self.sorted is None:
            known = np.fromiter(self.index, np.int64, len(self.index))
            order = np.argsort(known)
            entries = np.fromiter(self.index.values(), np.intp, len(self.index))
            self.sorted = (known[order], entries[order])
        known, entries = self.sorted
        if known.size == 0:
            return None
        at = np.minimum(np.searchsorted(known, keys), known.size - 1)
        if not np.array_equal(known[at], keys):
            return None
        found: Indexes = entries[at]
        return found

    def entries(self, keys: list[int]) -> list[int]:
        """The entry of each key (-1 where there is none yet)."""
        get = self.index.get
        return [get(key, -1) for key in keys]

    def learn(self, keys: list[int], ending: Ending) -> list[int]:
        """Add the endings of ``keys`` (one column each); return their entries."""
        if len(self.index) + len(keys) > LIMIT:
            self.index.clear()
            self.table = None
        start = 0 if self.table is None else self.table.active.shape[1]
        self.table = ending if self.table is None else _joined(self.table, ending)
        entries = list(range(start, start + len(keys)))
        self.index.update(zip(keys, entries, strict=True))
        self.sorted = self.makes_calls = None
        return entries


def _joined(old: Ending, new: Ending) -> Ending:
    def join(a: NDArray[np.generic], b: NDArray[np.generic]) -> NDArray[np.generic]:
        return np.concatenate([a, b], axis=1)

    return Ending(
        join(old.active, new.active),  # type: ignore[arg-type]
        join(old.history, new.history),  # type: ignore[arg-type]
        join(old.kept, new.kept),  # type: ignore[arg-type]
        join(old.delays, new.delays),  # type: ignore[arg-type]
        join(old.ranks, new.ranks),  # type: ignore[arg-type]
        old.calls + new.calls,
        old.failures + new.failures,
        old.timed + new.timed,
    )
