"""ShardedBatch: one population of a chart, in shards stepped by Ray actors.

Every call of ``ChartBatch`` is here, over global agent indexes: the driver checks the
call's arguments against the whole population (a refused call changes no shard), then
sends each shard concerned one message with its part, and every shard's agents end the call
exactly as they would in one ``ChartBatch``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from statetree.chart.batch import BatchSnapshot, ChartBatch
from statetree.chart.batch.agents import check_room
from statetree.chart.batch.arguments import (
    Entities,
    count_of,
    level_values,
    picks_of,
    select,
    slot_range,
)
from statetree.chart.batch.arrays import Indexes
from statetree.chart.batch.snapshot import restoring, snapshot_given
from statetree.chart.batch.step import trace_options
from statetree.chart.compile import CompiledChart, compile_chart
from statetree.chart.events import Event, time_step
from statetree.chart.machine import require_events, require_level_mapping
from statetree.chart.model import Chart
from statetree.chart.reload import Reloaded
from statetree.chart.shard.cluster import ShardPool
from statetree.chart.shard.driver import Checkpoint, Driver
from statetree.chart.shard.errors import ShardError
from statetree.chart.shard.layout import Layout
from statetree.chart.shard.parts import (
    Reply,
    ShardHandler,
    ShardPart,
    ShardSetup,
    StepFunction,
    take,
)
from statetree.chart.shard.reading import ShardedReadings
from statetree.core.options import DEFAULT_MAX_TRANSITIONS
from statetree.core.trace import TraceLevel
from statetree.errors import SaveError, UsageError

__all__ = ["ShardedBatch"]

_NO_HANDLERS: Mapping[str, ShardHandler] = MappingProxyType({})


def _nothing(call: object) -> None:
    """A host action of the driver's own empty batch, which only checks arguments."""


