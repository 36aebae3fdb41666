"""The compiled pass: one loop over the agents of a call, in numba.

Each function reads a chart's tables (:mod:`~statetree.chart.batch.table`) and the agents'
arrays, and steps every agent it is given in one pass, in ascending order. What it cannot
do in compiled code it reports through ``status`` and stops *before* touching the agent
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

from statetree.chart.batch.table import CALLS, FAIL, FIRE, NCALLS, NEXT, SRC

__all__ = ["BAD_CHOICE", "DEAD", "DONE", "FULL", "MISS", "choose", "group", "process", "tick"]

DONE, MISS, FULL, BAD_CHOICE, DEAD = 0, 1, 2, 3, 4
"""Status codes (``status[CODE]``)."""
POS, CODE, NREC, NUNDO, NFAIL, MISSING_S, MISSING_X = range(7)
"""Slots of ``status``: where to go on, the code, the buffers' counts, the missing pair."""

KILL, START = -1, -2

Array = Any
jit = numba.njit(cache=True, nogil=False)


@jit  # type: ignore[misc]
def choose(  # noqa: PLR0913
    choices: Array, ids: Array, mapping: Array, situations: Array, todo: Array, inputs: Array
) -> int:
    """The agents given an event (``choices[i] >= 0``) and their inputs, into ``todo`` and
    ``inputs``; ``ids`` names the agent of each choice (empty: choice ``i`` is agent ``i``).

    Returns the count, or ``-1 - i`` for the first bad choice ``i`` (``todo[0]`` then says
    why: :data:`BAD_CHOICE` or :data:`DEAD`).
    """
    count = 0
    named = ids.size > 0
    events = mapping.size
    for i in range(choices.size):
        choice = choices[i]
        if choice < 0:
            continue
        agent = ids[i] if named else i
        if choice >= events:
            todo[0] = BAD_CHOICE
            return -1 - i
        if situations[agent] == 0:
            todo[0] = DEAD
            return -1 - i
        todo[count] = agent
        inputs[count] = mapping[choice]
        count += 1
    return count


@jit  # type: ignore[misc]
def _rows(  # noqa: PLR0913
    entries: Array, delays: Array, e: int, due: Array, order: Array, clock: float
) -> None:
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


@jit  # type: ignore[misc]
def _save(agent: int, situation: int, epoch: int, due: Array, order: Array, b: Any) -> None:
    """An undo row for ``agent`` (the caller checked there is room)."""
    n = b[6][NUNDO]
    b[1][n, 0] = agent
    b[1][n, 1] = situation
    b[1][n, 2] = epoch
    b[2][n, :] = due
    b[3][n, :] = order
    b[6][NUNDO] = n + 1


@jit  # type: ignore[misc]
def _room(b: Any, records: int) -> bool:
    """Whether the buffers can take ``records`` records, one undo row and one failure."""
    status = b[6]
    return (
        status[NREC] + records <= b[0].shape[0]
        and status[NUNDO] < b[1].shape[0]
        and status[NFAIL] < b[4].shape[0]
    )


@jit  # type: ignore[misc]
def process(  # noqa: PLR0913
    ids: Array, inputs: Array, agents: Any, program: Any, b: Any
) -> None:
    """One processing for each agent ``ids[i]`` (ascending), of input ``inputs[i]`` (or
    ``inputs[0]`` for all)."""
    situations, epochs, clocks, due, order = agents
    table, entries, delays = program[0], program[2], program[3]
    status = b[6]
    one = inputs.size == 1
    while status[POS] < ids.size:
        i = status[POS]
        agent = ids[i]
        s = situations[agent]
        x = inputs[0] if one else inputs[i]
        e = table[s, x]
        if e < 0:
            status[CODE], status[MISSING_S], status[MISSING_X] = MISS, s, x
            return
        calls, fail = entries[e, NCALLS], entries[e, FAIL]
        if calls or fail >= 0:
            if not _room(b, 1):
                status[CODE] = FULL
                return
            _save(agent, s, epochs[agent], due[:, agent], order[:, agent], b)
            if calls:
                n = status[NREC]
                b[0][n, 0], b[0][n, 1], b[0][n, 2] = agent, 0, e
                status[NREC] = n + 1
            if fail >= 0:
                n = status[NFAIL]
                b[4][n, 0], b[4][n, 1] = agent, e
                b[5][n] = clocks[epochs[agent]]
                status[NFAIL] = n + 1
        if due.shape[0]:
            _rows(entries, delays, e, due[:, agent], order[:, agent], clocks[epochs[agent]])
        situations[agent] = entries[e, NEXT]
        status[POS] = i + 1
    status[CODE] = DONE


