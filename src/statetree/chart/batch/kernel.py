"""The compiled pass: one loop over the agents of a call, in numba.

Every call comes down to one loop (:func:`run`) doing for each agent its input's processing
if it has one, then the processings of its timers due by the end of the tick, each an entry
of the chart's table (:mod:`~statetree.chart.batch.table`). The agent's arrays are read once
and written once. What the pass cannot do in compiled code it reports through ``status``
and stops *before* touching the agent concerned, so the caller can act and call again from
there: an entry never derived (the caller derives it) or a full output buffer (the caller
grows it). The host calls an agent makes are written as *records* (agent, processing
number, entry); agents that make host calls or fail also get an *undo* row: their arrays as
they were before the call.

Compiled once per machine and cached on disk (numba's ``cache=True``).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np

from statetree.chart.batch.step import CODE, CURSOR, MISSING_S, MISSING_X, NFAIL, NREC, NUNDO, POS
from statetree.chart.batch.table import CALLS, FAIL, FIRE, NCALLS, NEXT, SRC, TIMED

__all__ = ["DONE", "FULL", "MISS", "checked", "given", "group", "run"]

DONE, MISS, FULL = 0, 1, 2
"""Status codes (``status[CODE]``)."""
KILL, START = -1, -2
NEVER = -math.inf
CHUNK = 4096
"""Agents :func:`_one_timer` lists at a time: their arrays stay in cache for the second loop."""

Array = Any
jit = numba.njit(cache=True)
inline = numba.njit(cache=True, inline="always")  # small helpers, copied where called


@inline
def _rows(program: Any, e: int, due: Array, order: Array, clock: float) -> None:
    """Apply entry ``e``'s row sources to one agent's rows ``due`` and ``order``: within one
    chart a row keeps its deadline, stops or starts a timer, never takes another's."""
    entries, delays = program[2], program[3]
    rows = due.size
    base = 0
    for r in range(order.size):
        base = max(base, order[r])
    for r in range(rows):
        source = entries[e, SRC + r]
        if source == KILL:  # a stopped row keeps no start order (as the NumPy pass)
            due[r] = math.nan
            if order.size:
                order[r] = 0
        elif source == START:
            due[r] = clock + delays[e, r]
            if order.size:
                order[r] = base + entries[e, SRC + rows + r]


@inline
def _load(due: Array, order: Array, agent: int, mine: Array, ranks: Array) -> None:
    """Read one agent's timer rows (deadlines and start orders) into ``mine``, ``ranks``."""
    for r in range(mine.size):
        mine[r] = due[r, agent]
    for r in range(ranks.size):
        ranks[r] = order[r, agent]


@inline
def _first_due(due: Array, order: Array, end: float) -> int:
    """The row whose timer fires first, by deadline then start order (-1: none by ``end``)."""
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


@inline
def _one_row(agents: Any) -> bool:
    """Whether :func:`_one_timer` can move these agents: no agent runs two timers at once."""
    return bool(agents[3].shape[0] <= 1 and agents[4].shape[0] == 0)


