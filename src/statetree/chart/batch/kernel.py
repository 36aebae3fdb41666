"""The compiled pass: one loop over the agents of a call, in numba.

Each function reads a chart's tables (:mod:`~statetree.chart.batch.table`) and the agents'
arrays, and steps every agent it is given in one pass, in ascending order. What it cannot do
in compiled code it reports through ``status`` and stops *before* touching the agent
concerned, so the caller can act and call again from there: an entry never derived (the
caller derives it) or a full output buffer (the caller grows it). The host calls an agent
makes are written as *records* (agent, processing number, entry); agents that make host
calls or fail also get an *undo* row: their arrays as they were before the call.

Compiled once per machine and cached on disk (numba's ``cache=True``).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np

from statetree.chart.batch.buffers import CODE, MISSING_S, MISSING_X, NFAIL, NREC, NUNDO, POS
from statetree.chart.batch.table import CALLS, FAIL, FIRE, NCALLS, NEXT, SRC

__all__ = ["DONE", "FULL", "MISS", "group", "process", "send", "tick"]

DONE, MISS, FULL = 0, 1, 2
"""Status codes (``status[CODE]``)."""
BAD_CHOICE, DEAD = -1, -2
"""What :func:`send` returns for a choice naming no event, or an agent that is not there."""
KILL, START = -1, -2

Array = Any
jit = numba.njit(cache=True)


@jit
def _rows(entries: Array, delays: Array, e: int, due: Array, order: Array, clock: float) -> None:
    """Apply entry ``e``'s row sources to one agent's ``due`` and ``order`` (its rows).

    Within one chart a row keeps its own deadline, stops or starts: never another's.
    """
    rows = due.size
    base = 0
    for r in range(order.size):
        base = max(base, order[r])
    for r in range(rows):
        source = entries[e, SRC + r]
        if source == KILL:
            due[r] = math.nan
        elif source == START:
            due[r] = clock + delays[e, r]
            if order.size:
                order[r] = base + entries[e, SRC + rows + r]


@jit
def _note(agent: int, s: int, agents: Any, b: Any, undo: int) -> None:
    """Undo row ``undo`` for ``agent`` (in situation ``s``): its arrays before the call."""
    epochs, due, order = agents[1], agents[3], agents[4]
    b[1][undo, 0], b[1][undo, 1], b[1][undo, 2] = agent, s, epochs[agent]
    for r in range(due.shape[0]):
        b[2][undo, r] = due[r, agent]
    for r in range(order.shape[0]):
        b[3][undo, r] = order[r, agent]


@jit
def _full(b: Any, records: int, undo: int, fails: int) -> bool:
    return records >= b[0].shape[0] or undo >= b[1].shape[0] or fails >= b[4].shape[0]


@jit
def process(ids: Array, inputs: Array, count: int, agents: Any, program: Any, b: Any) -> None:
    """One processing for each agent ``ids[i]``, ``i < count`` (ascending), of input
    ``inputs[i]`` (or ``inputs[0]`` for all when it has one entry)."""
    situations, epochs, clocks, due, order = agents
    table, entries, delays = program[0], program[2], program[3]
    status = b[6]
    records, undo, fails = status[NREC], status[NUNDO], status[NFAIL]
    one = inputs.size == 1
    i = status[POS]
    code = DONE
    while i < count:
        agent = ids[i]
        s = situations[agent]
        x = inputs[0] if one else inputs[i]
        e = table[s, x]
        if e < 0:
            code = MISS
            status[MISSING_S], status[MISSING_X] = s, x
            break
        calls, fail = entries[e, NCALLS], entries[e, FAIL]
        clock = clocks[epochs[agent]]
        if calls or fail >= 0:
            if _full(b, records, undo, fails):
                code = FULL
                break
            _note(agent, s, agents, b, undo)
            undo += 1
            if calls:
                b[0][records, 0], b[0][records, 1], b[0][records, 2] = agent, 0, e
                records += 1
            if fail >= 0:
                b[4][fails, 0], b[4][fails, 1] = agent, e
                b[5][fails] = clock
                fails += 1
        if due.shape[0]:
            _rows(entries, delays, e, due[:, agent], order[:, agent], clock)
        situations[agent] = entries[e, NEXT]
        i += 1
    status[POS], status[CODE] = i, code
    status[NREC], status[NUNDO], status[NFAIL] = records, undo, fails


@jit
def send(  # noqa: PLR0913
    choices: Array, ids: Array, mapping: Array, todo: Array, agents: Any, program: Any, b: Any
) -> int:
    """``send_each``: check every choice first, list the agents given an event and their
    inputs in ``todo`` (its rows 0 and 1), then process them (:func:`process`).

    ``ids`` names the agent of each choice (empty: choice ``i`` is agent ``i``). Returns how
    many agents were given an event, or :data:`BAD_CHOICE` / :data:`DEAD` with
    ``todo[0, 0]`` the position of the first wrong choice (nothing changed then).
    """
    situations = agents[0]
    count = 0
    named = ids.size > 0
    events = mapping.size
    for i in range(choices.size):
        choice = choices[i]
        if choice < 0:
            continue
        agent = ids[i] if named else i
        if choice >= events or situations[agent] == 0:
            todo[0, 0] = i
            return BAD_CHOICE if choice >= events else DEAD
        todo[0, count] = agent
        todo[1, count] = mapping[choice]
        count += 1
    process(todo[0], todo[1], count, agents, program, b)
    return count


@jit
def _first_due(due: Array, order: Array, end: float) -> int:
    """The row whose timer fires first, by deadline then start order (-1: none due)."""
    found = -1
    for r in range(due.size):
        d = due[r]
        if d <= end and (
            found < 0
            or d < due[found]
            or (d == due[found] and order.size > 0 and order[r] < order[found])
        ):
            found = r
    return found


@jit
def tick(ends: Array, bound: int, agents: Any, program: Any, b: Any) -> None:  # noqa: PLR0915
    """Every agent slot whose timers are due by its epoch's end (``ends``) fires them in
    order, each its own processing; at most ``bound`` each."""
    situations, epochs, clocks, due, order = agents
    table, info, entries, delays = program
    status = b[6]
    records, undo, fails = status[NREC], status[NUNDO], status[NFAIL]
    single = ends.size == 1
    rows = due.shape[0]
    mine = np.empty(rows, np.float64)
    ranks = np.empty(order.shape[0], np.int64)
    code = DONE
    agent = status[POS]
    size = situations.size
    while agent < size:
        end = ends[0] if single else ends[epochs[agent]]
        waiting = False
        for r in range(rows):
            if due[r, agent] <= end:
                waiting = True
        if not waiting:
            agent += 1
            continue
        s = situations[agent]
        for r in range(rows):
            mine[r] = due[r, agent]
        for r in range(order.shape[0]):
            ranks[r] = order[r, agent]
        first = records
        fired = 0
        clock = 0.0
        failed = -2  # none; -1: too many timers; else the entry that did not settle
        while True:
            r = _first_due(mine, ranks, end)
            if r < 0:
                break
            if fired == bound:
                failed = -1
                break
            fired += 1
            clock = mine[r]
            mine[r] = math.nan
            x = info[s, FIRE + r]
            e = table[s, x]
            if e < 0:
                code = MISS
                status[MISSING_S], status[MISSING_X] = s, x
                break
            _rows(entries, delays, e, mine, ranks, clock)
            s = entries[e, NEXT]
            if entries[e, NCALLS]:
                if records >= b[0].shape[0]:
                    code = FULL
                    break
                b[0][records, 0], b[0][records, 1], b[0][records, 2] = agent, fired - 1, e
                records += 1
            if entries[e, FAIL] >= 0:
                failed = e
                break
        if code == DONE and (records > first or failed != -2) and _full(b, 0, undo, fails):
            code = FULL
        if code != DONE:
            records = first
            break
        if records > first or failed != -2:
            _note(agent, situations[agent], agents, b, undo)
            undo += 1
        if failed != -2:
            b[4][fails, 0], b[4][fails, 1] = agent, failed
            b[5][fails] = clock
            fails += 1
        situations[agent] = s
        for r in range(rows):
            due[r, agent] = mine[r]
        for r in range(order.shape[0]):
            order[r, agent] = ranks[r]
        agent += 1
    status[POS], status[CODE] = agent, code
    status[NREC], status[NUNDO], status[NFAIL] = records, undo, fails


@jit
def group(records: Array, count: int, entries: Array, keys: Array, ranked: Array) -> Any:
    """The host calls of ``records``, bucket by bucket: a bucket is a processing number and
    a call key, in the order calls are made (by number, then by the keys' rank in
    ``ranked``). Returns ``(number, key, start, stop)`` of each bucket that has agents,
    and the agents, ascending in each bucket (``agents[start:stop]``)."""
    nkeys = ranked.size
    last = 0
    for j in range(count):
        last = max(last, records[j, 1])
    counts = np.zeros((last + 1) * nkeys + 1, np.int64)
    for j in range(count):
        e = records[j, 2]
        start = entries[e, CALLS]
        for c in range(entries[e, NCALLS]):
            counts[records[j, 1] * nkeys + keys[start + c] + 1] += 1
    for k in range(1, counts.size):
        counts[k] += counts[k - 1]
    fill = counts[:-1].copy()
    agents = np.empty(counts[-1], np.int64)
    for j in range(count):
        e = records[j, 2]
        start = entries[e, CALLS]
        for c in range(entries[e, NCALLS]):
            bucket = records[j, 1] * nkeys + keys[start + c]
            agents[fill[bucket]] = records[j, 0]
            fill[bucket] += 1
    found = []
    for number in range(last + 1):
        for key in ranked:
            bucket = number * nkeys + key
            if counts[bucket + 1] > counts[bucket]:
                found.append((number, key, counts[bucket], counts[bucket + 1]))
    return found, agents
