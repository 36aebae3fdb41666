"""One shard of a sharded batch, inside its actor: what the host's code runs against.

Handlers and the step function get the :class:`Shard` first. It holds the shard's own
:class:`~statetree.chart.ChartBatch` (numbered by local slot), the host's per-agent data
columns (one row per local slot) and the global index of each slot. Its calls take global
indexes: those of this shard's agents act at once, exactly as on a ``ChartBatch``; an event
sent to agents of other shards is mail, delivered at the start of the batch's next call.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from statetree.chart.batch import BatchCall, BatchHandler, BatchLoopError, ChartBatch
from statetree.chart.batch.arguments import Entities
from statetree.chart.batch.arrays import Bools, Indexes
from statetree.chart.batch.errors import Failure
from statetree.chart.events import Event
from statetree.chart.shard.parts import Columns, Loop, Mail, ShardHandler, ShardPart, ShardSetup
from statetree.core.trace import TraceLevel
from statetree.errors import UsageError

__all__ = ["Shard"]


class Shard:
    """The agents of one shard and the host's data about them, in the shard's actor.

    Attributes:
        index: the shard's number, from 0.
        shards: how many shards the batch has.
    """

    def __init__(self, setup: ShardSetup, index: int, part: ShardPart) -> None:
        self.index = index
        self.shards = setup.shards
        self._setup = setup
        self.outbox: list[Mail] = []
        self.loops: list[Loop] = []
        self.partial: Any = None
        """What a call that raised had done (its reply's result), else ``None``."""
        self._calling: Indexes | None = None
        """The local slots of the agents of the handler call running, if one is."""
        self._called: Indexes | None = None
        """Their global indexes: ``rows(call.entities)`` needs no search."""
        self.lines: list[tuple[int, str]] = []
        """The trace lines of this call, by global index (see ``ShardedBatch.trace``)."""
        self.load(part)

    def load(self, part: ShardPart) -> None:
        """Hold the agents of ``part`` (whatever the shard held before is dropped)."""
        setup = self._setup
        handlers = {name: self._bind(handler) for name, handler in setup.handlers.items()}
        if part.snapshot is None:
            self._batch = ChartBatch(
                part.chart,
                part.members.size,
                handlers,
                name=setup.name,
                max_transitions=setup.max_transitions,
            )
        else:
            self._batch = ChartBatch.restore(
                part.snapshot,
                part.chart,
                handlers,
                name=setup.name,
                max_transitions=setup.max_transitions,
            )
        self._size = part.members.size
        self._buffer = part.members.astype(np.intp)
        self._members = self._buffer
        self._buffers: Columns = {
            name: part.columns[name].copy() if name in part.columns else np.zeros(self._size, kind)
            for name, kind in setup.columns.items()
        }
        self._columns = dict(self._buffers)
        self._traced: dict[int, TraceLevel] = {}
        agents = np.fromiter(part.traced, np.intp, len(part.traced))
        at, mine = self._find(agents)
        for row, agent in zip(at[mine].tolist(), agents[mine].tolist(), strict=True):
            self.trace(np.array([row], np.intp), part.traced[agent])

    def trace(self, rows: Indexes, level: TraceLevel) -> None:
        """Trace this shard's agents at the local slots ``rows`` (``TraceLevel.NONE``:
        stop), named by global index; their lines go to :attr:`lines`."""
        for row, agent in zip(rows.tolist(), self._members[rows].tolist(), strict=True):
            sink = functools.partial(_write, self.lines, agent)
            self._batch._trace(row, f"{self._setup.name}[{agent}]", level, sink)
            if level is TraceLevel.NONE:
                self._traced.pop(agent, None)
            else:
                self._traced[agent] = level

    def _bind(self, handler: ShardHandler) -> BatchHandler:
        def perform(call: BatchCall) -> None:
            outer = self._calling, self._called
            self._calling, self._called = call.entities, self.globals(call.entities)
            try:
                handler(self, BatchCall(call.action, self._called))
            finally:
                self._calling, self._called = outer

        return perform

    # -- layout ----------------------------------------------------------------------------

    @property
    def batch(self) -> ChartBatch:
        """This shard's agents as a ``ChartBatch`` numbered by local slot: read from it
        (``is_active``, ``leaf_ids``, ``counts``, ``agent``); change them through the
        shard's own calls, which keep the slots and the data columns in step."""
        return self._batch

    @property
    def entities(self) -> Indexes:
        """The global index of each local slot (read-only; see ``alive`` for free slots)."""
        members: Indexes = self._members.view()
        members.setflags(write=False)
        return members

    @property
    def alive(self) -> Bools:
        """Whether each local slot holds an agent (a copy)."""
        return self._batch.alive

    @property
    def columns(self) -> Mapping[str, NDArray[Any]]:
        """The host's data: for each declared column, one row per local slot. Write to
        them freely; a call that adds slots (spawn, migration) replaces the arrays, so read
        them here again in each call rather than keeping them."""
        return self._columns

    def globals(self, rows: Indexes) -> Indexes:
        """The global indexes of the local slots ``rows`` (read-only)."""
        found = self._members[rows]
        found.setflags(write=False)
        return found

    def rows(self, entities: ArrayLike) -> Indexes:
        """The local slots of the agents at the global indexes ``entities``.

        Raises:
            UsageError: an index is not that of an agent of this shard.
        """
        if entities is self._called and self._calling is not None:
            return self._calling
        ids = np.asarray(entities, dtype=np.intp).reshape(-1)
        at, mine = self._find(ids)
        if not mine.all():
            raise UsageError(
                f"agent {int(ids[~mine][0])} is not an agent of shard {self.index} "
                f"of {self._setup.name!r}"
            )
        return at

    def _find(self, ids: Indexes) -> tuple[Indexes, Bools]:
        """Where each global index would be among this shard's slots, and whether it is
        one of its agents there."""
        members = self._members
        if not members.size:
            return np.zeros(ids.size, np.intp), np.zeros(ids.size, np.bool_)
        first = int(members[0])
        if members[-1] - first == members.size - 1:  # a range of global indexes
            at = ids - first
            inside = (at >= 0) & (at < members.size)
            at = np.where(inside, at, 0)
        else:
            at = np.minimum(np.searchsorted(members, ids), members.size - 1)
            inside = members[at] == ids
        mine: Bools = inside & self._batch.alive[at]
        return at, mine

    def _split(self, entities: Entities) -> tuple[Indexes | Bools | None, Indexes]:
        """``entities`` as this shard's slots (``None``: all; a mask stays a mask) and the
        global indexes of agents of other shards."""
        if entities is None:
            return None, np.zeros(0, np.intp)
        array = np.asarray(entities)
        if array.dtype.kind == "b":
            return array, np.zeros(0, np.intp)
        ids = array.reshape(-1).astype(np.intp) if array.size else np.zeros(0, np.intp)
        at, mine = self._find(ids)
        return at[mine], ids[~mine]

    def _own(self, entities: Entities, call: str) -> Indexes | Bools | None:
        """``entities`` as this shard's slots; all of them must be of this shard."""
        rows, others = self._split(entities)
        if others.size:
            raise UsageError(
                f"{call}() from shard {self.index} named agent {int(others[0])}, which is "
                "not one of its agents: only events (send) reach the agents of other shards"
            )
        return rows

    # -- calls on the shard's agents -------------------------------------------------------

    def start(self, entities: Entities = None) -> None:
        """Start this shard's agents ``entities`` (``ChartBatch.start``)."""
        self._batch.start(self._own(entities, "start"))

    def send(self, event: Event, entities: Entities = None) -> None:
        """Send ``event`` to the agents at the global indexes ``entities`` (``None``: every
        agent of this shard): this shard's agents process it now; from a handler, only the
        agents of its call do (the event is latched into their processing). Every other
        agent, in this shard or another, gets it at the start of the batch's next call."""
        if entities is None and self._calling is None:
            self._batch.send(event, None)
            return
        ids = self._named(entities)
        at, now = self._now(ids)
        self._batch.send(event, at[now])  # checks the event, even for no agent of this shard
        if not now.all():
            self.outbox.append((event, ids[~now]))

    def send_each(
        self, events: Sequence[Event], choices: ArrayLike, entities: Entities = None
    ) -> None:
        """Send each agent its own event (``ChartBatch.send_each``): without ``entities``,
        ``choices`` has one entry per local slot; who gets it when is as for :meth:`send`."""
        picks = np.asarray(choices).reshape(-1)
        if entities is None and self._calling is None:
            self._batch.send_each(events, picks, None)
            return
        ids = self._named(entities)
        if entities is None:  # one choice per local slot: those of the agents
            picks = picks[self._batch.alive] if picks.size == self._members.size else picks
        if picks.shape != ids.shape or (picks.size and picks.dtype.kind not in "iu"):
            raise UsageError(
                f"send_each() needs one integer choice per agent ({ids.size}), "
                f"got {picks.size} of type {picks.dtype}"
            )
        if picks.size and picks.max() >= len(events):
            raise UsageError(f"choice {int(picks.max())} names no event: there are {len(events)}")
        at, now = self._now(ids)
        self._batch.send_each(events, picks[now], at[now])
        later = ~now & (picks >= 0)
        for choice in np.unique(picks[later]).tolist():
            self.outbox.append((events[choice], ids[later & (picks == choice)]))

    def _named(self, entities: Entities) -> Indexes:
        """The global indexes ``entities`` names (``None`` or a mask: of this shard)."""
        if entities is None:
            return self._members[self._batch.alive]
        array = np.asarray(entities)
        if array.dtype.kind == "b":
            return self._members[array & self._batch.alive]
        return array.reshape(-1).astype(np.intp) if array.size else np.zeros(0, np.intp)

    def _now(self, ids: Indexes) -> tuple[Indexes, Bools]:
        """Where the agents ``ids`` are in this shard (see ``_find``), and which of them an
        event reaches now: this shard's, and from a handler only those of its call."""
        at, now = self._find(ids)
        if self._calling is not None:
            now[now] = np.isin(at[now], self._calling)
        return at, now

    def hold(self, event: Event, entities: Entities = None) -> None:
        """Hold a level trigger on for this shard's agents ``entities``."""
        self._batch.hold(event, self._own(entities, "hold"))

    def release(self, event: Event, entities: Entities = None) -> None:
        """Release a level trigger for this shard's agents ``entities``."""
        self._batch.release(event, self._own(entities, "release"))

    def set_levels(
        self, levels: Mapping[Event, bool | ArrayLike], entities: Entities = None
    ) -> None:
        """``ChartBatch.set_levels`` on this shard's agents (arrays: one entry per local
        slot without ``entities``)."""
        self._batch.set_levels(levels, self._own(entities, "set_levels"))

    def tick(self, dt: float) -> None:
        """Advance every agent of this shard by ``dt`` (``ChartBatch.tick``)."""
        self._batch.tick(dt)

    # -- what the actor does for the driver ------------------------------------------------

    def attempt(self, work: Any, *args: Any) -> Any:
        """``work(*args)``, its loop failures kept (as global indexes) rather than raised."""
        try:
            return work(*args)
        except BatchLoopError as error:
            agents = np.asarray(error.entities, np.intp) - self._batch.offset
            self.loops.append(Loop(tuple(self._members[agents].tolist()), Failure.of(error)))
            return None

    def deliver(self, inbox: Sequence[Mail]) -> None:
        """Send each event of ``inbox`` to its agents, in order."""
        for event, ids in inbox:
            self.attempt(self._batch.send, event, np.searchsorted(self._members, ids))

    def spawn(self, members: Indexes) -> Indexes:
        """New agents at the global indexes ``members`` (increasing, above this shard's
        others when not reusing its free slots); returns their local slots."""
        rows = self._batch.spawn(members.size)
        size = self._batch.size
        if size > self._buffer.size:  # capacity doubles, as the batch's own arrays do
            capacity = max(size, 2 * self._buffer.size)
            self._buffer = _grown(self._buffer, capacity, self._size)
            self._buffers = {
                name: _grown(column, capacity, self._size) for name, column in self._buffers.items()
            }
        self._size = size
        self._members = self._buffer[:size]
        self._columns = {name: column[:size] for name, column in self._buffers.items()}
        self._members[rows] = members
        for column in self._columns.values():
            column[rows] = 0
        return rows

    def despawn(self, rows: Indexes) -> Indexes:
        """Remove the agents at ``rows`` (exit actions run); their data rows read zero.
        Returns the global indexes of those removed; when a handler raises, they are kept
        as :attr:`partial` (the agents put back stay)."""
        try:
            self._batch.despawn(rows)
        finally:
            gone = rows[~self._batch.alive[rows]]
            for column in self._columns.values():
                column[gone] = 0
            removed: Indexes = self._members[gone]
            self.partial = removed
            for agent in removed.tolist():  # a despawn ends a trace
                self._traced.pop(agent, None)
        return removed

    def part(self) -> ShardPart:
        """Everything about this shard, for a checkpoint or a migration."""
        columns = {name: column.copy() for name, column in self._columns.items()}
        snapshot = self._batch.snapshot()
        return ShardPart(self._batch.chart, self._members.copy(), snapshot, columns, self._traced)


def _write(lines: list[tuple[int, str]], agent: int, line: str) -> None:
    """The trace sink of agent ``agent`` (global index) in its shard."""
    lines.append((agent, line))


def _grown(array: NDArray[Any], capacity: int, used: int) -> NDArray[Any]:
    """``array``'s first ``used`` entries in a new array of ``capacity`` zeros."""
    grown = np.zeros(capacity, array.dtype)
    grown[:used] = array[:used]
    return grown