@jit
def run(work: Any, timing: Any, agents: Any, program: Any, b: Any) -> None:
    """Each agent ``ids[i]``, ``i < count`` (``work``: ascending ``ids``, ``inputs``,
    ``count``, ``mapping``) processes input ``inputs[i]`` (or ``inputs[0]`` for all); with
    a negative ``count``, ``inputs`` holds a choice per agent slot instead (negative: none;
    slots past its end, kept for agents to come, have none)
    and each agent given one processes input ``mapping[choice]``. Then, when ``timing``
    (each epoch's end of a tick, the most timers an agent fires, the number of the first
    firing's processing) has ends, every agent fires its timers due by then, in order, each
    its own processing. An agent whose input did not settle does not fire. Each agent's
    arrays are read when needed and written once, if changed.

    The loop is one function: numba hands every array to a called function with its
    bookkeeping, which made the pass twice as slow when it was split into calls.
    """
    ids, inputs, count, mapping = work
    ends, bound, fired_from = timing
    situations, epochs, clocks, due, order = agents
    if _one_row(agents) and count <= 0:
        _one_timer((inputs, inputs.size if count < 0 else 0, mapping), timing, agents, program, b)
        return
    table, info, entries = program[0], program[1], program[2]
    dense = count < 0
    chosen = inputs.size if dense else 0  # the slots a choice is given for

    records, undo, fails, status = b[0], b[1], b[4], b[6]
    rows, ordered = due.shape[0], order.shape[0]
    mine = np.empty(rows, np.float64)
    ranks = np.empty(ordered, np.int64)
    size = situations.size
    ticking = ends.size > 0
    single = ends.size == 1
    one_clock = clocks.size == 1
    one = inputs.size == 1
    nrec, nundo, nfail = status[NREC], status[NUNDO], status[NFAIL]
    i, agent, code = status[CURSOR], status[POS], DONE
    while True:
        # The next agent given an input or, in a tick, with a timer due.
        given = size if dense else (ids[i] if i < count else size)
        if dense and not ticking:
            while agent < chosen and inputs[agent] < 0:
                agent += 1
            if agent >= chosen:
                break
        elif not ticking:
            agent = given
        else:
            while agent < given and not (agent < chosen and inputs[agent] >= 0):
                end = ends[0] if single else ends[epochs[agent]]
                waiting = False
                for r in range(rows):
                    waiting |= due[r, agent] <= end
                if waiting:
                    break
                agent += 1
        if agent >= size:
            break
        if dense:
            has_input = agent < chosen and inputs[agent] >= 0
            x = np.int64(mapping[inputs[agent]]) if has_input else np.int64(0)
        else:
            has_input = given == agent
            x = np.int64(inputs[0] if one else inputs[i]) if has_input else np.int64(0)
        s = situations[agent]
        first = nrec
        failed = -2  # none; -1: too many timers; else the entry that did not settle
        loaded = changed = False  # the agent's rows: read when needed, written if changed
        clock = NEVER  # read when needed: most processings start no timer
        fired = 0
        pending = has_input  # its input first, then its timers due, in order
        while failed == -2:
            if pending:
                pending, number = False, 0
            else:
                if not ticking:
                    break
                end = ends[0] if single else ends[epochs[agent]]
                if not loaded:  # most agents given an input have no timer due
                    waiting = False
                    for r in range(rows):
                        waiting |= due[r, agent] <= end
                    if not waiting:
                        break
                    _load(due, order, agent, mine, ranks)
                    loaded = True
                r = _first_due(mine, ranks, end)
                if r < 0:
                    break
                if fired == bound:
                    failed = -1
                    break
                fired += 1
                clock = mine[r]
                mine[r] = math.nan
                changed = True
                x = info[s, FIRE + r]
                number = fired_from + fired - 1
            e = table[s, x]
            if e < 0:
                status[MISSING_S], status[MISSING_X] = s, x
                code = MISS
                break
            if entries[e, TIMED]:
                if not loaded:
                    _load(due, order, agent, mine, ranks)
                    loaded = True
                if clock == NEVER:
                    clock = clocks[0] if one_clock else clocks[epochs[agent]]
                changed = True
                _rows(program, e, mine, ranks, clock)
            s = entries[e, NEXT]
            if entries[e, NCALLS]:
                if nrec == records.shape[0]:
                    code = FULL
                    break
                records[nrec, 0], records[nrec, 1], records[nrec, 2] = agent, number, e
                nrec += 1
            if entries[e, FAIL] >= 0:
                failed = e
        if code == DONE and (nrec > first or failed != -2):
            if nundo == undo.shape[0] or nfail == fails.shape[0]:
                code = FULL
            else:
                undo[nundo, 0], undo[nundo, 1] = agent, situations[agent]
                undo[nundo, 2] = 0 if one_clock else epochs[agent]  # saves reading epochs
                for r in range(rows):
                    b[2][nundo, r] = due[r, agent]
                for r in range(ordered):
                    b[3][nundo, r] = order[r, agent]
                nundo += 1
                if failed != -2:
                    if clock == NEVER:
                        clock = clocks[0] if one_clock else clocks[epochs[agent]]
                    fails[nfail, 0], fails[nfail, 1] = agent, failed
                    b[5][nfail] = clock
                    nfail += 1
        if code != DONE:
            nrec = first
            break
        situations[agent] = s
        if changed:
            for r in range(rows):
                due[r, agent] = mine[r]
            for r in range(ordered):
                order[r, agent] = ranks[r]
        if has_input and not dense:
            i += 1
        agent += 1
    status[POS], status[CURSOR], status[CODE] = agent, i, code
    status[NREC], status[NUNDO], status[NFAIL] = nrec, nundo, nfail


