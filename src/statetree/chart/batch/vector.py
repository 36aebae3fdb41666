"""The NumPy pass: the compiled pass's contract, as array operations (no numba needed).

Same tables, same arrays, same outputs as :mod:`~statetree.chart.batch.kernel`: records,
undo rows and failures in ascending agent order, so the rest of a call cannot tell the two
apart. Entries never derived are derived here directly (it is Python already).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from statetree.chart.batch.arrays import Floats, Indexes, NDArray, np
from statetree.chart.batch.table import CALLS, FAIL, FIRE, NCALLS, NEXT, SRC

if TYPE_CHECKING:
    from statetree.chart.batch.agents import Agents
    from statetree.chart.batch.buffers import Buffers
    from statetree.chart.batch.table import Table

__all__ = ["group", "rows_after", "run", "send"]

KILL, START = -1, -2


def _entries(table: Table, situations: NDArray[Any], inputs: Indexes) -> Indexes:
    """The entry of each (situation, input) pair, derived where missing."""
    found: Indexes = table.table[situations, inputs].astype(np.intp)
    missing = found < 0
    if missing.any():
        for s, x in set(zip(situations[missing].tolist(), inputs[missing].tolist())):
            table.entry(s, x)
        found = table.table[situations, inputs].astype(np.intp)
    return found


def rows_after(
    table: Table, e: Indexes, due: Floats, order: NDArray[np.int64], clock: Floats
) -> tuple[Floats, NDArray[np.int64]]:
    """The timer rows of agents after entries ``e`` (``due``, ``order``: rows by agents,
    of the layout the entries' sources refer to)."""
    rows = table.layout.rows
    sources = table.entries[e, SRC : SRC + rows].T
    kept = sources >= 0
    picked = np.clip(sources, 0, None)
    after: Floats = np.full(sources.shape, np.nan)
    ordered = table.layout.ordered
    ranks = np.zeros(sources.shape if ordered else (0, e.size), np.int64)
    if due.shape[0]:
        after[kept] = np.take_along_axis(due, picked, axis=0)[kept]
        if ordered and order.shape[0]:
            ranks[kept] = np.take_along_axis(order, picked, axis=0)[kept]
    started = sources == START
    after[started] = (clock + table.delays[e].T)[started]
    if ordered:
        base = order.max(axis=0) if order.shape[0] else np.zeros(e.size, np.int64)
        ranks[started] = (base + table.entries[e, SRC + rows :].T)[started]
    return after, ranks


def _first_due(due: Floats, order: NDArray[np.int64], end: Floats) -> Indexes:
    """The row each agent fires first (``due``: rows, agents), or -1."""
    waiting = np.where(due <= end, due, np.inf)
    first = waiting.min(axis=0)
    candidates = waiting == first
    if order.shape[0]:
        ranks = np.where(candidates, order, np.iinfo(np.int64).max)
        chosen: Indexes = ranks.argmin(axis=0)
    else:
        chosen = candidates.argmax(axis=0)
    return np.where(np.isfinite(first), chosen, -1)


def run(
    table: Table,
    agents: Agents,
    ids: Indexes,
    inputs: Indexes,
    ends: Floats,
    bound: int,
    fired_from: int,
    out: Buffers,
) -> None:
    """:func:`statetree.chart.batch.kernel.run`, with array operations: each agent ``ids``
    processes its input, then (when ``ends`` is not empty) every agent fires its due
    timers, round by round."""
    size = agents.situations.size
    ticking = ends.size > 0
    end_of = ends[0] if ends.size == 1 else (ends[agents.epochs[:size]] if ticking else None)
    due_now = np.flatnonzero((agents.due[:, :size] <= end_of).any(axis=0)) if ticking else ids[:0]
    every = np.union1d(ids, due_now).astype(np.intp) if due_now.size else ids
    if every.size == 0:
        return
    before = (agents.situations[every].copy(), agents.due[:, every], agents.order[:, every])
    s, due, order = before[0].copy(), before[1].copy(), before[2].copy()
    clock = agents.clock(every).astype(np.float64)
    failed = np.full(every.size, -2, np.int64)
    records: list[tuple[Indexes, Indexes, Indexes]] = []
    given = np.searchsorted(every, ids)
    if given.size:
        e = _entries(table, s[given], np.broadcast_to(inputs, given.shape))
        numbers = np.zeros(given.size, np.int64)
        _apply(table, e, given, (s, due, order), clock, records, failed, numbers)
    if ticking:
        ends_of = np.broadcast_to(end_of, (size,))[every]
        _fire(table, (s, due, order), clock, ends_of, (bound, fired_from), records, failed)
    _finish(every, before, (s, due, order), (records, failed, clock), agents, out)


def _apply(
    table: Table,
    e: Indexes,
    going: Indexes,
    state: tuple[NDArray[Any], Floats, NDArray[np.int64]],
    clock: Floats,
    records: list[tuple[Indexes, Indexes, Indexes]],
    failed: NDArray[np.int64],
    numbers: Indexes,
) -> Indexes:
    """Apply entries ``e`` to the agents at ``going``; return those that did not fail."""
    s, due, order = state
    due[:, going], order[:, going] = rows_after(
        table, e, due[:, going], order[:, going], clock[going]
    )
    s[going] = table.entries[e, NEXT]
    calls = table.entries[e, NCALLS] > 0
    records.append((going[calls], numbers[calls], e[calls]))
    stop = table.entries[e, FAIL] >= 0
    failed[going[stop]] = e[stop]
    return going[~stop]


def _fire(
    table: Table,
    state: tuple[NDArray[Any], Floats, NDArray[np.int64]],
    clock: Floats,
    ends: Floats,
    limits: tuple[int, int],
    records: list[tuple[Indexes, Indexes, Indexes]],
    failed: NDArray[np.int64],
) -> None:
    """Fire every due timer of the agents that did not fail, round by round (``limits``:
    the most timers an agent fires, and the number of the first firing's processing)."""
    s, due, order = state
    bound, fired_from = limits
    fired = np.zeros(s.size, np.int64)
    going = np.flatnonzero(failed == -2)
    while going.size:
        rows = _first_due(due[:, going], order[:, going], ends[going])
        going, rows = going[rows >= 0], rows[rows >= 0]
        over = fired[going] == bound
        failed[going[over]] = -1
        going, rows = going[~over], rows[~over]
        if not going.size:
            break
        clock[going] = due[rows, going]
        due[rows, going] = np.nan
        e = _entries(table, s[going], table.info[s[going], FIRE + rows].astype(np.intp))
        fired[going] += 1
        numbers = fired_from + fired[going] - 1
        going = _apply(table, e, going, state, clock, records, failed, numbers)


def _finish(
    ids: Indexes,
    before: tuple[NDArray[Any], Floats, NDArray[np.int64]],
    after: tuple[NDArray[Any], Floats, NDArray[np.int64]],
    found: tuple[list[tuple[Indexes, Indexes, Indexes]], NDArray[np.int64], Floats],
    agents: Agents,
    out: Buffers,
) -> None:
    """Write a tick's outputs (agent order) and its agents' new arrays."""
    records, failed, clock = found
    where = np.concatenate([r[0] for r in records]) if records else np.zeros(0, np.intp)
    numbers = np.concatenate([r[1] for r in records]) if records else where
    entries = np.concatenate([r[2] for r in records]) if records else where
    order = np.lexsort((numbers, where))
    noted = np.zeros(ids.size, np.bool_)
    noted[where] = True
    noted |= failed != -2
    kept = ids[noted]
    out.put_undo(
        kept, before[0][noted], agents.epochs[kept], before[1][:, noted], before[2][:, noted]
    )
    out.put_records(ids[where[order]], numbers[order], entries[order])
    fails = failed != -2
    out.put_failures(ids[fails], failed[fails], clock[fails])
    agents.situations[ids] = after[0]
    agents.due[:, ids] = after[1]
    agents.order[:, ids] = after[2]


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
    records: NDArray[np.int64], entries: NDArray[np.int32], keys: NDArray[np.int32], ranked: NDArray[np.int64]
) -> tuple[list[tuple[int, int, int, int]], Indexes]:
    """The host calls of ``records``, bucket by bucket (see
    :func:`statetree.chart.batch.kernel.group`)."""
    nkeys = ranked.size
    e = records[:, 2]
    counts = entries[e, NCALLS].astype(np.intp)
    which = np.repeat(np.arange(e.size), counts)
    starts = np.repeat(entries[e, CALLS] - np.cumsum(counts) + counts, counts)
    keyed = keys[starts + np.arange(which.size)]
    rank = np.empty(nkeys, np.int64)
    rank[ranked] = np.arange(nkeys)
    order = np.lexsort((records[which, 0], rank[keyed], records[which, 1]))
    agents: Indexes = records[which[order], 0]
    numbers, keyed = records[which[order], 1], keyed[order]
    cuts = np.flatnonzero((np.diff(numbers) != 0) | (np.diff(keyed) != 0)) + 1
    starts_of = [0, *cuts.tolist()]
    stops = [*cuts.tolist(), agents.size]
    found = [
        (int(numbers[a]), int(keyed[a]), a, b) for a, b in zip(starts_of, stops, strict=True) if b > a
    ]
    return found, agents
