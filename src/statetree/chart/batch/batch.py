"""ChartBatch: one chart run by many agents, stepped as arrays.

Every agent behaves exactly as its own :class:`~statetree.chart.ChartMachine` fed the same
calls would (a differential test holds the two engines to that), but all agents live in a
few NumPy arrays and each step is a handful of array operations, whatever the number of
agents.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, cast

from numpy.typing import ArrayLike

from statetree.chart.actions import Handler
from statetree.chart.batch.actions import BatchHandler
from statetree.chart.batch.arrays import Bools, Indexes, NDArray, np, read_only
from statetree.chart.batch.engine import Engine
from statetree.chart.batch.entities import Entities, select
from statetree.chart.batch.errors import BatchLoopError
from statetree.chart.batch.plan import Plan
from statetree.chart.batch.reading import Readings
from statetree.chart.batch.recall import Recall
from statetree.chart.batch.reload import reload_engine
from statetree.chart.batch.restore import plan_of, store_of
from statetree.chart.batch.snapshot import BatchSnapshot, fingerprint
from statetree.chart.batch.store import Store
from statetree.chart.batch.ticking import tick
from statetree.chart.batch.view import AgentView
from statetree.chart.compile import CompiledChart, compile_chart
from statetree.chart.events import Event
from statetree.chart.model import Chart
from statetree.chart.reload import Reloaded
from statetree.chart.runtime import bind_handlers
from statetree.chart.saving import batch_state, load_batch
from statetree.core.options import DEFAULT_MAX_TRANSITIONS
from statetree.core.refs import Ref, new_instance
from statetree.errors import DecodeError, UsageError

__all__ = ["ChartBatch"]

_NO_HANDLERS: Mapping[str, BatchHandler] = MappingProxyType({})
_NONE: Indexes = read_only(np.zeros(0, np.intp))


def bind(compiled: CompiledChart, handlers: Mapping[str, BatchHandler]) -> list[BatchHandler]:
    """The handler of each host action slot of ``compiled`` (as ``ChartMachine`` binds them).

    Raises:
        HandlerError: an action the chart uses has no handler.
    """
    # The binding rules are ChartMachine's; only the handlers' argument type differs.
    return cast(
        "list[BatchHandler]", bind_handlers(compiled, cast("Mapping[str, Handler]", handlers))
    )


def _nothing(call: object) -> None:
    """The host actions of a rehearsed reload: not performed."""


def _doing_nothing(compiled: CompiledChart) -> dict[str, BatchHandler]:
    return dict.fromkeys(compiled.host_actions, _nothing)


class ChartBatch(Readings):
    """``count`` agents running one chart, stepped together.

    Args:
        chart: the chart, or a chart compiled once.
        count: how many agents to create (not started: the first call that needs them
            starts them, or :meth:`start`).
        handlers: the host's handler of each action type the chart uses (built-in actions
            excepted), called with a :class:`BatchCall` naming every agent performing it.
        name: the batch's name in errors (default: the chart's name).
        max_transitions: how many changes one agent's processing may make before it fails
            with :class:`BatchLoopError`.

    Raises:
        ChartError: ``chart`` is invalid.
        HandlerError: an action the chart uses has no handler.
        UsageError: ``count`` or ``max_transitions`` is out of range.
    """

    def __init__(
        self,
        chart: Chart | CompiledChart,
        count: int = 0,
        handlers: Mapping[str, BatchHandler] = _NO_HANDLERS,
        *,
        name: str | None = None,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
    ) -> None:
        if count < 0:
            raise UsageError(f"a batch needs a count of at least 0 agents, got {count}")
        if max_transitions < 1:
            raise UsageError(f"max_transitions must be at least 1, got {max_transitions}")
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        plan = Plan(compiled)
        self._setup(plan, Store(plan, count), handlers, name, max_transitions)
        self._store.spawn(count)

    def _setup(
        self,
        plan: Plan,
        store: Store,
        handlers: Mapping[str, BatchHandler],
        name: str | None,
        bound: int,
    ) -> None:
        self._handlers = handlers
        self._store = store
        self._engine = Engine(plan, store, bind(plan.compiled, handlers), bound)
        self._engine.recall = Recall(self._engine)
        self.name = plan.compiled.chart.name if name is None else name
        self.offset = 0
        self._busy = False
        self._unstarted = True  # some live agent may not have started
        self._every: Indexes = np.arange(0)
        self._known_edges: dict[tuple[Plan, tuple[Event, ...]], Indexes] = {}

    # -- inputs ----------------------------------------------------------------------------

    def start(self, entities: Entities = None) -> None:
        """Enter the initial states of the agents that have not started.

        Raises:
            BatchLoopError: an agent could not settle (the others did).
        """
        with self._call("start"):
            self._start(self._select(entities))
            if entities is None:
                self._unstarted = False

    def send(self, event: Event, entities: Entities = None) -> None:
        """Latch ``event`` for each agent of ``entities`` and process until they settle.

        Called from a handler while the batch processes, the event is latched into the
        current processing of the agents named, which must be agents of that handler's call.

        Raises:
            UsageError: ``event`` is a level trigger (use ``hold`` / ``release``), or an
                agent is unknown.
            BatchLoopError: an agent could not settle (the others did).
        """
        self._send(int(self._edges([event])[0]), self._select(entities))

    def send_each(
        self, events: Sequence[Event], choices: ArrayLike, entities: Entities = None
    ) -> None:
        """Send each agent its own event, in one step: agent ``entities[i]`` gets
        ``events[choices[i]]`` (none when ``choices[i]`` is negative).

        Each agent processes its event as :meth:`send` would; a frame's inputs for a whole
        crowd are one call. Without ``entities``, ``choices`` has one entry per agent slot.

        Raises:
            UsageError: an event is a level trigger, ``choices`` does not match the agents
                or names no event, or an agent is unknown.
            BatchLoopError: an agent could not settle (the others did).
        """
        table = self._edges(events)
        ids = self._slots if entities is None else self._select(entities)
        picks = np.asarray(choices).reshape(-1)
        if picks.size == 0:
            picks = picks.astype(np.intp)  # an empty list reads as floats
        if picks.shape != ids.shape or picks.dtype.kind not in "iu":  # signed or unsigned
            raise UsageError(
                f"send_each() needs one integer choice per agent ({ids.size}), "
                f"got {picks.size} of type {picks.dtype}"
            )
        chosen = (picks >= 0).nonzero()[0]
        edges = _chosen_edges(table, picks[chosen])
        ids = chosen if entities is None else ids[chosen]
        if entities is None and np.count_nonzero(self._store.alive[ids]) != ids.size:
            self._select(ids)  # names the first agent given an event that does not exist
        self._send(edges, ids)

    @property
    def _slots(self) -> Indexes:
        """Every slot index, ``0`` to ``size - 1`` (shared: read only)."""
        if self._every.size != self.size:
            self._every = read_only(np.arange(self.size))
        return self._every

    def _edges(self, events: Sequence[Event]) -> Indexes:
        """The latch row of each event (-1: no trigger counts it)."""
        plan = self._engine.plan
        key = (plan, tuple(events))
        known = self._known_edges.get(key)
        if known is not None:
            return known
        compiled = plan.compiled
        for event in events:
            if event[0] in compiled.level_kinds:
                raise UsageError(f"{event} is a level trigger: use hold() and release()")
        edges = read_only(np.array([compiled.edges.get(e, -1) for e in events], np.intp))
        if len(self._known_edges) >= 64:  # a host that builds new event lists each frame
            self._known_edges.clear()
        self._known_edges[key] = edges
        return edges

    def _send(self, edges: int | Indexes, ids: Indexes) -> None:
        if self._busy:
            self._engine.latch_in_call(edges, ids)
            return
        with self._call("send"):
            ready = self._start(ids)
            if not isinstance(edges, int) and ready.size != ids.size:
                edges = edges[np.isin(ids, ready)]
            self._engine.process(ready, edges)

    def hold(self, event: Event, entities: Entities = None) -> None:
        """Hold a level trigger on for each agent of ``entities``, then process them."""
        self._level(event, entities, True)

    def release(self, event: Event, entities: Entities = None) -> None:
        """Release a level trigger for each agent of ``entities``, then process them."""
        self._level(event, entities, False)

    def set_levels(
        self, levels: Mapping[Event, bool | ArrayLike], entities: Entities = None
    ) -> None:
        """Hold or release several level triggers at once: each agent whose levels change
        processes once, seeing them all (``ChartMachine.set_levels`` for each agent).

        A frame's levels for a whole crowd are one call: give each event a boolean, or a
        boolean array with one entry per agent of ``entities`` (per agent slot without
        ``entities``: free slots are left out). Agents whose levels all stay as they were
        are not processed (nor started).

        Raises:
            UsageError: an event is not a level trigger, an array does not match the
                agents, or an agent is unknown; nothing changed.
            BatchLoopError: an agent could not settle (the others did).
        """
        every = entities is None
        ids = self._slots if every else self._select(entities)
        wanted = [(event, self._level_values(event, on, ids.size)) for event, on in levels.items()]
        with self._call("set_levels"):
            store = self._store
            rows = [store.held_row(event) for event, _ in wanted]
            # Without entities every slot is compared through views, free ones masked out.
            where: slice | Indexes = slice(0, self.size) if every else ids
            changed = np.zeros(ids.size, np.bool_)
            for row, (_, on) in zip(rows, wanted, strict=True):
                changed |= store.held[row, where] != on
            if every:
                changed &= store.alive[: self.size]
            if not changed.any():
                return
            ready = self._start(ids[changed])
            positions = np.searchsorted(ids, ready)
            for row, (_, on) in zip(rows, wanted, strict=True):
                store.held[row, ready] = on[positions]
            self._engine.process(ready, None)

    def _level_values(self, event: Event, on: bool | ArrayLike, count: int) -> Bools:
        """``on`` as ``count`` booleans, one per agent."""
        if event[0] not in self._engine.plan.compiled.level_kinds:
            raise UsageError(f"{event} is not a level trigger: send() it instead")
        values = np.asarray(on)
        if values.dtype != np.bool_ or values.ndim > 1 or values.size not in (1, count):
            raise UsageError(
                f"set_levels() needs a boolean, or one boolean per agent ({count}), for "
                f"{event}: got {values.size} of type {values.dtype}"
            )
        if values.size == count:
            flags: Bools = values.reshape(-1)
            return flags
        return np.full(count, bool(values.reshape(-1)[0]))

    def tick(self, dt: float) -> None:
        """Advance every agent's clock by ``dt``; each due timer fires, in order, its own
        processing (as ``ChartMachine.tick`` does for one machine).

        An agent fires at most ``max_transitions`` timers in one tick: one that has one
        more due fails before firing it (``BatchLoopError`` with ``timers`` true, as its
        machine's ``TransitionLoopError``), its clock reading the expiry of the last timer
        it fired.

        Raises:
            UsageError: ``dt`` is negative, infinite or NaN, or the batch is processing.
            BatchLoopError: an agent could not settle, or had more timers due than the
                bound (the others completed the tick).
        """
        if not 0 <= dt < math.inf:  # NaN fails every comparison
            problem = "time cannot go backwards" if dt < 0 else "dt must be a finite number"
            raise UsageError(f"tick({dt}): {problem}")
        with self._call("tick"):
            if self._unstarted:  # agents spawned since the last tick start first
                store = self._store
                self._start(np.flatnonzero(store.alive[: self.size] & ~store.state(0)))
                self._unstarted = False
            failed = self._engine.failures  # agents that failed to start stay as they are
            tick(self._engine, dt, np.fromiter(sorted(failed), np.intp) if failed else _NONE)

    def _level(self, event: Event, entities: Entities, on: bool) -> None:
        store = self._store
        if event[0] not in self._engine.plan.compiled.level_kinds:
            raise UsageError(f"{event} is not a level trigger: send() it instead")
        with self._call("hold" if on else "release"):
            ids = self._start(self._select(entities))
            row = store.held_row(event)  # first: a new event adds a row to ``held``
            store.held[row, ids] = on
            self._engine.process(ids, None)

    def _start(self, ids: Indexes) -> Indexes:
        """Start the agents of ``ids`` that have not; return those that did not fail."""
        if not self._unstarted:
            return ids
        engine = self._engine
        idle = ids[~self._store.started(ids)]
        engine.process(idle, None)
        if not engine.failures:
            return ids
        failed = np.fromiter(engine.failures, np.intp)
        return np.setdiff1d(ids, failed, assume_unique=True)

    # -- changes ---------------------------------------------------------------------------

    def reload(self, chart: Chart | CompiledChart) -> Reloaded:
        """Run ``chart`` from now on, every agent keeping the active states that are still
        the same (the rules of ``ChartMachine.reload``); then every agent processes.

        A reload that fails changes nothing, for any agent: it is first rehearsed on a copy
        of the batch whose host actions do nothing, and only if every agent of the copy
        settles does the batch itself reload.

        Returns:
            The paths kept, exited and entered by at least one agent.

        Raises:
            ChartError: ``chart`` is invalid; nothing changed.
            HandlerError: a new action has no handler; nothing changed.
            UsageError: called while the batch processes.
            BatchLoopError: an agent would not settle on the new chart; nothing changed.
        """
        with self._call("reload"):
            compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
            handlers = bind(compiled, self._handlers)
            rehearsal = self.restore(
                self._snapshot(0, self.size),
                self.compiled,
                _doing_nothing(self.compiled),
                name=self.name,
                max_transitions=self._engine.bound,
            )
            with rehearsal._call("reload"):
                rehearsal._switch(compiled, bind(compiled, _doing_nothing(compiled)))
            report = self._switch(compiled, handlers)
        return report

    def _switch(self, compiled: CompiledChart, handlers: list[BatchHandler]) -> Reloaded:
        """Reload every agent with ``compiled`` and ``handlers``, then process them all."""
        report = reload_engine(self._engine, compiled)
        self._engine.handlers = handlers
        store, size = self._store, self.size
        kept = store.states(slice(0, size))
        self._engine.process(np.flatnonzero(store.alive[:size]), None)
        fresh = np.any(store.states(slice(0, size)) & ~kept, axis=1)
        entered = tuple(self._engine.plan.tree.paths[n] for n in np.flatnonzero(fresh))
        return Reloaded(report.kept, report.exited, entered)

    # -- snapshots and shards --------------------------------------------------------------

    def snapshot(self, start: int = 0, stop: int | None = None) -> BatchSnapshot:
        """Everything about the agents ``start`` to ``stop - 1`` (all by default).

        ``ChartBatch.restore`` rebuilds them bit for bit, in this process or another.

        Raises:
            UsageError: the range is out of bounds, or the batch is processing.
        """
        stop = self.size if stop is None else stop
        if not 0 <= start <= stop <= self.size:
            raise UsageError(f"snapshot({start}, {stop}): the batch has {self.size} slots")
        with self._call("snapshot"):
            return self._snapshot(start, stop)

    def _snapshot(self, start: int, stop: int) -> BatchSnapshot:
        store, engine = self._store, self._engine
        return BatchSnapshot(
            fingerprint(self.chart),
            engine.plan.carried,
            tuple(store.held_events),
            engine.sequence,
            self.offset + start,
            {name: a[..., start:stop].copy() for name, a in store.arrays().items()},
        )

    @classmethod
    def restore(
        cls,
        snapshot: BatchSnapshot,
        chart: Chart | CompiledChart,
        handlers: Mapping[str, BatchHandler] = _NO_HANDLERS,
        *,
        name: str | None = None,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
    ) -> ChartBatch:
        """A batch of the agents of ``snapshot``, exactly as they were.

        Args:
            chart: the chart the snapshot's batch was running (checked by fingerprint).
            handlers, name, max_transitions: as for the constructor.

        Raises:
            DecodeError: the snapshot is of another chart, or its arrays are impossible.
        """
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        if snapshot.chart != fingerprint(compiled.chart):
            raise DecodeError(
                f"the snapshot is of another chart than {compiled.chart.name!r} "
                f"(fingerprint {snapshot.chart}, not {fingerprint(compiled.chart)})"
            )
        plan = plan_of(compiled, snapshot)
        batch = cls.__new__(cls)
        batch._setup(plan, store_of(plan, snapshot), handlers, name, max_transitions)
        batch._engine.sequence = snapshot.sequence
        batch.offset = snapshot.offset
        return batch

    def split(self, shards: int) -> list[ChartBatch]:
        """The agents in ``shards`` contiguous ranges, each a new batch stepping on its own.

        Each shard numbers its agents from 0; its ``offset`` is the index of its first agent
        in this batch. This batch is left as it was.
        """
        if shards < 1:
            raise UsageError(f"split() needs at least 1 shard, got {shards}")
        bounds = np.linspace(0, self.size, shards + 1).astype(int).tolist()
        return [
            self.restore(
                self.snapshot(start, stop),
                self.compiled,
                self._handlers,
                name=self.name,
                max_transitions=self._engine.bound,
            )
            for start, stop in itertools.pairwise(bounds)
        ]

    @classmethod
    def join(cls, shards: Sequence[ChartBatch]) -> ChartBatch:
        """One batch of the agents of ``shards``, in order (the first's handlers and name)."""
        if not shards:
            raise UsageError("join() needs at least one shard")
        first = shards[0]
        snapshot = BatchSnapshot.join([shard.snapshot() for shard in shards])
        return cls.restore(
            snapshot,
            first.compiled,
            first._handlers,
            name=first.name,
            max_transitions=first._engine.bound,
        )

    # -- saving (pickle, copy): see statetree.chart.saving ----------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its chart, its snapshot's bytes, its handlers (by name), name and bound."""
        saved = batch_state(self, self._handlers, self._engine.bound)
        return (new_instance, (Ref(type(self)),), saved)

    def __setstate__(self, saved: dict[str, Any]) -> None:
        vars(self).update(vars(load_batch(type(self), BatchSnapshot, saved)))

    # -- population ------------------------------------------------------------------------

    def spawn(self, count: int = 1) -> Indexes:
        """Add ``count`` agents (not started, like a new ``ChartMachine``); free slots are
        reused, lowest first.

        Returns:
            Their indexes, ascending.
        """
        if count < 0:
            raise UsageError(f"spawn() needs a count of at least 0, got {count}")
        with self._call("spawn"):
            self._unstarted = True
            return self._store.spawn(count)

    def despawn(self, entities: Entities) -> None:
        """Remove agents: their active states exit, innermost first (exit actions run, as
        ``stop()`` does), then their slots are free for :meth:`spawn`."""
        with self._call("despawn"):
            ids = self._select(entities)
            store, engine = self._store, self._engine
            work = store.gather(ids, engine.plan)
            engine.exit_all(work, reversed(range(engine.plan.states)))
            store.free(ids)

    # -- agents ----------------------------------------------------------------------------

    def agent(self, index: int) -> AgentView:
        """A live, read-only view of agent ``index`` (active states, clock, timers)."""
        self._check(index)
        return AgentView(self, index)

    def _select(self, entities: Entities) -> Indexes:
        return select(entities, self._store.alive[: self.size])

    # -- calls -----------------------------------------------------------------------------

    def _call(self, name: str) -> _Call:
        """The context of a call on the batch: refused while it processes; failures
        reported at its end."""
        if self._busy:
            raise UsageError(f"{name}() called while batch {self.name!r} processes")
        return _Call(self)

    def _fail(self) -> None:
        """Raise the ``BatchLoopError`` of the agents that failed in this call."""
        failures = self._engine.failures
        agents = sorted(failures)
        first = agents[0]
        name = f"{self.name}[{first + self.offset}]"
        agents = [agent + self.offset for agent in agents]
        failure = failures[first]
        bound = self._engine.bound
        raise BatchLoopError(name, failure.cycle, bound, agents, timers=failure.timers)


def _chosen_edges(table: Indexes, picks: NDArray[np.integer]) -> Indexes:
    """The latch row of each event chosen (``picks``: indexes of ``table``, none negative).

    Raises:
        UsageError: a choice names no event.
    """
    # Indexing refuses a choice past the table, but a uint64 past the largest intp wraps.
    if picks.dtype != np.uint64 or not picks.size or picks.max() < table.size:
        try:
            edges: Indexes = table[picks]
            return edges
        except IndexError:
            pass
    raise UsageError(f"choice {int(picks.max())} names no event: there are {table.size}")


class _Call:
    """A call in progress on a batch (a plain class: cheaper than a generator's context)."""

    __slots__ = ("batch",)

    def __init__(self, batch: ChartBatch) -> None:
        self.batch = batch

    def __enter__(self) -> None:
        engine = self.batch._engine
        engine.failures.clear()
        engine.recent.clear()
        self.batch._busy = True

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        batch = self.batch
        batch._busy = False
        if kind is None and batch._engine.failures:
            batch._fail()