@jit  # type: ignore[misc]
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


@jit  # type: ignore[misc]
def tick(ends: Array, bound: int, agents: Any, program: Any, b: Any) -> None:  # noqa: PLR0915
    """Every agent slot below ``len(situations)`` whose timers are due by its epoch's end
    (``ends``) fires them in order, each its own processing; at most ``bound`` each."""
    situations, epochs, clocks, due, order = agents
    table, info, entries, delays = program[0], program[1], program[2], program[3]
    status = b[6]
    single = ends.size == 1
    rows = due.shape[0]
    size = situations.size
    mine = np.empty(rows, np.float64)
    ranks = np.empty(order.shape[0], np.int64)
    for agent in range(status[POS], size):
        end = ends[0] if single else ends[epochs[agent]]
        waiting = False
        for r in range(rows):
            if due[r, agent] <= end:
                waiting = True
        if not waiting:
            continue
        s = situations[agent]
        mine[:] = due[:, agent]
        ranks[:] = order[:, agent]
        first = status[NREC]
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
                status[NREC] = first
                status[POS], status[CODE] = agent, MISS
                status[MISSING_S], status[MISSING_X] = s, x
                return
            _rows(entries, delays, e, mine, ranks, clock)
            s = entries[e, NEXT]
            if entries[e, NCALLS]:
                n = status[NREC]
                if n == b[0].shape[0]:
                    status[NREC] = first
                    status[POS], status[CODE] = agent, FULL
                    return
                b[0][n, 0], b[0][n, 1], b[0][n, 2] = agent, fired - 1, e
                status[NREC] = n + 1
            if entries[e, FAIL] >= 0:
                failed = e
                break
        if status[NREC] > first or failed != -2:
            if not _room(b, 0):
                status[NREC] = first
                status[POS], status[CODE] = agent, FULL
                return
            _save(agent, situations[agent], epochs[agent], due[:, agent], order[:, agent], b)
        if failed != -2:
            n = status[NFAIL]
            b[4][n, 0], b[4][n, 1] = agent, failed
            b[5][n] = clock
            status[NFAIL] = n + 1
        situations[agent] = s
        due[:, agent] = mine
        order[:, agent] = ranks
    status[POS] = size
    status[CODE] = DONE


@jit  # type: ignore[misc]
def group(records: Array, count: int, entries: Array, keys: Array, nkeys: int) -> Any:
    """The agents of each (processing number, call key) bucket, ascending: bucket ``k``'s
    agents are ``agents[offsets[k]:offsets[k + 1]]`` (bucket = number * nkeys + key)."""
    last = 0
    for j in range(count):
        last = max(last, records[j, 1])
    offsets = np.zeros((last + 1) * nkeys + 1, np.int64)
    for j in range(count):
        e = records[j, 2]
        start = entries[e, CALLS]
        for c in range(entries[e, NCALLS]):
            offsets[records[j, 1] * nkeys + keys[start + c] + 1] += 1
    for k in range(1, offsets.size):
        offsets[k] += offsets[k - 1]
    fill = offsets[:-1].copy()
    agents = np.empty(offsets[-1], np.int64)
    for j in range(count):
        e = records[j, 2]
        start = entries[e, CALLS]
        for c in range(entries[e, NCALLS]):
            bucket = records[j, 1] * nkeys + keys[start + c]
            agents[fill[bucket]] = records[j, 0]
            fill[bucket] += 1
    return offsets, agents
