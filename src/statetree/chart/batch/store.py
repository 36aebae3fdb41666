"""The per-agent state of a batch: structure of arrays, one column per agent slot.

Everything an agent is lives in these arrays (no Python object per agent), so a range of
columns can be copied out, sent elsewhere and copied back bit for bit. Between calls an
agent needs no serial numbers: only events of the current processing ever count.

Slots freed by ``despawn`` are reused (lowest first) before new ones are added; when the
arrays are full their capacity doubles, so spawning costs amortised constant time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from statetree.chart.batch.arrays import Bools, Floats, Indexes, NDArray, np, read_only
from statetree.chart.batch.bits import Bits, Packed
from statetree.chart.batch.plan import Plan
from statetree.chart.batch.work import Work
from statetree.chart.events import Event

__all__ = ["Store", "history_type"]

ARRAYS = ("alive", "active", "history", "held", "clock", "due", "sequence")
"""The per-agent arrays, in snapshot order; the agent is the last axis of each."""


def history_type(plan: Plan) -> type[np.signedinteger]:
    """The smallest integer type that holds a child index of ``plan``'s chart."""
    return np.int8 if plan.tree.widest <= 127 else np.int16


class Store:
    """The arrays of every agent slot of a batch.

    Attributes:
        size: how many slots are in use or were (agent indexes are below it).
        alive: whether each slot holds an agent.
        active: (words, slots) each agent's active states, packed (see ``bits``).
        bits: how ``active`` packs one flag per state.
        history: (states with children, slots) the child each state resumes.
        held: (held events, slots) whether the host holds each level event.
        clock: each agent's time, as advanced by ``tick``.
        due: (timer rows, slots) each timer's deadline (NaN: not running).
        sequence: (timer rows, slots) each timer's start order (no rows when timers of an
            agent can never run together).
        held_events: the event of each ``held`` row.
    """

    def __init__(self, plan: Plan, capacity: int, held_events: Sequence[Event] = ()) -> None:
        self.size = 0
        self.held_events: list[Event] = list(dict.fromkeys((*held_events, *plan.level_events)))
        capacity = max(capacity, 1)
        self.alive: Bools = np.zeros(capacity, np.bool_)
        self.bits = Bits(plan.states)
        self.active: Packed = self.bits.zeros(capacity)
        self.history: NDArray[np.signedinteger] = np.zeros(
            (plan.tree.history_rows, capacity), history_type(plan)
        )
        self.held: Bools = np.zeros((len(self.held_events), capacity), np.bool_)
        self.clock: Floats = np.zeros(capacity, np.float64)
        rows = plan.timers.rows
        self.due: Floats = np.full((rows, capacity), np.nan)
        self.sequence: NDArray[np.int64] = np.zeros((rows if rows > 1 else 0, capacity), np.int64)
        self._levels: tuple[Plan, Indexes] | None = None

    @property
    def capacity(self) -> int:
        """How many slots the arrays have room for."""
        return int(self.alive.size)

    def arrays(self) -> dict[str, NDArray[np.generic]]:
        """Every per-agent array, by name, in snapshot order."""
        return {name: getattr(self, name) for name in ARRAYS}

    def held_row(self, event: Event) -> int:
        """The row of ``event`` in ``held``, added (all released) if it is new."""
        if event not in self.held_events:
            self.held_events.append(event)
            self.held = np.concatenate([self.held, np.zeros((1, self.capacity), np.bool_)])
        return self.held_events.index(event)

    def states(self, ids: Indexes | slice = slice(None)) -> Bools:
        """``(states, agents)``: whether each state of the agents ``ids`` is active."""
        if isinstance(ids, slice):
            return self.bits.unpack(self.active[:, ids])
        return self.bits.take(self.active, ids)

    def flag_words(self, ids: Indexes) -> NDArray[Any]:
        """Each agent's active flags as one integer (bit ``n``: state ``n``): ``uint64``
        up to 64 states, Python integers past that."""
        if self.bits.words == 1:
            single: NDArray[np.uint64] = self.active[0, ids].astype(np.uint64)
            return single
        words = self.active[:, ids].astype(object)
        joined: NDArray[Any] = words[0].copy()
        for row in range(1, words.shape[0]):
            joined |= words[row] << (row * self.bits.width)
        return joined

    def flag_rows(self, numbers: Indexes) -> Bools:
        """``(len(numbers), size)``: whether each state ``numbers`` is active, per slot."""
        bits = self.bits
        rows: Bools = (
            self.active[bits.rows[numbers], : self.size] & bits.masks[numbers, None]
        ) != 0
        return rows

    def started(self, ids: Indexes) -> Bools:
        """Whether each agent of ``ids`` has active states (its root is active)."""
        started: Bools = (self.active[0, ids] & self.bits.masks[0]) != 0
        return started

    def state(self, number: int) -> Bools:
        """Whether state ``number`` is active, for every slot below ``size``."""
        return self.bits.flag(self.active[:, : self.size], number)

    def level_rows(self, plan: Plan) -> Indexes:
        """The rows of ``held`` holding ``plan``'s level triggers, in level order."""
        # Rows are only ever added, so the rows of a plan's levels, once there, stay put.
        known = self._levels
        if known is not None and known[0] is plan:
            return known[1]
        rows = read_only(np.array([self.held_row(e) for e in plan.level_events], np.intp))
        self._levels = (plan, rows)
        return rows

    # -- slots -----------------------------------------------------------------------------

    def spawn(self, count: int) -> Indexes:
        """``count`` new agents, not started: free slots first (lowest first), then new ones."""
        free = np.flatnonzero(~self.alive[: self.size])[:count]
        added = count - free.size
        if self.size + added > self.capacity:
            self.grow(max(2 * self.capacity, self.size + added))
        ids = np.concatenate([free, np.arange(self.size, self.size + added)]).astype(np.intp)
        self.size += added
        self.clear(ids)  # a restored snapshot's free slots may hold what its checks allow
        self.alive[ids] = True
        return ids

    def free(self, ids: Indexes) -> None:
        """Forget the agents ``ids``: their slots read as never used."""
        self.alive[ids] = False
        self.clear(ids)

    def clear(self, ids: Indexes) -> None:
        """Reset the slots ``ids`` to the arrays of an agent never started."""
        self.active[:, ids] = 0
        self.history[:, ids] = 0
        self.held[:, ids] = False
        self.clock[ids] = 0.0
        self.due[:, ids] = np.nan
        self.sequence[:, ids] = 0

    def grow(self, capacity: int) -> None:
        """Make room for ``capacity`` slots, keeping every agent."""
        for name, array in self.arrays().items():
            fill = np.nan if name == "due" else 0
            grown = np.full((*array.shape[:-1], capacity), fill, dtype=array.dtype)
            grown[..., : self.size] = array[..., : self.size]
            setattr(self, name, grown)

    # -- working sets ----------------------------------------------------------------------

    def gather(self, ids: Indexes, plan: Plan) -> Work:
        """A working set of the agents ``ids`` (ascending)."""
        parts = (
            self.bits.take(self.active, ids),
            self.history.take(ids, axis=1),
            self.held[self.level_rows(plan)[:, None], ids],
            self.clock.take(ids),
            self.due.take(ids, axis=1),
            self.sequence.take(ids, axis=1),
        )
        return Work(ids, parts, plan.edges)

    def scatter(self, work: Work, done: Bools) -> None:
        """Write back the agents of ``work`` where ``done`` is true."""
        every = bool(done.all())

        def chosen(array: NDArray[Any]) -> NDArray[Any]:
            return array if every else np.compress(done, array, axis=-1)

        ids = chosen(work.ids)
        # Row by row: NumPy writes one-dimensional rows at scattered places fastest.
        rows = (
            (self.active, self.bits.pack(chosen(work.active))),
            (self.history, chosen(work.history)),
            (self.due, chosen(work.due)),
            (self.sequence, chosen(work.sequence)),
        )
        for target, source in rows:
            for row in range(target.shape[0]):
                target[row, ids] = source[row]
        self.clock[ids] = chosen(work.clock)
