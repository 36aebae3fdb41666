"""Operations other than processings, for many agents: stop, despawn, received
configurations and hot reload.

Each is worked out once per distinct case (an agent's situation, and what it receives) by
the per-agent runtime (:func:`~statetree.chart.batch.derive.derive`), kept as an entry of
the table the agents end in, and applied to every agent of the case as a processing's
entry is; the host calls follow, as after a pass.

A reload runs ``ChartMachine.reload`` itself once per distinct situation (with the levels
the host holds), its host actions only noted: that is the rehearsal (an agent that would
not settle refuses the whole reload, and nothing changes) and it gives each agent's outcome
in the new chart. Timers that kept states run although the new chart no longer starts them
are carried over. A handler that raises undoes the whole reload (every agent runs the same
chart), and so does an agent that a handler's send makes loop (a machine would be put back
on its old chart): then ``BatchLoopError`` names every such agent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from statetree.chart.batch.arrays import Floats, Indexes, NDArray, np
from statetree.chart.batch.convert import agents_of, snapshot_of
from statetree.chart.batch.derive import Operation, Outcome, derive
from statetree.chart.batch.snapshot import MAX_CARRIED, BatchSnapshot
from statetree.chart.batch.step import Buffers, Replay, Stepper
from statetree.chart.batch.table import (
    FAIL,
    LEVELS,
    NCALLS,
    NEXT,
    Layout,
    Table,
    table_of,
    timer_pairs,
)
from statetree.chart.batch.vector import rows_after
from statetree.chart.compile import CompiledChart
from statetree.chart.machine import ChartMachine
from statetree.chart.reload import Reloaded
from statetree.errors import UsageError

if TYPE_CHECKING:
    from statetree.chart.batch.batch import ChartBatch

__all__ = ["apply_operation", "outcomes_of", "put", "reload_batch"]


def outcomes_of(
    table: Table,
    situations: NDArray[np.int64],
    cases: NDArray[np.int64] | None,
    operation: Callable[[int], Operation],
) -> tuple[list[Outcome], Indexes]:
    """The outcome of each distinct (situation, case) pair, and the pair of each agent."""
    keys = situations if cases is None else (cases << 32) | situations
    distinct, inverse = np.unique(keys, return_inverse=True)
    found = [
        derive(table.layout, table.situation(key & 0xFFFFFFFF), operation(key >> 32), table.bound)
        for key in distinct.tolist()
    ]
    return found, inverse.reshape(-1).astype(np.intp)


def apply_operation(
    batch: ChartBatch,
    ids: Indexes,
    operation: Callable[[int], Operation],
    replay: Replay,
    cases: NDArray[np.int64] | None = None,
) -> None:
    """Apply ``operation(case)`` to the agents ``ids`` (ascending; ``cases``: each one's
    case, 0 by default) and make their host calls; they are not processings (a handler
    cannot send). Traced agents write the lines of ``replay`` on their machines."""
    if ids.size == 0:
        return
    table, stepper = batch._table, batch._stepper
    situations = batch._agents.situations[ids].astype(np.int64)
    outcomes, inverse = outcomes_of(table, situations, cases, operation)
    entries = np.array([table.add(o) for o in outcomes], np.intp)[inverse]
    watched = stepper.watch(ids)
    due, order = put(batch, table, ids, entries)
    batch._agents.due[:, ids], batch._agents.order[:, ids] = due, order
    stepper.processing = False
    try:
        stepper.finish(replay, None)
    finally:
        stepper.processing = True
        stepper.watching = False
    stepper.retrace(watched, replay)


def put(
    batch: ChartBatch, table: Table, ids: Indexes, entries: Indexes
) -> tuple[Floats, NDArray[np.int64]]:
    """Give the agents ``ids`` the situations of entries ``entries`` of ``table`` and note
    their calls, failures and undo rows; return their timer rows after the entries (the
    caller writes them: a reload lays the rows out anew)."""
    agents, buffers = batch._agents, batch._stepper.buffers
    buffers.reset()
    calls = table.entries[entries, NCALLS] > 0
    fails = table.entries[entries, FAIL] >= 0
    noted = calls | fails
    clock = agents.clock(ids)
    kept = ids[noted]
    buffers.put_undo(
        kept,
        agents.situations[kept],
        agents.epochs[kept],
        agents.due[:, kept],
        agents.order[:, kept],
    )
    buffers.put_records(ids[calls], np.zeros(int(calls.sum()), np.int64), entries[calls])
    buffers.put_failures(ids[fails], entries[fails], clock[fails])
    after = rows_after(table, entries, agents.due[:, ids], agents.order[:, ids], clock)
    agents.widen(len(table.situations))
    agents.situations[ids] = table.entries[entries, NEXT]
    return after


def reload_batch(batch: ChartBatch, compiled: CompiledChart) -> Reloaded:
    """Reload every agent of ``batch`` with ``compiled`` (see the module).

    Raises:
        BatchLoopError: an agent would not settle; nothing changed.
    """
    old, agents = batch._table, batch._agents
    before = snapshot_of(old, agents, 0, batch.size, batch.offset)
    ids = np.flatnonzero(agents.situations[: agents.size] != 0)
    rising = [e for e in compiled.levels if e in agents.extra]  # held, used from now on
    cases = np.zeros(ids.size, np.int64)
    for bit, event in enumerate(rising):
        cases |= agents.extra[event][ids].astype(np.int64) << bit
    reports: list[Reloaded] = []

    def operation(case: int) -> Operation:
        def reload(machine: ChartMachine) -> None:
            machine._runtime.held.update(e for n, e in enumerate(rising) if case >> n & 1)
            reports.append(machine.reload(compiled))

        return reload

    situations = agents.situations[ids].astype(np.int64)
    outcomes, inverse = outcomes_of(old, situations, cases, operation)
    _refuse(batch, ids, outcomes, inverse)
    carried = _carried(batch, ids, outcomes, inverse, compiled)
    if len(carried) > MAX_CARRIED:  # its snapshots could not be restored
        raise UsageError(
            f"the reload would carry {len(carried)} timers the new chart does not start "
            f"(at most {MAX_CARRIED}); nothing changed"
        )
    new = table_of(compiled, old.bound, carried)
    entries = np.array([new.add(o, before=old.layout) for o in outcomes], np.intp)[inverse]
    _fall(batch, ids, old, new)
    stepper = batch._stepper
    watched = stepper.watch(ids)  # traced agents, as machines on the old chart
    stepper.table, stepper.undo_table = new, old
    due, order = put(batch, new, ids, entries)  # undo rows in the old rows' layout
    agents.relayout(new.layout.rows, new.layout.ordered)
    agents.due[:, ids], agents.order[:, ids] = due, order
    batch._table = new

    def replay(machine: ChartMachine, agent: int) -> None:
        machine.reload(compiled)

    try:
        stepper.finish(replay, None, undo=False)
    except BaseException:
        _back(batch, before, old)
        raise
    finally:
        stepper.watching = False
        stepper.undo_table = new
        stepper.buffers = Buffers(agents.due.shape[0], agents.order.shape[0])
    if stepper.failures:
        # A handler's send made agents loop: a machine is then put back on its old chart,
        # and a batch runs one chart, so the whole reload is undone.
        failures = dict(stepper.failures)
        _back(batch, before, old)
        batch._stepper.failures.update(failures)
        batch._fail()
    kinds = compiled.level_kinds
    for event in list(agents.extra):  # levels of the new chart now, or of no level kind
        if event in rising or event.kind not in kinds:  # (kept until agents were replayed)
            del agents.extra[event]
    stepper.retrace(watched, replay)
    return _report(batch, ids, inverse, reports, old.layout)


def _back(batch: ChartBatch, before: BatchSnapshot, old: Table) -> None:
    """Put ``batch`` back as it was before the reload (``before``, on ``old``'s chart)."""
    table, agents = agents_of(before, old.layout.compiled, old.bound)
    stepper = batch._stepper
    batch._table, batch._agents = table, agents
    batch._stepper = Stepper(table, agents, batch._handlers, stepper.backend)
    batch._stepper.traced = stepper.traced  # the same agents, traced as before


def _refuse(batch: ChartBatch, ids: Indexes, outcomes: list[Outcome], inverse: Indexes) -> None:
    failures = {a: outcomes[c].failure for a, c in zip(ids.tolist(), inverse.tolist(), strict=True)}
    batch._stepper.failures.update((a, f) for a, f in failures.items() if f is not None)
    if batch._stepper.failures:
        batch._fail()


def _carried(
    batch: ChartBatch,
    ids: Indexes,
    outcomes: list[Outcome],
    inverse: Indexes,
    compiled: CompiledChart,
) -> list[tuple[str, str]]:
    """Timers of kept states still running that ``compiled`` does not start any more."""
    layout = batch._table.layout
    started = {(compiled.classes[owner]._path, name) for owner, name in timer_pairs(compiled)}
    due = batch._agents.due
    carried = []
    for key in layout.keys:
        pair = (layout.paths[key.owner], key.name)
        if pair in started:
            continue
        keeping = [n for n, outcome in enumerate(outcomes) if pair in outcome.kept]
        holders = ids[np.isin(inverse, keeping)]
        if (~np.isnan(due[key.row, holders])).any():
            carried.append(pair)
    return carried


def _fall(batch: ChartBatch, ids: Indexes, old: Table, new: Table) -> None:
    """Levels of the old chart that the new one does not use stay held, aside (those of
    a kind that is still a level kind: another could never be released)."""
    agents = batch._agents
    bits = old.info[agents.situations[ids], LEVELS]
    kinds = new.layout.compiled.level_kinds
    for n, event in enumerate(old.layout.levels):
        if event not in new.layout.levels and event.kind in kinds:
            flags = (bits >> n & 1).astype(np.bool_)
            if flags.any():
                held = agents.extra.setdefault(event, np.zeros(agents.capacity, np.bool_))
                held[ids] = flags


def _report(
    batch: ChartBatch, ids: Indexes, inverse: Indexes, reports: list[Reloaded], old: Layout
) -> Reloaded:
    """What at least one agent kept, exited and, after processing, entered."""
    table = batch._table
    new = table.layout
    pairs = np.unique(np.stack([batch._agents.situations[ids], inverse]), axis=1).T.tolist()
    entered = {
        new.paths[n]
        for situation, case in pairs
        for n in table.situation(situation).active
        if new.paths[n] not in reports[case].kept
    }
    kept = {path for report in reports for path in report.kept}
    exited = {path for report in reports for path in report.exited}

    def ordered(paths: set[str], layout: Layout) -> tuple[str, ...]:
        return tuple(sorted(paths, key=layout.numbers.__getitem__))

    return Reloaded(ordered(kept, old), ordered(exited, old), ordered(entered, new))
