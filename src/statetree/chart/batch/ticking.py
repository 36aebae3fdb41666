"""Time for many agents: every clock advances, and each agent's due timers fire in order.

As in ``ChartMachine.tick``, an agent's timers due within the tick fire one by one, earliest
first (equal deadlines in the order they started), each in a processing of its own during
which the agent's clock reads the deadline; then the clock reads the tick's end. Agents
whose timers are not due only have their clock advanced, in one array operation.
"""

from __future__ import annotations

from statetree.chart.batch.arrays import Bools, Indexes, np
from statetree.chart.batch.engine import Engine
from statetree.chart.batch.work import Work

__all__ = ["tick"]


def tick(engine: Engine, dt: float, frozen: Indexes) -> None:
    """Advance every live agent but ``frozen`` by ``dt``, firing the timers that fall due."""
    store = engine.store
    size = store.size
    kept = store.clock[frozen].copy()
    np.add(store.clock[:size], dt, out=store.clock[:size], where=store.alive[:size])
    store.clock[frozen] = kept
    if store.due.shape[0] == 0:
        return
    near: Bools = np.any(store.due[:, :size] <= store.clock[:size], axis=0)
    near[frozen] = False
    ids = np.flatnonzero(near)
    if ids.size == 0:
        return
    work = store.gather(ids, engine.plan)
    work.end = work.clock.copy()
    with engine.processings():
        firing = _fire_next(engine, work, np.ones(work.k, np.bool_))
        if not firing.all():
            store.scatter(work, ~firing)
            work = work.take(firing)
        engine.settle(work, lambda work, settled: _fire_next(engine, work, settled))


def _fire_next(engine: Engine, work: Work, settled: Bools) -> Bools:
    """Start the processing of the next due timer of each agent where ``settled``.

    Agents with none left reach the tick's end. Returns where a processing started.
    """
    positions = np.flatnonzero(settled)
    rows, found = _earliest(work, positions)
    stopped = positions[~found]
    work.clock[stopped] = work.end[stopped]
    going, rows = positions[found], rows[found]
    work.clock[going] = work.due[rows, going]
    work.due[rows, going] = np.nan
    edges = np.full(going.size, -1, np.intp)
    for key in engine.plan.timers.keys:
        mine = (rows == key.row) & work.active[key.owner, going]
        edges[mine] = key.edge
    engine.begin(work, going, edges)
    started = np.zeros(work.k, np.bool_)
    started[going] = True
    return started


def _earliest(work: Work, positions: Indexes) -> tuple[Indexes, Bools]:
    """Each agent's earliest timer due by the tick's end (ties: first started), and
    whether it has one."""
    due = work.due[:, positions]
    ready = due <= work.end[positions]
    found: Bools = np.any(ready, axis=0)
    if due.shape[0] == 1:
        return np.zeros(positions.size, np.intp), found
    deadline = np.where(ready, due, np.inf)
    first = ready & (deadline == deadline.min(axis=0))
    order = np.where(first, work.sequence[:, positions], np.iinfo(np.int64).max)
    rows: Indexes = order.argmin(axis=0)
    return rows, found
