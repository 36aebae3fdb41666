"""Operations other than processings, for many agents: despawning, received configurations,
reloads.

Each is worked out once per distinct case (an agent's situation, and what it receives) by
the per-agent runtime (:func:`~statetree.chart.batch.derive.derive`), kept as an entry of
the table the agents end in, and applied to every agent of the case as a processing's
entry is; the host calls follow, as after a pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from statetree.chart.batch.arrays import Floats, Indexes, NDArray, np
from statetree.chart.batch.derive import Operation, Outcome, derive
from statetree.chart.batch.step import Replay
from statetree.chart.batch.table import FAIL, NCALLS, NEXT, Table
from statetree.chart.batch.vector import rows_after

if TYPE_CHECKING:
    from statetree.chart.batch.batch import ChartBatch

__all__ = ["apply_operation", "outcomes_of", "put"]


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
    cannot send)."""
    if ids.size == 0:
        return
    table = batch._table
    situations = batch._agents.situations[ids].astype(np.int64)
    outcomes, inverse = outcomes_of(table, situations, cases, operation)
    entries = np.array([table.add(o) for o in outcomes], np.intp)[inverse]
    due, order = put(batch, table, ids, entries)
    batch._agents.due[:, ids], batch._agents.order[:, ids] = due, order
    stepper = batch._stepper
    stepper.processing = False
    try:
        stepper.finish(replay, None)
    finally:
        stepper.processing = True


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
