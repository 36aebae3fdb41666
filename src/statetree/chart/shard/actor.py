"""The body of a shard's Ray actor: it holds one :class:`Shard` and runs the driver's calls.

Every call of the driver is one message, ``call((inbox, op, args))``: the actor first delivers
the mail other shards sent its agents, then runs the operation, and answers a
:class:`Reply` (the result, the mail its agents sent to other shards, the agents that could
not settle, the error that aborted the call). Errors travel as data so that the driver can
hear every shard before it raises anything.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from statetree.chart.batch import BatchSnapshot, ChartBatch
from statetree.chart.batch.arrays import Bools, Indexes
from statetree.chart.compile import compile_chart
from statetree.chart.events import Event
from statetree.chart.model import Chart
from statetree.chart.reload import Reloaded
from statetree.chart.shard.errors import ShardError
from statetree.chart.shard.parts import Mail, Reply, ShardPart, ShardSetup, take
from statetree.chart.shard.shard import Shard
from statetree.core.trace import TraceLevel
from statetree.errors import UsageError

__all__ = ["OPERATIONS", "ShardActor"]

Rows = Indexes | Bools | None


class ShardActor:
    """What a Ray actor of a :class:`ShardPool` runs (one shard at a time)."""

    def __init__(self) -> None:
        self._shard: Shard | None = None

    def ping(self) -> int:
        """The actor's process id (a call that waits until the actor runs)."""
        return os.getpid()

    def load(self, setup: ShardSetup, index: int, part: ShardPart) -> Bools:
        """Hold shard ``index`` of a batch, with the agents of ``part``; which slots hold
        agents."""
        self._shard = Shard(setup, index, part)
        return self._shard.alive

    def call(self, message: tuple[Sequence[Mail], str, tuple[Any, ...]]) -> Reply:
        """Deliver the mail of ``message = (inbox, op, args)``, then run the operation
        ``op`` with ``args`` (one argument: Ray serializes each argument on its own)."""
        inbox, op, args = message
        shard = self._shard
        if shard is None:
            raise RuntimeError("the actor holds no shard: load() one first")
        shard.outbox.clear()
        shard.loops.clear()
        shard.lines.clear()
        shard.partial = None
        try:
            shard.deliver(inbox)
            result = shard.attempt(OPERATIONS[op], shard, *args)
        except Exception as error:  # reported to the driver, which raises it
            # The call failed in this shard: what its handlers sent goes with it.
            failed = _sendable(error, shard)
            return Reply(shard.partial, (), tuple(shard.loops), failed, tuple(shard.lines))
        lines = tuple(shard.lines)
        if op == "step" and not _picklable(result):
            unsent = UsageError(
                f"the step function returned a {type(result).__name__} in shard "
                f"{shard.index}, which cannot be sent back to the driver (the step ran)"
            )
            return Reply(None, tuple(shard.outbox), tuple(shard.loops), unsent, lines)
        return Reply(result, tuple(shard.outbox), tuple(shard.loops), None, lines)


def _picklable(value: object) -> bool:
    """Whether Ray can send ``value`` and the driver read it back (called in the actor's
    process, where Ray is): an exception whose ``__init__`` wants other arguments pickles,
    and fails to load."""
    pickle = importlib.import_module("ray.cloudpickle")
    try:
        pickle.loads(pickle.dumps(value))
    except Exception:
        return False
    return True


def _sendable(error: Exception, shard: Shard) -> Exception:
    """``error``, or one saying what it was when it cannot travel back to the driver."""
    if _picklable(error):
        return error
    return ShardError(
        f"shard {shard.index} raised {type(error).__name__}: {error} (an error that cannot "
        "be sent back to the driver as it is)"
    )


def _start(shard: Shard, rows: Rows) -> None:
    shard.batch.start(rows)


def _stop(shard: Shard, rows: Rows) -> None:
    shard.batch.stop(rows)


def _send(shard: Shard, event: Event, rows: Rows) -> None:
    shard.batch.send(event, rows)


def _send_each(shard: Shard, events: Sequence[Event], choices: NDArray[Any], rows: Rows) -> None:
    shard.batch.send_each(events, choices, rows)


def _frame(shard: Shard, dt: float, events: Sequence[Event], choices: NDArray[Any]) -> None:
    shard.batch.frame(dt, events, choices)


def _hold(shard: Shard, event: Event, rows: Rows) -> None:
    shard.batch.hold(event, rows)


def _release(shard: Shard, event: Event, rows: Rows) -> None:
    shard.batch.release(event, rows)


def _set_levels(shard: Shard, levels: Mapping[Event, Any], rows: Rows) -> None:
    shard.batch.set_levels(levels, rows)


