"""ChartBatch: one chart run by many agents, stepped by table lookups in one pass a call.

Every agent behaves exactly as its own :class:`~statetree.chart.ChartMachine` fed the same
calls would (the table's entries are outcomes of that runtime, and a differential test
holds the two engines together), but all agents live in a few NumPy arrays and a call is
one compiled pass over the agents it concerns.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NoReturn, cast

from numpy.typing import ArrayLike

from statetree.chart.batch import vector
from statetree.chart.batch.actions import BatchHandler
from statetree.chart.batch.agents import Agents, held, set_held
from statetree.chart.batch.arguments import (
    Entities,
    Inputs,
    count_of,
    level_values,
    picks_of,
    refuse,
    select,
    select_ordered,
    slot_range,
)
from statetree.chart.batch.arrays import Indexes, NDArray, np, read_only
from statetree.chart.batch.convert import agents_of, snapshot_of
from statetree.chart.batch.derive import processing
from statetree.chart.batch.operations import apply_operation, reload_batch
from statetree.chart.batch.reading import Readings
from statetree.chart.batch.snapshot import BatchSnapshot, restoring
from statetree.chart.batch.step import BACKENDS, Sink, Stepper, backend_names, trace_options
from statetree.chart.batch.table import STARTED, Table, table_of
from statetree.chart.compile import CompiledChart, compile_chart
from statetree.chart.events import Event, time_step
from statetree.chart.machine import ChartMachine, require_level, require_level_mapping
from statetree.chart.model import Chart
from statetree.chart.reload import Reloaded
from statetree.chart.runtime import bind_handlers
from statetree.chart.saving import batch_state, load_batch
from statetree.core.options import DEFAULT_MAX_TRANSITIONS
from statetree.core.refs import Ref, new_instance
from statetree.core.trace import TraceLevel
from statetree.errors import UsageError, require_name

__all__ = ["MAX_SHARDS", "MAX_TRANSITIONS", "ChartBatch"]

_NO_HANDLERS: Mapping[str, BatchHandler] = MappingProxyType({})
_bind = cast("Callable[[CompiledChart, Mapping[str, BatchHandler]], object]", bind_handlers)
"""ChartMachine's binding rules (only the handlers' argument type differs): refuses a chart
with an action that has no handler (``HandlerError``)."""

MAX_TRANSITIONS = (1 << 31) - 1
"""The largest ``max_transitions`` a batch takes (a pass counts changes in 32 bits)."""

MAX_SHARDS = 4096
"""The most shards :meth:`ChartBatch.split` makes: far more than the processes of a cluster
(each shard is a batch of its own, empty ones included)."""


def _bound(max_transitions: int) -> int:
    """``max_transitions``, checked: 1 to :data:`MAX_TRANSITIONS`."""
    bound = count_of(max_transitions, "max_transitions must be at least 1")
    if bound < 1:
        raise UsageError(f"max_transitions must be at least 1, got {max_transitions}")
    if bound > MAX_TRANSITIONS:
        raise UsageError(f"max_transitions must be at most {MAX_TRANSITIONS:,}, got {bound}")
    return bound


def _backend(backend: str) -> str:
    names = backend_names()
    if backend == "auto":
        return names[0]
    if backend not in BACKENDS:
        raise UsageError(f"backend must be 'auto', 'numba' or 'numpy', got {backend!r}")
    if backend not in names:
        raise UsageError("backend 'numba' needs numba: pip install 'statetree[batch]'")
    return backend


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
        backend: ``"numba"`` (the compiled pass), ``"numpy"`` (the same tables, stepped
            with NumPy) or ``"auto"``: numba when it is installed.

    Raises:
        ChartError: ``chart`` is invalid.
        HandlerError: an action the chart uses has no handler.
        UsageError: ``count``, ``max_transitions`` or ``backend`` is wrong.
    """

    def __init__(
        self,
        chart: Chart | CompiledChart,
        count: int = 0,
        handlers: Mapping[str, BatchHandler] = _NO_HANDLERS,
        *,
        name: str | None = None,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
        backend: str = "auto",
    ) -> None:
        count = count_of(count, "a batch needs a count of at least 0 agents")
        bound = _bound(max_transitions)
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        table = table_of(compiled, bound)
        agents = Agents(count, table.layout.rows, table.layout.ordered)
        self._setup(table, agents, handlers, name, _backend(backend))
        agents.spawn(count, table.fresh)

    def _setup(
        self,
        table: Table,
        agents: Agents,
        handlers: Mapping[str, BatchHandler],
        name: str | None,
        backend: str,
    ) -> None:
        self._handlers = handlers
        self._table = table
        self._agents = agents
        _bind(table.layout.compiled, handlers)  # refuses a chart with an action not handled
        self._stepper = Stepper(table, agents, handlers, backend)
        self.name = table.layout.compiled.chart.name if name is None else require_name(name)
        self.offset = 0
        self._busy = False
        self._unstarted = True  # some live agent may not have started
        self._inputs = Inputs()
        self._every: Indexes = _NONE

    @property
    def backend(self) -> str:
        """The pass that steps the agents: ``"numba"`` or ``"numpy"``."""
        return self._stepper.backend

    @property
    def engine(self) -> str:
        """How the batch runs its chart, in words: its pass, and whether every entry of its
        table was derived when it was built or is derived as agents meet situations."""
        table = self._table
        how = "precomputed" if table.eager else "derived as agents meet situations"
        return (
            f"{self.backend} pass over a table of {len(table.situations) - 1} situations "
            f"and {table.count} entries ({how})"
        )

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

    def stop(self, entities: Entities = None) -> None:
        """Exit every active state of the agents of ``entities``, innermost first, running
        their exit actions (``ChartMachine.stop`` for each): their timers stop; their clock,
        held levels and histories stay, and the next call that needs them starts them
        again (or :meth:`start`). Agents that have not started are left as they are.
        """
        with self._call("stop"):
            ids = self._select(entities)
            apply_operation(self, ids, lambda case: _stop, _stop)
            self._unstarted = True

    def send(self, event: Event, entities: Entities = None) -> None:
        """Latch ``event`` for each agent of ``entities`` and process until they settle.

        Called from a handler while the batch processes, the event is latched into the
        current processing of the agents named, which must be agents of that handler's call.

        Raises:
            UsageError: ``event`` is a level trigger (use ``hold`` / ``release``), or an
                agent is unknown.
            BatchLoopError: an agent could not settle (the others did).
        """
        inputs = self._inputs.of(self._table.layout, [event], "send")[1]
        ids = self._select(entities)
        if self._busy:
            self._stepper.divert([event], ids)
            return
        with self._call("send"):
            ready = self._start(ids)
            self._stepper.process(ready, inputs, lambda machine, _: machine.send(event))

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
        events, mapping = self._inputs.of(self._table.layout, events, "send_each")
        ids, order = (self._slots, None) if entities is None else self._ordered(entities)
        picks = picks_of(choices, ids.size, "send_each", order)
        named = ids if entities is not None else _NONE
        if self._busy:
            beyond = picks[picks >= mapping.size]
            if beyond.size:  # checked first: a refused call diverts no agent
                raise UsageError(
                    f"choice {int(beyond[0])} names no event: there are {mapping.size}"
                )
            for agent, pick in zip(ids.tolist(), picks.tolist(), strict=True):
                if pick >= 0:
                    self._stepper.divert([events[pick]], np.array([agent], np.intp))
            return

        def replay(machine: ChartMachine, agent: int) -> None:
            at = agent if entities is None else int(np.searchsorted(ids, agent))
            machine.send(events[int(picks[at])])

        with self._call("send_each"):
            if self._unstarted:  # checked first: a wrong call starts no agent either
                situations = self._agents.situations
                refuse(picks, ids, mapping, vector.send(picks, named, mapping, situations)[2])
                chosen = ids[picks >= 0]
                ready = self._start(chosen)
                if ready.size != chosen.size:  # agents that failed to start get no event
                    picks = np.where(np.isin(ids, np.setdiff1d(chosen, ready)), -1, picks)
            wrong = self._stepper.given((picks, named, mapping), _NO_TICK, replay)
            refuse(picks, ids, mapping, wrong)

    @property
    def _slots(self) -> Indexes:
        """Every slot index, ``0`` to ``size - 1`` (kept while the size stays)."""
        if self._every.size != self.size:
            self._every = np.arange(self.size, dtype=np.intp)
        return self._every

    def hold(self, event: Event, entities: Entities = None) -> None:
        """Hold a level trigger on for each agent of ``entities``, then process them."""
        self._level(event, entities, True)

    def release(self, event: Event, entities: Entities = None) -> None:
        """Release a level trigger for each agent of ``entities``, then process them."""
        self._level(event, entities, False)

    def _level(self, event: Event, entities: Entities, on: bool) -> None:
        call = "hold" if on else "release"
        event = require_level(event, call, self.compiled)
        ids = self._select(entities)
        with self._call(call):
            ready = self._start(ids)
            set_held(self._table, self._agents, {event: np.full(ready.size, on)}, ready)
            self._stepper.process(ready, _NONE_INPUT, processing(None))

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
        ids, order = (self._slots, None) if every else self._ordered(entities)
        wanted = {}
        for key, on in require_level_mapping(levels).items():
            event = require_level(key, "set_levels", self.compiled)
            wanted[event] = level_values(event, on, ids.size)
        if order is not None:  # given one per entity: in the agents' ascending order
            wanted = {event: on[order] for event, on in wanted.items()}
        with self._call("set_levels"):
            changed = np.zeros(ids.size, np.bool_)
            for event, on in wanted.items():
                changed |= held(self._table, self._agents, event, ids) != on
            if every:
                changed &= self._agents.situations[ids] != 0
            if not changed.any():
                return
            ready = self._start(ids[changed])
            at = np.searchsorted(ids, ready)
            chosen = {event: on[at] for event, on in wanted.items()}
            set_held(self._table, self._agents, chosen, ready)
            self._stepper.process(ready, _NONE_INPUT, processing(None))

    def tick(self, dt: float) -> None:
        """Advance every agent's clock by ``dt``; each due timer fires, in order, its own
        processing (as ``ChartMachine.tick`` does for one machine).

        An agent fires at most ``max_transitions`` timers in one tick: one that has one
        more due fails before firing it (``BatchLoopError`` with ``timers`` true, as its
        machine's ``TransitionLoopError``), its clock reading the expiry of the last timer
        it fired.

        Raises:
            UsageError: ``dt`` is not a number, negative, infinite or NaN, would take a
                clock past the largest float, or the batch is processing.
            BatchLoopError: an agent could not settle, or had more timers due than the
                bound (the others completed the tick).
        """
        step = self._time_step(dt, "tick")
        with self._call("tick"):
            agents = self._agents
            agents.tidy()
            stuck = self._start_all() if self._unstarted else _NONE
            before = agents.clocks
            with _Hidden(agents, stuck, before):
                self._stepper.run(
                    (_NONE, _NONE, 0, _NONE),
                    (before + step, self._table.bound, 0),
                    lambda machine, _: machine.tick(step),
                )

    def frame(
        self, dt: float, events: Sequence[Event] = (), choices: ArrayLike | None = None
    ) -> None:
        """A whole frame in one pass: each agent gets its own event (``events[choices[i]]``
        for agent ``i``, none when negative, as :meth:`send_each` without ``entities``),
        then its clock advances by ``dt`` and its due timers fire (as :meth:`tick`).

        For every agent this is its machine's ``send(event)`` then ``tick(dt)``; the host
        calls come in that order too. An agent whose event does not settle is not ticked
        (its clock stays, as its machine's would when ``send`` raised); the others complete
        the frame.

        Raises:
            UsageError: as :meth:`send_each` or :meth:`tick`; nothing changed.
            BatchLoopError: an agent could not settle (the others completed the frame).
        """
        span = self._time_step(dt, "frame")
        if choices is None:
            if events:
                raise UsageError(
                    "frame() was given events but no choices: choices[i] picks agent i's "
                    "event (negative: none)"
                )
            self.tick(span)
            return
        events, mapping = self._inputs.of(self._table.layout, events, "frame")
        picks = picks_of(choices, self.size, "frame")

        def replay(machine: ChartMachine, agent: int) -> None:
            if picks[agent] >= 0:
                machine.send(events[int(picks[agent])])
            machine.tick(span)

        with self._call("frame"):
            agents = self._agents
            stuck = _NONE
            if self._unstarted:  # checked first: a wrong call starts no agent either
                wrong = vector.send(picks, _NONE, mapping, agents.situations)[2]
                refuse(picks, self._slots, mapping, wrong)
                stuck = self._start_all()
                if stuck.size:
                    picks = np.where(np.isin(self._slots, stuck), -1, picks)
            agents.tidy()
            before = agents.clocks
            with _Hidden(agents, stuck, before):
                timing = (before + span, self._table.bound, 1)
                wrong = self._stepper.given((picks, _NONE, mapping), timing, replay)
            refuse(picks, self._slots, mapping, wrong)

    def _time_step(self, dt: float, call: str) -> float:
        """``dt``, checked as every agent's machine checks it (see ``time_step``): against
        the latest clock, or, when that fails, against those of live agents only (a clock
        no agent reads any more, a despawned agent's, goes then)."""
        try:
            return time_step(dt, call, self._latest)
        except UsageError:
            self._agents.compact()  # between calls: the epochs no agent is in go
            return time_step(dt, call, self._latest)

    @property
    def _latest(self) -> float:
        """The latest clock of an agent (or of a clock no agent reads any more)."""
        return float(max(self._agents.clocks.tolist()))  # a few epochs: faster than NumPy

    def _start_all(self) -> Indexes:
        """Start every agent that has not started; return those that failed to."""
        agents = self._agents
        situations = agents.situations[: self.size]
        idle = np.flatnonzero((situations != 0) & (self._table.info[situations, STARTED] == 0))
        self._start(idle)
        self._unstarted = False
        failed = self._stepper.failures
        return np.fromiter(sorted(failed), np.intp) if failed else _NONE

    def _start(self, ids: Indexes) -> Indexes:
        """Start the agents of ``ids`` that have not; return those that did not fail."""
        if not self._unstarted or ids.size == 0:
            return ids
        idle = ids[self._table.info[self._agents.situations[ids], STARTED] == 0]
        self._stepper.process(idle, _NONE_INPUT, lambda machine, _: machine.start())
        failures = self._stepper.failures
        if not failures:
            return ids
        return np.setdiff1d(ids, np.fromiter(failures, np.intp), assume_unique=True)

    def trace(
        self,
        entities: Entities,
        level: TraceLevel = TraceLevel.BASIC,
        sink: Callable[[str], None] | None = None,
    ) -> None:
        """Trace the agents of ``entities`` as each one's own ``ChartMachine`` would: named
        ``name[index]``, its lines go to ``sink`` (by default the ``"statetree"`` logger)
        after each call that processes it (``start``, ``send``, ``send_each``, ``hold``,
        ``release``, ``set_levels``, ``tick``, ``frame``, ``reload``, a codec's ``apply``;
        ``stop`` and ``despawn`` write none, as a machine's ``stop``). ``TraceLevel.NONE``
        stops.

        It costs the agents traced a replay on a machine each such call (the others
        nothing); a despawn ends it, and a restore, a split or a save does not keep it.

        Raises:
            UsageError: an agent is unknown, ``level`` is no trace level or ``sink`` is not
                callable.
        """
        level = trace_options(level, sink)
        for agent in self._select(entities).tolist():
            self._trace(agent, f"{self.name}[{agent}]", level, sink)

    def _trace(self, agent: int, name: str, level: TraceLevel, sink: Sink) -> None:
        """Trace agent ``agent`` as ``name`` (``TraceLevel.NONE``: stop)."""
        if level is TraceLevel.NONE:
            self._stepper.traced.pop(agent, None)
        else:
            self._stepper.traced[agent] = (name, level, sink)

    # -- changes ---------------------------------------------------------------------------

    def reload(self, chart: Chart | CompiledChart) -> Reloaded:
        """Run ``chart`` from now on, every agent keeping the active states that are still
        the same (the rules of ``ChartMachine.reload``); then every agent processes.

        A reload that fails changes nothing, for any agent: each distinct situation is
        first reloaded on a machine whose host actions do nothing, and only if every one
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
            _bind(compiled, self._handlers)
            return reload_batch(self, compiled)

    # -- snapshots and shards --------------------------------------------------------------

    def snapshot(self, start: int = 0, stop: int | None = None) -> BatchSnapshot:
        """Everything about the agents ``start`` to ``stop - 1`` (all by default).

        ``ChartBatch.restore`` rebuilds them bit for bit, in this process or another.

        Raises:
            UsageError: the range is out of bounds, or the batch is processing.
        """
        begin, end = slot_range(start, stop, self.size, "snapshot")
        with self._call("snapshot"):
            return snapshot_of(self._table, self._agents, begin, end, self.offset)

    @restoring
    def restore(  # called on the class, as a classmethod is (see restoring)
        cls: type[ChartBatch],
        snapshot: BatchSnapshot,
        chart: Chart | CompiledChart,
        handlers: Mapping[str, BatchHandler] = _NO_HANDLERS,
        *,
        name: str | None = None,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
        backend: str = "auto",
    ) -> ChartBatch:
        """``ChartBatch.restore(snapshot, chart, handlers)``: a new batch of the agents of
        ``snapshot``, exactly as they were. ``batch.restore(snapshot)``: ``batch`` put back
        where ``snapshot`` was taken (of a batch running the same chart), keeping its
        handlers, name, bound and backend, as ``ChartMachine.restore`` does; no action,
        handler or listener runs.

        Args:
            chart: the chart the snapshot's batch was running (checked by fingerprint).
            handlers, name, max_transitions, backend: as for the constructor.

        Raises:
            DecodeError: the snapshot is of another chart, or its arrays are impossible
                (the batch called on did not change).
            UsageError: ``snapshot`` is no snapshot, or the batch called on is processing.
        """
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        table, agents = agents_of(snapshot, compiled, _bound(max_transitions))
        batch = cls.__new__(cls)
        batch._setup(table, agents, handlers, name, _backend(backend))
        batch.offset = snapshot.offset
        return batch

    def _rewind(self, snapshot: BatchSnapshot) -> None:
        """``batch.restore(snapshot)``: this batch put back where ``snapshot`` was taken."""
        with self._call("restore"):
            table, agents = agents_of(snapshot, self.compiled, self._table.bound)
            self._setup(table, agents, self._handlers, self.name, self.backend)
            self.offset = snapshot.offset

    def split(self, shards: int) -> list[ChartBatch]:
        """The agents in ``shards`` contiguous ranges, each a new batch stepping on its own.

        Each shard numbers its agents from 0; its ``offset`` is the index of its first agent
        in this batch (a shard may be empty). This batch is left as it was.

        Raises:
            UsageError: ``shards`` is below 1 or above :data:`MAX_SHARDS`.
        """
        if count_of(shards, "split() needs at least 1 shard") < 1:
            raise UsageError(f"split() needs at least 1 shard, got {shards}")
        if shards > MAX_SHARDS:
            raise UsageError(f"split() makes at most {MAX_SHARDS} shards, got {shards}")
        bounds = np.linspace(0, self.size, shards + 1).astype(int).tolist()
        return [self._shard(self.snapshot(a, b)) for a, b in itertools.pairwise(bounds)]

    def _shard(self, snapshot: BatchSnapshot) -> ChartBatch:
        return type(self).restore(
            snapshot,
            self.compiled,
            self._handlers,
            name=self.name,
            max_transitions=self._table.bound,
            backend=self.backend,
        )

    @classmethod
    def join(cls, shards: Sequence[ChartBatch]) -> ChartBatch:
        """One batch of the agents of ``shards``, in order (the first's handlers and name).

        Shards of a split (their ``offset`` not all 0) must come in order, each starting
        where the one before ends; batches made on their own (``offset`` 0) join end to end.

        Raises:
            UsageError: no shard, a shard given twice, or shards out of order.
        """
        if not isinstance(shards, Iterable):
            raise UsageError(f"join() needs a list of ChartBatch shards, got {shards!r}")
        shards = list(shards)
        if not shards:
            raise UsageError("join() needs at least one shard")
        if not all(isinstance(shard, ChartBatch) for shard in shards):
            raise UsageError("join() needs ChartBatch shards")
        if len({id(shard) for shard in shards}) != len(shards):
            raise UsageError("join() was given the same shard twice")
        if any(shard.offset for shard in shards):
            for before, after in itertools.pairwise(shards):
                if after.offset != before.offset + before.size:
                    raise UsageError(
                        f"join(): a shard at offset {after.offset} follows one covering "
                        f"{before.offset} to {before.offset + before.size - 1}; give the "
                        "shards of a split in order"
                    )
        snapshot = BatchSnapshot.join([shard.snapshot() for shard in shards])
        return shards[0]._shard(snapshot)

    # -- saving (pickle, copy): see statetree.chart.saving ----------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its chart, its snapshot's bytes, its handlers (by name), name, bound and
        backend."""
        saved = batch_state(self, self._handlers, self._table.bound, _OWN)
        return (new_instance, (Ref(type(self)), ChartBatch), saved)

    def __setstate__(self, saved: dict[str, Any]) -> None:
        backends = (BACKENDS, backend_names())
        loaded = load_batch(type(self), BatchSnapshot, saved, backends, _OWN)
        vars(self).update(vars(loaded))

    # -- population ------------------------------------------------------------------------

    def spawn(self, count: int = 1) -> Indexes:
        """Add ``count`` agents (not started, like a new ``ChartMachine``); free slots are
        reused, lowest first.

        Returns:
            Their indexes, ascending.
        """
        number = count_of(count, "spawn() needs a count of at least 0")
        with self._call("spawn"):
            self._unstarted = True
            return self._agents.spawn(number, self._table.fresh)

    def despawn(self, entities: Entities) -> None:
        """Remove agents: their active states exit, innermost first (exit actions run, as
        ``stop()`` does), then their slots are free for :meth:`spawn`.

        When a handler raises, the agents whose exit calls were all made are removed and the
        others are put back as they were (as for any call).
        """
        with self._call("despawn"):
            ids = self._select(entities)
            try:
                apply_operation(self, ids, lambda case: _stop, _stop)
            except BaseException:
                # A handler raised: agents with calls left were put back; the others exited
                # every state, and are gone.
                situations = self._agents.situations[ids]
                gone = ids[self._table.info[situations, STARTED] == 0]
                self._agents.free(gone)
                self._untrace(gone)
                raise
            self._agents.free(ids)
            self._untrace(ids)

    def _untrace(self, ids: Indexes) -> None:
        """Stop tracing the agents ``ids`` (gone: their slots may hold new agents)."""
        traced = self._stepper.traced
        if traced:
            for agent in ids.tolist():
                traced.pop(agent, None)

    # -- agents ----------------------------------------------------------------------------

    def _select(self, entities: Entities) -> Indexes:
        return select(entities, self._agents.situations[: self.size] != 0)

    def _ordered(self, entities: Entities) -> tuple[Indexes, Indexes | None]:
        return select_ordered(entities, self._agents.situations[: self.size] != 0)

    # -- calls -----------------------------------------------------------------------------

    def _call(self, name: str) -> _Call:
        """The context of a call on the batch: refused while it processes; failures
        reported at its end."""
        if self._busy:
            raise UsageError(f"{name}() called while batch {self.name!r} processes")
        return _Call(self)

    def _fail(self) -> NoReturn:
        """Raise the ``BatchLoopError`` of the agents that failed in this call."""
        failures = self._stepper.failures
        agents = sorted(failures)
        first = agents[0]
        raise failures[first].error(
            f"{self.name}[{first}]",  # this batch's indexes, as every call takes them
            self._table.bound,
            agents,
        )


_OWN = frozenset(
    (
        "_agents",
        "_busy",
        "_every",
        "_handlers",
        "_inputs",
        "_stepper",
        "_table",
        "_unstarted",
        "name",
        "offset",
    )
)
"""A batch's own attributes (set by ``_setup``); a subclass's are saved as they are."""
_NONE: Indexes = read_only(np.zeros(0, np.intp))
_NO_TICK = (np.zeros(0, np.float64), 1, 0)
_NONE_INPUT: Indexes = read_only(np.zeros(1, np.intp))


def _stop(machine: ChartMachine, agent: int = 0) -> None:
    machine.machine.stop()


class _Hidden:
    """Agents that failed to start while a tick began neither tick nor move their clocks."""

    __slots__ = ("agents", "before", "hidden", "stuck")

    def __init__(self, agents: Agents, stuck: Indexes, before: NDArray[np.float64]) -> None:
        self.agents, self.stuck, self.before = agents, stuck, before
        self.hidden = agents.due[:, stuck].copy() if stuck.size else None

    def __enter__(self) -> None:
        if self.hidden is not None:
            self.agents.due[:, self.stuck] = np.nan

    def __exit__(self, *exc: object) -> None:
        if self.hidden is not None:
            agents, stuck = self.agents, self.stuck
            agents.due[:, stuck] = self.hidden
            agents.set_clocks(stuck, self.before[agents.epochs[stuck]])


class _Call:
    """A call in progress on a batch (a plain class: cheaper than a generator's context)."""

    __slots__ = ("batch",)

    def __init__(self, batch: ChartBatch) -> None:
        self.batch = batch

    def __enter__(self) -> None:
        stepper = self.batch._stepper
        stepper.failures.clear()
        self.batch._busy = True

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        batch = self.batch
        batch._busy = False
        if kind is None and batch._stepper.failures:
            batch._fail()
