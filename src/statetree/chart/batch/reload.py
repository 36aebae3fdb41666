"""Hot reload of a batch: every agent keeps what did not change, as ``ChartMachine.reload``.

The rules are those of :mod:`statetree.chart.reload`, applied to all agents at once: active
states that vanished or changed (policy, enter actions, a concurrent state's children) are
exited with their old exit actions, outermost first; the others stay active with their
timers and take the new definition; histories follow their child by name; then every agent
processes, entering what is missing. Timers that kept states run although the new chart no
longer starts them keep running (the new plan carries their keys).
"""

from __future__ import annotations

from statetree.chart.batch.arrays import np
from statetree.chart.batch.bits import Bits
from statetree.chart.batch.engine import Engine
from statetree.chart.batch.plan import Plan, timer_pairs
from statetree.chart.batch.store import Store, history_type
from statetree.chart.compile import CompiledChart
from statetree.chart.reload import Reloaded, changed

__all__ = ["reload_engine"]


def _doomed(old: Plan, new: CompiledChart) -> list[int]:
    """The outermost states of ``old`` that vanished or changed in ``new``."""
    tree = old.tree
    doomed: list[int] = []
    for number, path in enumerate(tree.paths):
        if any(d <= number < tree.end[d] for d in doomed):
            continue
        twin = new.by_path.get(path)
        if twin is None or changed(tree.definitions[number], twin._definition):
            doomed.append(number)
    return doomed


def _carried(old: Plan, store: Store, new: CompiledChart, kept: set[int]) -> list[tuple[str, str]]:
    """Timers of kept states still running that ``new`` does not start any more."""
    started = {(new.classes[owner]._path, name) for owner, name in timer_pairs(new)}
    size = store.size
    carried = []
    for key in old.timers.keys:
        pair = (old.tree.paths[key.owner], key.name)
        if key.owner not in kept or pair in started:
            continue
        running = store.state(key.owner) & ~np.isnan(store.due[key.row, :size])
        if running.any():
            carried.append(pair)
    return carried


def _history(store: Store, old: Plan, new: Plan) -> None:
    """Each agent's history in ``new``, following the child it names in ``old``.

    Free slots keep the history of a slot never used (all zeros): mapped as if they held
    agents, a slot would hand its next agent the new index of the old first child.
    """
    ids = np.flatnonzero(store.alive[: store.size])
    history = np.zeros((new.tree.history_rows, store.capacity), history_type(new))
    for number, row in enumerate(new.tree.history_row):
        twin = old.numbers.get(new.tree.paths[number], -1)
        if row < 0 or twin < 0 or old.tree.history_row[twin] < 0:
            continue
        names = [new.tree.paths[child] for child in new.tree.children[number]]
        table = [names.index(path) if path in names else 0 for path in _children(old, twin)]
        history[row, ids] = np.asarray(table)[store.history[old.tree.history_row[twin], ids]]
    store.history = history


def _children(plan: Plan, number: int) -> list[str]:
    tree = plan.tree
    return [tree.paths[child] for child in tree.children[number]]


def _timers(store: Store, old: Plan, new: Plan) -> None:
    """Each running timer of a kept state, moved to its row in ``new``."""
    size, capacity = store.size, store.capacity
    due = np.full((new.timers.rows, capacity), np.nan)
    sequence = np.zeros((new.timers.rows if new.timers.rows > 1 else 0, capacity), np.int64)
    for key in new.timers.keys:
        twin = old.numbers.get(new.tree.paths[key.owner], -1)
        if twin < 0 or key.name not in {k.name for k in old.timers.by_owner[twin]}:
            continue
        before = old.timers.key(twin, key.name)
        running = store.state(twin)
        due[key.row, :size][running] = store.due[before.row, :size][running]
        if sequence.size and store.sequence.size:
            sequence[key.row, :size][running] = store.sequence[before.row, :size][running]
    store.due, store.sequence = due, sequence


def _active(store: Store, old: Plan, new: Plan, kept: set[int]) -> None:
    """Each kept state's flags, moved to its number in ``new``."""
    before = store.states()
    active = np.zeros((new.states, store.capacity), np.bool_)
    for number in kept:
        active[new.numbers[old.tree.paths[number]]] = before[number]
    store.bits = Bits(new.states)
    store.active = store.bits.pack(active)


def reload_engine(engine: Engine, compiled: CompiledChart) -> Reloaded:
    """Switch ``engine`` to ``compiled``; the caller binds handlers first and processes after.

    Returns:
        What was kept and exited; ``entered`` is left for the caller, after processing.
    """
    store, old = engine.store, engine.plan
    doomed = _doomed(old, compiled)
    ids = np.flatnonzero(store.alive[: store.size])
    work = store.gather(ids, old)
    before = np.any(work.active, axis=1)
    for outer in doomed:
        engine.exit_all(work, reversed(range(outer, old.tree.end[outer])))
    store.scatter(work, np.ones(work.k, np.bool_))
    inside = {n for d in doomed for n in range(d, old.tree.end[d])}
    kept = set(range(old.states)) - inside
    new = Plan(compiled, _carried(old, store, compiled, kept))
    _history(store, old, new)
    _timers(store, old, new)
    _active(store, old, new, kept)
    store.level_rows(new)
    engine.plan = new
    paths = old.tree.paths
    return Reloaded(
        tuple(paths[n] for n in sorted(kept) if before[n]),
        tuple(paths[n] for n in sorted(inside) if before[n]),
    )