@jit
def _one_timer(picks: Any, timing: Any, agents: Any, program: Any, b: Any) -> int:
    """:func:`run` for agents that run at most one timer at a time (one timer row, or none)
    given a choice per slot (or none: a tick). Returns -1, changing nothing, when a choice
    names no event or an agent not there (:func:`checked` then says which).

    Every choice is checked first. Then, :data:`CHUNK` agents at a time, a loop without
    branches lists those given a choice or with a timer due, and a second moves them, each
    one's deadline held in a register: a branch per agent that goes either way at random
    cost more than all the work an idle agent needs."""
    choices, chosen, mapping = picks
    ends, bound, fired_from = timing
    situations, epochs, clocks, due, _ = agents
    table, info, entries, delays = program
    records, undo, undo_due, fails, fail_clock, status = b[0], b[1], b[2], b[4], b[5], b[6]
    queue = b[7]
    timed = due.shape[0] == 1
    row = due[0] if timed else np.empty(0, np.float64)
    size, events = situations.size, mapping.size
    multi = ends.size > 1 or clocks.size > 1
    end = ends[0] if ends.size else NEVER  # no tick: no timer is due
    epoch_ends = multi and ends.size > 0
    start = status[POS]
    mine = choices[start:chosen]
    sits = situations[start:chosen]
    wrong = False
    for k in range(mine.size):
        c = mine[k]
        wrong |= (c >= events) | ((c >= 0) & (sits[k] == 0))
    if wrong:
        return -1
    nrec, nundo, nfail = status[NREC], status[NUNDO], status[NFAIL]
    code, stop = DONE, size
    for low in range(start, size, CHUNK):
        high = min(low + CHUNK, size)
        count = 0
        if timed and not epoch_ends:
            cs = choices[low:high]
            rs = row[low:high]
            for k in range(cs.size):
                queue[count] = low + k
                count += (cs[k] >= 0) | (rs[k] <= end)
            for k in range(cs.size, rs.size):
                queue[count] = low + k
                count += rs[k] <= end
        else:
            for agent in range(low, high):
                choice = np.int64(choices[agent]) if agent < chosen else np.int64(-1)
                deadline = row[agent] if timed else math.nan
                limit = ends[epochs[agent]] if epoch_ends else end
                queue[count] = agent
                count += (choice >= 0) | (deadline <= limit)
        for j in range(count):
            agent = queue[j]
            choice = np.int64(choices[agent]) if agent < chosen else np.int64(-1)
            d = row[agent] if timed else math.nan
            clock = clocks[epochs[agent]] if multi else clocks[0]
            if epoch_ends:
                end = ends[epochs[agent]]
            s, before = situations[agent], d
            first, failed, fired = nrec, -2, 0
            if choice >= 0:
                x = mapping[choice]
                e = table[s, x]
                if e < 0:
                    status[MISSING_S], status[MISSING_X] = s, x
                    code = MISS
                elif entries[e, NCALLS] and nrec == records.shape[0]:
                    code = FULL
                else:
                    if timed:
                        source = entries[e, SRC]
                        if source == KILL:
                            d = math.nan
                        elif source == START:
                            d = clock + delays[e, 0]
                    if entries[e, NCALLS]:
                        records[nrec, 0], records[nrec, 1], records[nrec, 2] = agent, 0, e
                        nrec += 1
                    if entries[e, FAIL] >= 0:
                        failed = e
                    s = entries[e, NEXT]
            while code == DONE and failed == -2 and d <= end:
                if fired == bound:
                    failed = -1
                    break
                x = info[s, FIRE]
                e = table[s, x]
                if e < 0:
                    status[MISSING_S], status[MISSING_X] = s, x
                    code = MISS
                    break
                if entries[e, NCALLS] and nrec == records.shape[0]:
                    code = FULL
                    break
                fired += 1
                clock, d = d, math.nan
                source = entries[e, SRC]
                if source == START:
                    d = clock + delays[e, 0]
                if entries[e, NCALLS]:
                    records[nrec, 0], records[nrec, 1] = agent, fired_from + fired - 1
                    records[nrec, 2] = e
                    nrec += 1
                if entries[e, FAIL] >= 0:
                    failed = e
                s = entries[e, NEXT]
            if code == DONE and (nrec > first or failed != -2):
                if nundo == undo.shape[0] or nfail == fails.shape[0]:
                    code = FULL
                else:
                    undo[nundo, 0], undo[nundo, 1] = agent, situations[agent]
                    undo[nundo, 2] = epochs[agent] if multi else 0
                    if timed:
                        undo_due[nundo, 0] = before
                    nundo += 1
                    if failed != -2:
                        fails[nfail, 0], fails[nfail, 1] = agent, failed
                        fail_clock[nfail] = clock
                        nfail += 1
            if code != DONE:
                nrec, stop = first, agent
                break
            situations[agent] = s
            if timed:
                row[agent] = d
        if code != DONE:
            break
    status[POS], status[CURSOR], status[CODE] = stop, 0, code
    status[NREC], status[NUNDO], status[NFAIL] = nrec, nundo, nfail
    return 0