class ShardedBatch(ShardedReadings):
    """``size`` agents running one chart, split into ``shards`` Ray actors and driven from
    this process as one ``ChartBatch``.

    Args:
        chart: the chart, or a chart compiled once.
        size: how many agents to create (not started yet).
        handlers: the host's handler of each action type the chart uses, called in the
            shard's actor as ``handler(shard, call)``: ``call.entities`` are global indexes
            and ``shard`` (a :class:`Shard`) holds the shard's data columns.
        shards: how many shards (the batch starts its own actors, and ends them on
            ``close()``), or a :class:`ShardPool` whose actors it borrows.
        address: the Ray cluster to use (``host:port``); by default the one this process is
            connected to, or a new local one.
        columns: the host's per-agent data, by name: a NumPy type for each column (zeros
            for each new agent). Columns live in the shards, move with their agents, and
            are kept by checkpoints.
        step: the per-frame work of a shard, ``step(shard, *args)``, run in every shard by
            :meth:`step`.
        name: the batch's name in errors (default: the chart's name).
        max_transitions: as for ``ChartBatch``.
        actor_options: Ray's options for each actor, when the batch starts them.

    Raises:
        ChartError: ``chart`` is invalid.
        HandlerError: an action the chart uses has no handler.
        UsageError: ``size``, ``shards`` or a column type is out of range.
        ShardError: the cluster cannot be reached, or the actors could not start.
    """

    def __init__(
        self,
        chart: Chart | CompiledChart,
        size: int,
        handlers: Mapping[str, ShardHandler] = _NO_HANDLERS,
        *,
        shards: int | ShardPool,
        address: str | None = None,
        columns: Mapping[str, DTypeLike] | None = None,
        step: StepFunction | None = None,
        name: str | None = None,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
        actor_options: Mapping[str, Any] | None = None,
    ) -> None:
        size = count_of(size, "a batch needs a count of at least 0 agents")
        check_room(size)
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        count = _shard_count(shards)
        setup = ShardSetup.of(
            compiled, handlers, count, columns, step=step, name=name, bound=max_transitions
        )
        members = [np.arange(start, stop) for start, stop in _bounds(size, count)]
        parts = [ShardPart(compiled.chart, slots) for slots in members]
        layout = Layout.of(members, np.ones(size, np.bool_))
        self._open(
            shards if isinstance(shards, ShardPool) else count,
            address,
            actor_options,
            setup,
            Checkpoint(parts, layout, [[] for _ in parts], compiled),
        )

    def _open(
        self,
        shards: int | ShardPool,
        address: str | None,
        actor_options: Mapping[str, Any] | None,
        setup: ShardSetup,
        checkpoint: Checkpoint,
    ) -> None:
        self.name = setup.name
        self._probe = ChartBatch(
            checkpoint.compiled,
            0,
            dict.fromkeys(setup.handlers, _nothing),
            name=setup.name,
            max_transitions=setup.max_transitions,
        )
        if isinstance(shards, ShardPool):
            if address is not None or actor_options is not None:
                raise UsageError("a batch given a ShardPool takes no address nor actor_options")
            pool, owned = shards, False
        else:
            pool, owned = ShardPool(shards, address=address, actor_options=actor_options), True
        self._driver = Driver(pool, owned, setup, checkpoint)

    @restoring
    def restore(  # called on the class, as a classmethod is (see restoring)
        cls: type[ShardedBatch],
        snapshot: BatchSnapshot,
        chart: Chart | CompiledChart,
        handlers: Mapping[str, ShardHandler] = _NO_HANDLERS,
        *,
        shards: int | ShardPool,
        address: str | None = None,
        columns: Mapping[str, DTypeLike] | None = None,
        step: StepFunction | None = None,
        name: str | None = None,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
        actor_options: Mapping[str, Any] | None = None,
    ) -> ShardedBatch:
        """``ShardedBatch.restore(snapshot, chart, handlers, shards=...)``: a new sharded
        batch of the agents of ``snapshot`` (of a ``ChartBatch`` or of a ``ShardedBatch``,
        of any number of shards), split into ``shards`` contiguous ranges; other arguments
        as for the constructor (the data columns start at zero). Called on a sharded batch,
        it is refused: its shards are not put back in place.

        Raises:
            DecodeError: the snapshot is of another chart, or its arrays are impossible.
            UsageError: called on a sharded batch rather than on the class.
        """
        snapshot = snapshot_given(snapshot)
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        stubs = dict.fromkeys(compiled.host_actions, _nothing)
        ChartBatch.restore(take(snapshot, np.zeros(0, np.intp)), compiled, stubs)  # its chart
        count = _shard_count(shards)
        setup = ShardSetup.of(
            compiled, handlers, count, columns, step=step, name=name, bound=max_transitions
        )
        members = [np.arange(start, stop) for start, stop in _bounds(snapshot.size, count)]
        parts = [ShardPart(compiled.chart, m, take(snapshot, m)) for m in members]
        layout = Layout.of(members, np.ones(snapshot.size, np.bool_))
        batch = cls.__new__(cls)
        batch._open(
            shards if isinstance(shards, ShardPool) else count,
            address,
            actor_options,
            setup,
            Checkpoint(parts, layout, [[] for _ in parts], compiled),
        )
        batch._driver.offset = snapshot.offset
        batch._driver.latest = float(snapshot.arrays["clock"].max(initial=0.0))
        return batch

    def _rewind(self, snapshot: BatchSnapshot) -> None:
        raise UsageError(
            "batch.restore(snapshot) puts a ChartBatch back in place, not a ShardedBatch: "
            "close this one and make a new one with ShardedBatch.restore(snapshot, chart, "
            "handlers, shards=...)"
        )

    # -- inputs ----------------------------------------------------------------------------

    def start(self, entities: Entities = None) -> None:
        """Enter the initial states of the agents that have not started (``ChartBatch.start``)."""
        self._run("start", entities, ())

    def stop(self, entities: Entities = None) -> None:
        """Exit every active state of the agents, keeping their clocks, levels and histories
        (``ChartBatch.stop``)."""
        self._run("stop", entities, ())

    def send(self, event: Event, entities: Entities = None) -> None:
        """Latch ``event`` for each agent of ``entities`` and process until they settle."""
        self._probe.send(event, [])
        self._run("send", entities, (event,))

    def send_each(
        self, events: Sequence[Event], choices: ArrayLike, entities: Entities = None
    ) -> None:
        """Agent ``entities[i]`` gets ``events[choices[i]]`` (none when negative); without
        ``entities``, ``choices`` has one entry per agent slot."""
        events = _listed(events, "send_each")
        self._probe.send_each(events, [], [])
        layout = self._driver.layout
        ids = None if entities is None else select(entities, layout.alive)
        picks = _choices(choices, layout.size if ids is None else ids.size, events, "send_each")
        if ids is None:
            given = (picks >= 0) & ~layout.alive
            if given.any():
                select(np.flatnonzero(given)[:1], layout.alive)  # names the agent
        parts = layout.split({"": picks}, entities, ids)
        args = {s: (events, found[""], rows) for s, (found, rows) in parts.items()}
        self._driver.run("send_each", args)

    def hold(self, event: Event, entities: Entities = None) -> None:
        """Hold a level trigger on for each agent of ``entities``, then process them."""
        self._probe.hold(event, [])
        self._run("hold", entities, (event,))

    def release(self, event: Event, entities: Entities = None) -> None:
        """Release a level trigger for each agent of ``entities``, then process them."""
        self._probe.release(event, [])
        self._run("release", entities, (event,))

    def set_levels(
        self, levels: Mapping[Event, bool | ArrayLike], entities: Entities = None
    ) -> None:
        """Several level triggers at once (``ChartBatch.set_levels``): a boolean, or one
        boolean per agent of ``entities`` (per agent slot without ``entities``)."""
        levels = require_level_mapping(levels)
        self._probe.set_levels(dict.fromkeys(levels, False), [])
        layout = self._driver.layout
        ids = None if entities is None else select(entities, layout.alive)
        count = layout.size if ids is None else ids.size
        values = {event: level_values(event, on, count) for event, on in levels.items()}
        self._driver.run("set_levels", layout.split(values, entities, ids))

    def tick(self, dt: float) -> None:
        """Advance every agent's clock by ``dt``; due timers fire, in order."""
        step = time_step(dt, "tick", self._driver.latest)
        self._timed("tick", step, (step,))

    def _timed(self, op: str, step: float, args: Any) -> None:
        """``op``, a ``tick`` or ``frame`` of ``step`` (checked against the latest clock)."""
        try:
            self._driver.run(op, args)
        finally:  # an agent that did not settle is not ticked: still, none is later
            self._driver.latest += step

    def frame(
        self, dt: float, events: Sequence[Event] = (), choices: ArrayLike | None = None
    ) -> None:
        """A whole frame, in each shard's one pass (``ChartBatch.frame``): each agent's event
        (``choices``: one per agent slot), then its tick."""
        if choices is None:
            if events:
                self._probe.frame(dt, events)  # refused, as ChartBatch refuses it
            self.tick(dt)
            return
        step = time_step(dt, "frame", self._driver.latest)
        events = _listed(events, "frame")
        self._probe.frame(step, events, [])
        layout = self._driver.layout
        picks = _choices(choices, layout.size, events, "frame")
        given = (picks >= 0) & ~layout.alive
        if given.any():
            select(np.flatnonzero(given)[:1], layout.alive)  # names the agent
        parts = layout.split({"": picks}, None, None)
        self._timed("frame", step, {s: (step, events, f[""]) for s, (f, _) in parts.items()})

    def step(self, *args: Any) -> list[Any]:
        """Run the step function in every shard, as ``step(shard, *args)``.

        Returns:
            What it returned in each shard, in shard order.

        Raises:
            UsageError: the batch was made without a step function.
        """
        if self._driver.setup.step is None:
            raise UsageError(f"sharded batch {self.name!r} has no step function: give step=")
        results = self._driver.run("step", (args,))
        return [results[shard] for shard in range(self.shards)]

    def trace(
        self,
        entities: Entities,
        level: TraceLevel = TraceLevel.BASIC,
        sink: Callable[[str], None] | None = None,
    ) -> None:
        """Trace agents as ``ChartBatch.trace`` does, by global index (``name[index]``):
        their shards write the lines and send them back with each call's answer; here they
        go to ``sink`` (by default the ``"statetree"`` logger). A migration or a checkpoint
        keeps it, a despawn ends it; a lost shard brings back the tracing of the checkpoint.

        Raises:
            UsageError: an agent is unknown, ``level`` is no trace level or ``sink`` is not
                callable.
        """
        level = trace_options(level, sink)
        driver = self._driver
        ids = select(entities, driver.layout.alive)
        routes = driver.layout.route(ids)
        driver.run("trace", {s: (rows, level) for s, rows in routes.items()}, changes=False)
        for agent in ids.tolist():
            if level is TraceLevel.NONE:
                driver.sinks.pop(agent, None)
            else:
                driver.sinks[agent] = sink

    def _run(self, op: str, entities: Entities, args: tuple[Any, ...]) -> None:
        """``op`` for the agents ``entities`` (global), each shard given its own slots."""
        layout = self._driver.layout
        if entities is None:
            self._driver.run(op, (*args, None))
            return
        ids = select(entities, layout.alive)
        self._driver.run(op, {s: (*args, rows) for s, rows in layout.route(ids).items()})

    # -- changes ---------------------------------------------------------------------------

    def reload(self, chart: Chart | CompiledChart) -> Reloaded:
        """Run ``chart`` from now on in every shard (``ChartBatch.reload``).

        A reload that fails changes nothing, in any shard: every shard first rehearses it
        on a copy whose host actions do nothing, and only if all of them settle does any
        shard reload; should a handler then raise in some shard, every shard is put back.

        Raises:
            ChartError, HandlerError: as for ``ChartBatch.reload``; nothing changed.
            BatchLoopError: an agent of some shard would not settle; nothing changed.
        """
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        probe = ChartBatch(
            compiled, 0, dict.fromkeys(self._driver.setup.handlers, _nothing), name=self.name
        )
        driver = self._driver
        if any(driver.mail):
            driver.run("deliver", label="")  # the rehearsal must see what the reload will
        driver.run("rehearse", (compiled.chart,), changes=False)
        before = driver.undoing()
        try:
            reports = driver.run("reload", (compiled.chart,))
        except ShardError:  # a shard was lost: every shard is back at the checkpoint
            raise
        except BaseException:
            before.undo()
            raise
        old, new = self._probe.paths, probe.paths
        self._probe = probe
        driver.compiled = compiled
        return _merged(old, new, list(reports.values()))

    def spawn(self, count: int = 1) -> Indexes:
        """Add ``count`` agents (not started), at the indexes one ``ChartBatch`` would give
        them: free slots first, lowest first. A free slot stays in its shard; new slots go
        to the shard with the fewest agents.

        Returns:
            Their global indexes, ascending.
        """
        number = count_of(count, "spawn() needs a count of at least 0")
        self._driver.check_open()  # before the layout changes
        placed = self._driver.layout.spawn(number)
        self._driver.run("spawn", {shard: (ids,) for shard, ids in placed.items()})
        return np.sort(np.concatenate([np.zeros(0, np.intp), *placed.values()]))

    def despawn(self, entities: Entities) -> None:
        """Remove agents: their active states exit (exit actions run in their shards), then
        their slots are free."""
        layout = self._driver.layout
        ids = select(entities, layout.alive)

        def forget(replies: Mapping[int, Reply]) -> None:
            # A shard whose handler raised removed the agents it names, as a ChartBatch does.
            for reply in replies.values():
                if reply.result is not None:
                    layout.alive[reply.result] = False
                    for agent in reply.result.tolist():  # a despawn ends a trace
                        self._driver.sinks.pop(agent, None)

        routes = {shard: (rows,) for shard, rows in layout.route(ids).items()}
        self._driver.run("despawn", routes, after=forget)

    def migrate(self, entities: Entities, shard: int) -> None:
        """Move agents to shard ``shard`` with everything about them (states, timers, data
        columns); their global indexes stay. No action runs.

        Raises:
            UsageError: an agent is unknown, or there is no shard ``shard``.
        """
        driver = self._driver
        ids = select(entities, driver.layout.alive)
        number = count_of(shard, "migrate() needs a shard number of at least 0")
        if not 0 <= number < self.shards:
            raise UsageError(f"there is no shard {shard}: the batch has {self.shards}")
        shard = number
        routes = {s: (rows,) for s, rows in driver.layout.route(ids).items() if s != shard}
        if not routes:
            return
        # No mail is delivered meanwhile: the sends waiting follow their agents after.
        driver.calls.append("migrate")
        taken = driver.run("take", routes, changes=False)
        driver.run("put", {shard: ([taken[s] for s in sorted(routes)],)}, changes=False)
        driver.layout.move(ids, shard)
        driver.reroute()

    # -- snapshots and checkpoints ---------------------------------------------------------

    def snapshot(self, start: int = 0, stop: int | None = None) -> BatchSnapshot:
        """Everything about the agents ``start`` to ``stop - 1`` (all by default), as the
        snapshot one ``ChartBatch`` of them would give: ``ChartBatch.restore`` and
        ``ShardedBatch.restore`` take it. Mail not yet delivered is not in it.

        Raises:
            UsageError: the range is out of bounds.
        """
        layout = self._driver.layout
        start, stop = slot_range(start, stop, layout.size, "snapshot")
        slots = np.arange(start, stop)
        shards = np.unique(layout.owner[slots]).tolist() or [0]
        found = self._driver.run("snapshot", {s: () for s in shards}, changes=False)
        parts = [found[s] for s in shards]
        try:
            joined = BatchSnapshot.join(parts)
        except UsageError:
            raise UsageError(
                "the shards carry different timers since the last reload (timers the new "
                "chart no longer starts): a snapshot of the whole batch cannot be taken "
                "until they are reloaded with the same chart again"
            ) from None
        bases = np.zeros(self.shards, np.intp)
        bases[shards] = np.cumsum([0, *(part.size for part in parts[:-1])])
        positions = bases[layout.owner[slots]] + layout.row[slots]
        return take(joined, positions, self.offset + start)

    def checkpoint(self) -> None:
        """Keep every shard as it is now (its agents, its data, the mail waiting): if a
        shard's process dies, the next call brings the whole batch back here and raises
        ``ShardLostError``. Without a checkpoint, the batch comes back as it was built."""
        self._driver.keep()

    def close(self) -> None:
        """End the batch: its actors end too (or go back to the pool it was given)."""
        self._driver.close()

    def __reduce__(self) -> tuple[Any, ...]:
        """Refused: a pickle or a copy cannot take the agents living in Ray actors.

        Raises:
            SaveError: always.
        """
        raise SaveError(
            f"cannot save sharded batch {self.name!r}: its agents live in Ray actors. Save "
            "its snapshot() (and the data columns you need), and rebuild it with "
            "ShardedBatch.restore or ChartBatch.restore"
        )

    def __enter__(self) -> ShardedBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _shard_count(shards: int | ShardPool) -> int:
    """How many shards ``shards`` (a count or a pool) makes."""
    if isinstance(shards, ShardPool):
        return len(shards)
    return count_of(shards, "a sharded batch needs at least 1 shard")


