"""The NumPy pass: the compiled pass's contract, as array operations (no numba needed).

Same tables, same arrays, same outputs as :mod:`~statetree.chart.batch.kernel`: records,
undo rows and failures in ascending agent order, so the rest of a call cannot tell the two
apart. Entries never derived are derived here directly (it is Python already).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from statetree.chart.batch.arrays import Floats, Indexes, NDArray, np
from statetree.chart.batch.table import CALLS, FAIL, FIRE, NCALLS, NEXT, SRC

if TYPE_CHECKING:
    from statetree.chart.batch.agents import Agents
    from statetree.chart.batch.step import Buffers, Timing, Work
    from statetree.chart.batch.table import Table

__all__ = ["checked", "group", "rows_after", "run", "send"]

START = -2
Ints = NDArray[np.int64]


def _entries(table: Table, situations: NDArray[Any], inputs: Indexes) -> Indexes:
    """The entry of each (situation, input) pair, derived where missing."""
    found: Indexes = table.table[situations, inputs].astype(np.intp)
    missing = found < 0
    if missing.any():
        pairs = zip(situations[missing].tolist(), inputs[missing].tolist(), strict=True)
        for s, x in set(pairs):
            table.entry(s, x)
        found = table.table[situations, inputs].astype(np.intp)
    return found


def rows_after(
    table: Table, e: Indexes, due: Floats, order: Ints, clock: Floats
) -> tuple[Floats, Ints]:
    """The timer rows of agents after entries ``e`` (``due``, ``order``: rows by agents,
    of the layout the entries' sources refer to)."""
    # np.where throughout: a boolean index costs a search for its true entries.
    rows = table.layout.rows
    sources = table.entries[e, SRC : SRC + rows].T
    kept = sources >= 0
    picked = np.clip(sources, 0, None)
    started = sources == START
    after: Floats = np.full(sources.shape, np.nan)
    if due.shape[0]:
        after = np.where(kept, np.take_along_axis(due, picked, axis=0), after)
    after = np.where(started, clock + table.delays[e].T, after)
    if not table.layout.ordered:
        return after, np.zeros((0, e.size), np.int64)
    ranks = np.zeros(sources.shape, np.int64)
    if order.shape[0]:
        ranks = np.where(kept, np.take_along_axis(order, picked, axis=0), ranks)
    base = order.max(axis=0) if order.shape[0] else np.zeros(e.size, np.int64)
    return after, np.where(started, base + table.entries[e, SRC + rows :].T, ranks)


def _first_due(due: Floats, order: Ints, end: Floats) -> Indexes:
    """The row each agent fires first (``due``: rows, agents), or -1."""
    if due.shape[0] == 0:  # a chart without timers
        return np.full(end.shape, -1, np.intp)
    if due.shape[0] == 1:  # the common case, without the general case's minimum
        one: Indexes = np.where(due[0] <= end, 0, -1)
        return one
    waiting = np.where(due <= end, due, np.inf)
    first = waiting.min(axis=0)
    candidates = waiting == first
    if order.shape[0]:
        ranks = np.where(candidates, order, np.iinfo(np.int64).max)
        chosen: Indexes = ranks.argmin(axis=0)
    else:
        chosen = candidates.argmax(axis=0)
    return np.where(np.isfinite(first), chosen, -1)


@dataclass
class _Round:
    """The agents of a pass (``ids``, ascending) as they go: their situations, rows and
    clocks, the host calls they made and why some failed (-2: none)."""

    table: Table
    ids: Indexes
    s: NDArray[Any]
    due: Floats
    order: Ints
    clock: Floats
    failed: Ints
    records: list[tuple[Indexes, Indexes, Indexes]] = field(default_factory=list)

    def apply(self, e: Indexes, going: Indexes, numbers: Indexes) -> Indexes:
        """Apply entries ``e`` to the agents at ``going``; those that did not fail."""
        table = self.table
        self.due[:, going], self.order[:, going] = rows_after(
            table, e, self.due[:, going], self.order[:, going], self.clock[going]
        )
        self.s[going] = table.entries[e, NEXT]
        calls = table.entries[e, NCALLS] > 0
        if calls.all():
            self.records.append((going, numbers, e))
        elif calls.any():
            self.records.append((going[calls], numbers[calls], e[calls]))
        stop = table.entries[e, FAIL] >= 0
        if not stop.any():  # the rule: masks cost a search for their true entries
            return going
        self.failed[going[stop]] = e[stop]
        going_on: Indexes = going[~stop]
        return going_on

    def fire(self, ends: Floats, bound: int, fired_from: int) -> None:
        """Fire every due timer of the agents that did not fail, round by round."""
        fired = np.zeros(self.s.size, np.int64)
        stopped = self.failed != -2
        going = np.flatnonzero(~stopped) if stopped.any() else np.arange(self.s.size)
        while going.size:
            rows = _first_due(self.due[:, going], self.order[:, going], ends[going])
            going, rows = going[rows >= 0], rows[rows >= 0]
            over = fired[going] == bound
            self.failed[going[over]] = -1
            going, rows = going[~over], rows[~over]
            if not going.size:
                break
            self.clock[going] = self.due[rows, going]
            self.due[rows, going] = np.nan
            s = self.s[going]
            e = _entries(self.table, s, self.table.info[s, FIRE + rows].astype(np.intp))
            fired[going] += 1
            going = self.apply(e, going, fired_from + fired[going] - 1)

    def write(self, agents: Agents, out: Buffers) -> None:
        """Write the outputs (in agent order), then the agents' new arrays."""
        ids, records = self.ids, self.records
        none = np.zeros(0, np.intp)
        where = np.concatenate([r[0] for r in records]) if records else none
        numbers = np.concatenate([r[1] for r in records]) if records else none
        entries = np.concatenate([r[2] for r in records]) if records else none
        # Each round's agents are ascending: one round needs no sort.
        order = np.lexsort((numbers, where)) if len(records) > 1 else slice(None)
        fails = self.failed != -2
        failing = bool(fails.any())
        if len(records) == 1 and not failing:  # one round: its agents, each once
            kept = ids[where]
        else:
            noted = fails.copy()
            noted[where] = True
            kept = ids[noted]
        out.put_undo(
            kept, agents.situations[kept], agents.epochs[kept], agents.due[:, kept],
            agents.order[:, kept],
        )  # fmt: skip
        out.put_records(ids[where[order]], numbers[order], entries[order])
        if failing:
            out.put_failures(ids[fails], self.failed[fails], self.clock[fails])
        agents.widen(len(self.table.situations))
        agents.situations[ids] = self.s
        agents.due[:, ids] = self.due
        agents.order[:, ids] = self.order


def run(table: Table, agents: Agents, work: Work, timing: Timing, out: Buffers) -> None:
    """:func:`statetree.chart.batch.kernel.run`, with array operations: each agent given an
    input processes it, then (for a tick) every agent fires its due timers, round by
    round."""
    ids, inputs, count, mapping = work
    ends, bound, fired_from = timing
    size = agents.situations.size
    dense = count < 0  # a choice per agent slot (see the kernel)
    # Masks, not a union of sorted indexes or a search in them: both hash or sort.
    chosen = np.zeros(size, np.bool_)
    if dense:  # slots past the choices, kept for agents to come, have none
        chosen[: inputs.size] = inputs >= 0
    if ends.size:
        end_of = np.broadcast_to(ends[0] if ends.size == 1 else ends[agents.epochs], (size,))
        due = agents.due
        moving = due[0] <= end_of if due.shape[0] == 1 else (due <= end_of).any(axis=0)
        if not dense:
            chosen[ids] = True
        moving |= chosen
        every = np.flatnonzero(moving)
        given = np.flatnonzero(chosen[every])
    else:
        every = np.flatnonzero(chosen) if dense else ids.astype(np.intp)
        given = np.arange(every.size)
    if dense:
        inputs = mapping[inputs[every[given]]]
    if every.size == 0:
        return
    state = _Round(
        table,
        every,
        agents.situations[every],  # a fancy index copies
        agents.due[:, every],
        agents.order[:, every],
        np.full(every.size, agents.clocks[0]) if agents.clocks.size == 1 else agents.clock(every),
        np.full(every.size, -2, np.int64),
    )
    if given.size:
        e = _entries(table, state.s[given], np.broadcast_to(inputs, given.shape))
        state.apply(e, given, np.zeros(given.size, np.int64))
    if ends.size:
        state.fire(end_of[every], bound, fired_from)
    state.write(agents, out)


def checked(choices: NDArray[np.integer], events: int, situations: NDArray[Any]) -> int:
    """-1 when every choice (one per agent slot) names an event or none and every agent
    given one is there; else the position of the first that does not."""
    wrong = (choices >= events) | ((choices >= 0) & (situations[: choices.size] == 0))
    return int(wrong.argmax()) if wrong.any() else -1


def send(
    choices: NDArray[np.integer], ids: Indexes, mapping: Indexes, situations: NDArray[Any]
) -> tuple[Indexes, Indexes, int]:
    """The agents given an event and their inputs (``ids``: the agent of each choice, empty
    for choice ``i`` to agent ``i``), and -1; or, at the first wrong choice, empty arrays
    and its position (an event that does not exist, or an agent that does not)."""
    chosen = np.flatnonzero(choices >= 0)
    agents = (ids[chosen] if ids.size else chosen).astype(np.intp)
    picked = choices[chosen]
    wrong = (picked >= mapping.size) | (situations[agents] == 0)
    if wrong.any():
        return agents[:0], agents[:0], int(chosen[wrong.argmax()])
    return agents, mapping[picked.astype(np.intp)], -1


def group(
    records: NDArray[np.integer], entries: NDArray[np.int32], keys: NDArray[np.int32], ranked: Ints
) -> tuple[list[tuple[int, int, int, int]], Indexes]:
    """The host calls of ``records``, bucket by bucket (see
    :func:`statetree.chart.batch.kernel.group`)."""
    e = records[:, 2]
    counts = entries[e, NCALLS].astype(np.intp)
    which = np.repeat(np.arange(e.size), counts)
    starts = np.repeat(entries[e, CALLS] - np.cumsum(counts) + counts, counts)
    keyed = keys[starts + np.arange(which.size)]
    rank = np.empty(ranked.size, np.int64)
    rank[ranked] = np.arange(ranked.size)
    # Records come by agent: a stable sort by bucket keeps each bucket's agents ascending
    # (NumPy's stable sort of 16-bit keys is a radix sort).
    bucket = records[which, 1].astype(np.int64) * ranked.size + rank[keyed]
    small = np.int16 if bucket.size == 0 or bucket.max() < 1 << 15 else np.int64
    order = np.argsort(bucket.astype(small), kind="stable")
    agents: Indexes = records[which[order], 0].astype(np.intp)
    numbers, keyed = records[which[order], 1], keyed[order]
    cuts = (np.flatnonzero((np.diff(numbers) != 0) | (np.diff(keyed) != 0)) + 1).tolist()
    bounds = zip([0, *cuts], [*cuts, agents.size], strict=True)
    found = [(int(numbers[a]), int(keyed[a]), a, b) for a, b in bounds if b > a]
    return found, agents