def _tick(shard: Shard, dt: float) -> None:
    shard.batch.tick(dt)


def _step(shard: Shard, args: tuple[Any, ...]) -> Any:
    step = shard._setup.step
    return None if step is None else step(shard, *args)


def _nothing(call: object) -> None:
    """A host action of a rehearsal: not performed."""


def _rehearse(shard: Shard, chart: Chart) -> None:
    """Reload ``chart`` on a copy of the shard whose host actions do nothing."""
    batch = shard.batch
    actions = (*batch.compiled.host_actions, *compile_chart(chart).host_actions)
    copy = ChartBatch.restore(
        batch.snapshot(),
        batch.compiled,
        dict.fromkeys(actions, _nothing),
        name=batch.name,
        max_transitions=shard._setup.max_transitions,
    )
    copy.reload(chart)


def _trace(shard: Shard, rows: Indexes, level: TraceLevel) -> None:
    shard.trace(rows, level)


def _reload(shard: Shard, chart: Chart) -> Reloaded:
    return shard.batch.reload(chart)


def _load(shard: Shard, part: ShardPart) -> None:
    shard.load(part)


def _take(shard: Shard, rows: Indexes) -> ShardPart:
    """Move the agents at ``rows`` out of the shard (no action runs): their part."""
    whole = shard.part()
    assert whole.snapshot is not None
    keep = np.setdiff1d(np.arange(whole.members.size), rows)
    shard.load(_subset(whole, whole.snapshot, keep))
    return _subset(whole, whole.snapshot, rows)


def _subset(whole: ShardPart, snapshot: BatchSnapshot, rows: Indexes) -> ShardPart:
    columns = {name: column[rows] for name, column in whole.columns.items()}
    members = whole.members[rows]
    traced = whole.traced_of(members)
    return ShardPart(whole.chart, members, take(snapshot, rows), columns, traced)


def _put(shard: Shard, parts: Sequence[ShardPart]) -> None:
    """Take in the agents of ``parts`` (no action runs), every slot in global order."""
    every = [shard.part(), *parts]
    snapshots = [part.snapshot for part in every if part.snapshot is not None]
    joined = BatchSnapshot.join(snapshots)
    members = np.concatenate([part.members for part in every])
    order = np.argsort(members, kind="stable")
    columns = {
        name: np.concatenate([part.columns[name] for part in every])[order]
        for name in every[0].columns
    }
    traced = {agent: level for part in every for agent, level in part.traced.items()}
    shard.load(ShardPart(every[0].chart, members[order], take(joined, order), columns, traced))


def _part(shard: Shard) -> ShardPart:
    return shard.part()


def _snapshot(shard: Shard) -> BatchSnapshot:
    return shard.batch.snapshot()


def _spawn(shard: Shard, members: Indexes) -> Indexes:
    return shard.spawn(members)


def _despawn(shard: Shard, rows: Indexes) -> Indexes:
    return shard.despawn(rows)


def _counts(shard: Shard) -> dict[str, int]:
    return shard.batch.counts()


def _is_active(shard: Shard, path: str) -> Bools:
    return shard.batch.is_active(path)


def _leaf_ids(shard: Shard, within: str | None) -> Indexes:
    return shard.batch.leaf_ids(within)


def _active(shard: Shard, row: int) -> tuple[str, ...]:
    return shard.batch.active(row)


def _columns(shard: Shard, names: Sequence[str]) -> dict[str, NDArray[Any]]:
    return {name: shard.columns[name] for name in names}


def _set_columns(shard: Shard, values: Mapping[str, NDArray[Any]], rows: Rows) -> None:
    where = slice(None) if rows is None else rows
    for name, column in values.items():
        shard.columns[name][where] = column


def _deliver(shard: Shard) -> None:
    """Nothing more than the mail every call delivers first."""


OPERATIONS: Mapping[str, Callable[..., Any]] = {
    "start": _start,
    "stop": _stop,
    "send": _send,
    "send_each": _send_each,
    "frame": _frame,
    "hold": _hold,
    "release": _release,
    "set_levels": _set_levels,
    "tick": _tick,
    "step": _step,
    "rehearse": _rehearse,
    "reload": _reload,
    "trace": _trace,
    "load": _load,
    "take": _take,
    "put": _put,
    "part": _part,
    "snapshot": _snapshot,
    "spawn": _spawn,
    "despawn": _despawn,
    "counts": _counts,
    "is_active": _is_active,
    "leaf_ids": _leaf_ids,
    "active": _active,
    "columns": _columns,
    "set_columns": _set_columns,
    "deliver": _deliver,
}
"""Each operation the driver can ask of a shard, by name."""