def _bounds(size: int, shards: int) -> list[tuple[int, int]]:
    """Contiguous ranges of ``size`` slots for ``shards`` shards (as ``ChartBatch.split``)."""
    bounds = np.linspace(0, size, shards + 1).astype(int).tolist()
    return list(itertools.pairwise(bounds))


def _listed(events: Iterable[Event], call: str) -> Sequence[Event]:
    """``events`` as a sequence (any iterable is read once), checked as a batch checks it."""
    return events if isinstance(events, (list, tuple)) else require_events(events, call)


def _choices(
    choices: ArrayLike, count: int, events: Sequence[Event], call: str
) -> NDArray[np.integer]:
    """``choices`` checked as one batch checks them: one integer per agent, each naming one
    of ``events`` or none."""
    picks = picks_of(choices, count, call)
    if picks.size and picks.max() >= len(events):
        raise UsageError(f"choice {int(picks.max())} names no event: there are {len(events)}")
    return picks


def _merged(old: Sequence[str], new: Sequence[str], reports: Sequence[Reloaded]) -> Reloaded:
    """One report of what the shards' reloads kept, exited and entered."""

    def union(found: set[str], order: Sequence[str]) -> tuple[str, ...]:
        return tuple(path for path in order if path in found)

    kept = {path for report in reports for path in report.kept}
    exited = {path for report in reports for path in report.exited}
    entered = {path for report in reports for path in report.entered}
    return Reloaded(union(kept, old), union(exited, old), union(entered, new))
