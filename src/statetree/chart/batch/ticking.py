"""Time for many agents: every clock advances, and each agent's due timers fire in order.

The rule is ``ChartMachine.tick``'s (see "What one tick does, exactly" in the chart events
guide): an agent's timers due within the tick fire one by one, earliest first (equal
deadlines in the order they started), each in a processing of its own during which the
agent's clock reads the deadline; then the clock reads the tick's end. An agent that would
fire one more timer than the bound fails instead, before firing it (timers restarting each
other with a zero delay never let time pass). The batch fires in rounds: in each round every
agent with a timer still due fires its next one, so a round costs a few array operations
whatever the number of agents. Agents whose timers are not due only have their clock
advanced, in one array operation.
"""

from __future__ import annotations

import itertools

from statetree.chart.batch.arrays import Bools, Floats, Indexes, NDArray, np
from statetree.chart.batch.engine import Engine
from statetree.chart.batch.errors import Failure
from statetree.chart.batch.store import Store
from statetree.chart.batch.timers import TimerLayout
from statetree.core.loops import KEPT_CHANGES, find_cycle

__all__ = ["tick"]


def tick(engine: Engine, dt: float, frozen: Indexes) -> None:
    """Advance every live agent but ``frozen`` by ``dt``, firing the timers that fall due."""
    store = engine.store
    size = store.size
    clock = store.clock[:size]
    kept = clock[frozen] if frozen.size else None
    clock += dt  # free slots too: spawning resets a slot's clock
    if kept is not None:
        clock[frozen] = kept
    if store.due.shape[0] == 0:
        return
    near = _due(store.due[:, :size], clock)
    if kept is not None:
        near[frozen] = False
    ids = near.nonzero()[0]
    if ids.size:
        _fire(engine, ids, clock[ids])


def _due(due: Floats, clock: Floats) -> Bools:
    """Whether each agent has a timer due by its ``clock`` (NaN, no timer, is never due)."""
    if due.shape[0] == 1:  # one row: no reduction across rows
        ready: Bools = due[0] <= clock
        return ready
    found: Bools = np.any(due <= clock, axis=0)
    return found


def _fire(engine: Engine, ids: Indexes, end: Floats) -> None:
    """Fire the due timers of agents ``ids`` in rounds; each agent that did not fail ends
    its tick at its ``end``.

    Agents only ever leave the rounds, so every agent still firing in round ``r`` has fired
    ``r`` timers: the bound is one comparison per round."""
    store, timers = engine.store, engine.plan.timers
    owners: dict[int, list[str]] = {}  # the owners fired last, of agents near the bound
    agents, ends = ids, end
    for fired in itertools.count():
        if fired:  # in the first round every agent has a timer due
            agents, ends = _still_due(store, agents, ends)
            if agents.size == 0:
                break
        if fired == engine.bound:
            _stop(engine, agents, owners)
            break
        rows, deadlines = _earliest(store, agents, ends)
        keys = _owned(store, timers, rows, agents)
        if fired >= engine.bound - KEPT_CHANGES:
            _remember(agents, timers.owner_paths, keys, owners)
        store.clock[agents] = deadlines
        if rows is None:
            store.due[0][agents] = np.nan
        else:
            store.due[rows, agents] = np.nan
        engine.process(agents, timers.edges[keys])
        if engine.failures:
            going = ~np.isin(agents, np.fromiter(engine.failures, np.intp))
            agents, ends = agents[going], ends[going]
    if engine.failures:  # their clocks read the expiry of the last timer they fired
        done = ~np.isin(ids, np.fromiter(engine.failures, np.intp))
        ids, end = ids[done], end[done]
    store.clock[ids] = end


def _owned(
    store: Store, timers: TimerLayout, rows: Indexes | None, agents: Indexes
) -> NDArray[np.integer]:
    """The key of the timer in row ``rows`` of each agent (see ``TimerLayout.owned``)."""
    table = timers.by_flags
    if table is not None:  # few states: looked up by the agent's active flags
        words = store.active[0][agents]
        keys: NDArray[np.int16] = table[0][words] if rows is None else table[rows, words]
        return keys
    return timers.owned(rows, store.bits.flags(store.active, timers.owners, agents))


def _still_due(store: Store, agents: Indexes, ends: Floats) -> tuple[Indexes, Floats]:
    """The agents of ``agents`` (and their ``ends``) with a timer still due."""
    if store.due.shape[0] == 1:  # one row: one comparison per agent, no reduction
        found: Bools = store.due[0][agents] <= ends
    else:
        found = np.any(store.due.take(agents, axis=1) <= ends, axis=0)
    # count_nonzero: a C function, where .any() and .all() go through Python wrappers
    still = np.count_nonzero(found)
    if still == 0:
        return agents[:0], ends[:0]
    if still == found.size:
        return agents, ends
    return agents[found], ends[found]


def _remember(
    agents: Indexes,
    paths: tuple[str, ...],
    keys: NDArray[np.integer],
    owners: dict[int, list[str]],
) -> None:
    """Note the owner of the timer each agent fires now (it is near the bound)."""
    for agent, key in zip(agents.tolist(), keys.tolist(), strict=True):
        owners.setdefault(agent, []).append(paths[key])


def _stop(engine: Engine, agents: Indexes, owners: dict[int, list[str]]) -> None:
    """Fail ``agents``: each fired as many timers as the bound and has one more due."""
    for agent in agents.tolist():
        cycle = tuple(find_cycle(owners[agent][-KEPT_CHANGES:]))
        engine.failures.setdefault(agent, Failure(cycle, timers=True))


def _earliest(store: Store, agents: Indexes, ends: Floats) -> tuple[Indexes | None, Floats]:
    """Each agent's earliest timer due by its end (ties: first started), as its row
    (``None`` when there is one row: it is that row) and its deadline."""
    if store.due.shape[0] == 1:
        return None, store.due[0][agents]
    due = store.due.take(agents, axis=1)
    ready = due <= ends
    deadline = np.where(ready, due, np.inf)
    first = ready & (deadline == deadline.min(axis=0))
    order = np.where(first, store.sequence[:, agents], np.iinfo(np.int64).max)
    rows: Indexes = order.argmin(axis=0)
    return rows, due[rows, np.arange(agents.size)]
