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

from statetree.chart.batch.arrays import Bools, Floats, Indexes, np
from statetree.chart.batch.engine import Engine
from statetree.chart.batch.errors import Failure
from statetree.chart.batch.store import Store
from statetree.core.loops import KEPT_CHANGES, find_cycle

__all__ = ["tick"]


def tick(engine: Engine, dt: float, frozen: Indexes) -> None:
    """Advance every live agent but ``frozen`` by ``dt``, firing the timers that fall due."""
    store = engine.store
    size = store.size
    end: Floats = store.clock[:size] + dt
    moving = store.alive[:size].copy()
    moving[frozen] = False
    if store.due.shape[0]:
        near: Bools = np.any(store.due[:, :size] <= end, axis=0) & moving
        if near.any():
            moving &= ~near
            _fire(engine, np.flatnonzero(near), end)
    np.copyto(store.clock[:size], end, where=moving)


def _fire(engine: Engine, ids: Indexes, ends: Floats) -> None:
    """Fire the due timers of agents ``ids`` in rounds; each agent that did not fail ends
    its tick at its end."""
    store = engine.store
    end = ends[ids]
    fired = np.zeros(ids.size, np.int64)
    owners: dict[int, list[str]] = {}  # the last owners fired, of agents near the bound
    pending = np.arange(ids.size)
    while pending.size:
        rows, found = _earliest(store.due[:, ids[pending]], end[pending], store, ids[pending])
        pending, rows = pending[found], rows[found]
        over = fired[pending] >= engine.bound
        if over.any():
            _stop(engine, ids[pending[over]], owners)
            pending, rows = pending[~over], rows[~over]
        agents = ids[pending]
        keys = engine.plan.timers.owned(rows, store.states(agents))
        _remember(engine, agents, keys, fired[pending], owners)
        fired[pending] += 1
        store.clock[agents] = store.due[rows, agents]
        store.due[rows, agents] = np.nan
        engine.process(agents, engine.plan.timers.edges[keys])
        if engine.failures:
            pending = pending[~np.isin(agents, np.fromiter(engine.failures, np.intp))]
    done = ~np.isin(ids, np.fromiter(engine.failures, np.intp))
    store.clock[ids[done]] = end[done]


def _remember(
    engine: Engine, agents: Indexes, keys: Indexes, fired: Indexes, owners: dict[int, list[str]]
) -> None:
    """Note the owner of each timer fired by agents within ``KEPT_CHANGES`` of the bound."""
    watched = np.flatnonzero(fired >= engine.bound - KEPT_CHANGES)
    paths = engine.plan.timers.owner_paths
    for position in watched.tolist():
        owners.setdefault(int(agents[position]), []).append(paths[keys[position]])


def _stop(engine: Engine, agents: Indexes, owners: dict[int, list[str]]) -> None:
    """Fail ``agents``: each fired as many timers as the bound and has one more due."""
    for agent in agents.tolist():
        cycle = tuple(find_cycle(owners[agent][-KEPT_CHANGES:]))
        engine.failures.setdefault(agent, Failure(cycle, timers=True))


def _earliest(due: Floats, end: Floats, store: Store, ids: Indexes) -> tuple[Indexes, Bools]:
    """Each agent's earliest timer due by its end (ties: first started), and whether it
    has one (``due``: the timer rows of agents ``ids``)."""
    ready = due <= end
    found: Bools = np.any(ready, axis=0)
    if due.shape[0] == 1:
        return np.zeros(ids.size, np.intp), found
    deadline = np.where(ready, due, np.inf)
    first = ready & (deadline == deadline.min(axis=0))
    order = np.where(first, store.sequence[:, ids], np.iinfo(np.int64).max)
    rows: Indexes = order.argmin(axis=0)
    return rows, found