@jit
def checked(choices: Array, events: int, situations: Array) -> int:
    """-1 when every choice (one per agent slot) names an event or none and every agent
    given one is there; else the position of the first that does not."""
    wrong = False
    for i in range(choices.size):  # no branch: the loop runs at memory speed
        c = choices[i]
        wrong |= (c >= events) | ((c >= 0) & (situations[i] == 0))
    if wrong:
        for i in range(choices.size):
            c = choices[i]
            if c >= events or (c >= 0 and situations[i] == 0):
                return i
    return -1


@jit
def given(picks: Any, timing: Any, agents: Any, program: Any, b: Any) -> int:
    """``send_each`` with a choice per agent slot (no ends in ``timing``) or a frame
    (``picks``: the choices, the input of each event): every choice checked, then, when all
    are right, :func:`run`. Returns what :func:`checked` returns (nothing changed when a
    choice is wrong)."""
    choices, mapping = picks
    if _one_row(agents):  # checks as it goes
        if _one_timer((choices, choices.size, mapping), timing, agents, program, b) == 0:
            return -1
        return checked(choices, mapping.size, agents[0])
    wrong = checked(choices, mapping.size, agents[0])
    if wrong < 0:
        run((np.zeros(0, np.intp), choices, -1, mapping), timing, agents, program, b)
    return wrong


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
    buckets = np.empty(count, np.int64)  # each record's bucket, when it makes one call
    for j in range(count):
        e, base = records[j, 2], records[j, 1] * nkeys
        calls, start = entries[e, NCALLS], entries[e, CALLS]
        buckets[j] = base + keys[start] if calls == 1 else -1
        for c in range(calls):
            counts[base + keys[start + c] + 1] += 1
    for k in range(1, counts.size):
        counts[k] += counts[k - 1]
    fill = counts[:-1].copy()
    agents = np.empty(counts[-1], np.int64)
    for j in range(count):
        bucket = buckets[j]
        if bucket >= 0:
            agents[fill[bucket]] = records[j, 0]
            fill[bucket] += 1
            continue
        e, base = records[j, 2], records[j, 1] * nkeys
        start = entries[e, CALLS]
        for c in range(entries[e, NCALLS]):
            bucket = base + keys[start + c]
            agents[fill[bucket]] = records[j, 0]
            fill[bucket] += 1
    found = []
    for number in range(last + 1):
        for key in ranked:
            bucket = number * nkeys + key
            if counts[bucket + 1] > counts[bucket]:
                found.append((number, key, counts[bucket], counts[bucket + 1]))
    return found, agents
