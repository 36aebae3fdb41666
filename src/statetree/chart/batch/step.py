"""One pass of a batch call, and what follows it: host calls, diverted agents, failures.

A pass (compiled, or NumPy when numba is missing) moves every agent of a call by table
lookups and lists the host calls they made. The calls are then made in *buckets*: every
agent's first host call of a processing comes before its second, and so on, each processing
before the next; within a bucket each action is one handler call naming every agent making
it. So each agent sees its own calls in exactly its machine's order.

The pass writes the host calls as records, with undo rows and failures, into buffers reused
from call to call (a frame allocates nothing); the compiled pass stops when one is full, the
caller doubles it and the pass goes on.

A handler may ``send`` to agents of its call: that changes their processing from that point,
which no table knows. Those agents are *diverted*: their remaining calls are left out of the
buckets, and each is then taken out of the batch as a ``ChartMachine`` in the situation it
had before the call, replayed with its first calls skipped and the events latched where the
handler sent them, and put back. The per-agent runtime decides, as everywhere.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import TYPE_CHECKING, Any

from statetree.chart.actions import ActionCall
from statetree.chart.batch import vector
from statetree.chart.batch.actions import BatchCall, BatchHandler
from statetree.chart.batch.arrays import Floats, Indexes, NDArray, np
from statetree.chart.batch.derive import Noting
from statetree.chart.batch.errors import Failure
from statetree.chart.batch.table import CALLS, FAIL, NCALLS, Table
from statetree.chart.events import Event
from statetree.chart.machine import ChartMachine
from statetree.chart.placement import (
    RunningTimer,
    Situation,
    place,
    place_timers,
    running_timers,
    situation_of,
)
from statetree.core.trace import TraceLevel, trace_level
from statetree.errors import TransitionLoopError, UsageError, require_callable

if TYPE_CHECKING:
    from statetree.chart.batch.agents import Agents

__all__ = ["BACKENDS", "Buffers", "Replay", "Stepper", "backend_names", "trace_options"]

Replay = Callable[[ChartMachine, int], object]
"""Redo a call on one agent's machine (the agent's index given)."""
Work = tuple[NDArray[np.integer], NDArray[np.integer], int, NDArray[np.integer]]
"""The agents given an input (ascending), their inputs (or one for all), how many."""
Timing = tuple[Floats, int, int]
"""A tick: each epoch's clock at its end (none: no tick), the most timers an agent fires,
the number of its first firing's processing."""


POS, CODE, NREC, NUNDO, NFAIL, MISSING_S, MISSING_X, CURSOR = range(8)
"""Slots of ``status``: where a pass goes on, why it stopped, the buffers' counts, the
(situation, input) pair it is missing, and how many of the agents named are done."""


class Buffers:
    """Records ``(agent, processing number, entry)``; undo rows ``(agent, situation,
    epoch)`` with their timer rows; failures ``(agent, entry or -1)`` with their clocks; and
    the pass's ``status`` (see :mod:`~statetree.chart.batch.kernel`)."""

    def __init__(self, rows: int, ordered_rows: int, capacity: int = 64) -> None:
        self.status = np.zeros(8, np.int64)
        self.records = np.zeros((capacity, 3), np.int32)
        self.undo = np.zeros((capacity, 3), np.int32)
        self.undo_due: Floats = np.zeros((capacity, rows))
        self.undo_order = np.zeros((capacity, ordered_rows), np.int64)
        self.fails = np.zeros((capacity, 2), np.int64)
        self.fail_clock: Floats = np.zeros(capacity)
        self.queue = np.zeros(0, np.int32)  # the agents a pass moves, listed first

    def reset(self) -> None:
        """Empty, for a new pass."""
        self.status[:] = 0

    def grow(self) -> None:
        """Double every buffer, keeping what is written."""
        for name in ("records", "undo", "undo_due", "undo_order", "fails", "fail_clock"):
            array = getattr(self, name)
            bigger = np.zeros((2 * array.shape[0], *array.shape[1:]), array.dtype)
            bigger[: array.shape[0]] = array
            setattr(self, name, bigger)

    def as_tuple(self, slots: int) -> tuple[NDArray[Any], ...]:
        """The buffers in the order the compiled pass reads them, for ``slots`` agent
        slots."""
        if self.queue.size < slots:
            self.queue = np.zeros(slots, np.int32)
        return (
            self.records,
            self.undo,
            self.undo_due,
            self.undo_order,
            self.fails,
            self.fail_clock,
            self.status,
            self.queue,
        )

    def _room(self, name: int, more: int) -> int:
        start = int(self.status[name])
        while start + more > min(self.records.shape[0], self.undo.shape[0], self.fails.shape[0]):
            self.grow()
        self.status[name] = start + more
        return start

    def put_records(self, agents: Indexes, numbers: Indexes, entries: Indexes) -> None:
        """Append records."""
        at = self._room(NREC, agents.size)
        self.records[at : at + agents.size] = np.stack([agents, numbers, entries], axis=1)

    def put_undo(
        self,
        agents: Indexes,
        situations: NDArray[Any],
        epochs: NDArray[Any],
        due: Floats,
        order: NDArray[np.int64],
    ) -> None:
        """Append undo rows (``due`` and ``order``: rows by agents)."""
        at = self._room(NUNDO, agents.size)
        end = at + agents.size
        self.undo[at:end] = np.stack([agents, situations, epochs], axis=1)
        self.undo_due[at:end] = due.T
        self.undo_order[at:end] = order.T

    def put_failures(self, agents: Indexes, entries: Indexes, clocks: Floats) -> None:
        """Append failures."""
        at = self._room(NFAIL, agents.size)
        self.fails[at : at + agents.size] = np.stack([agents, entries], axis=1)
        self.fail_clock[at : at + agents.size] = clocks

    @property
    def record_rows(self) -> NDArray[np.int32]:
        """The records written."""
        return self.records[: self.status[NREC]]

    @property
    def undo_rows(self) -> NDArray[np.int32]:
        """The undo rows written."""
        return self.undo[: self.status[NUNDO]]


BACKENDS = ("numba", "numpy")
"""Every pass's name, the compiled first."""


def backend_names() -> tuple[str, ...]:
    """The passes that can run here: ``numba`` (when installed), then ``numpy``."""
    return BACKENDS if find_spec("numba") is not None else BACKENDS[1:]


@dataclass(eq=False)
class _Divert:
    """An agent a handler sent events to: its first ``made`` calls are made; the events
    ``sent`` are latched right after the last of them."""

    made: int
    sent: list[Event] = field(default_factory=list)


class Stepper:
    """Runs a batch's passes and everything after them.

    Attributes:
        backend: ``"numba"`` or ``"numpy"``.
        failures: why each agent that did not settle in this call failed.
    """

    def __init__(
        self, table: Table, agents: Agents, handlers: Mapping[str, BatchHandler], backend: str
    ) -> None:
        self.table = table
        self.agents = agents
        self.handlers = handlers
        self.backend = backend
        self.buffers = Buffers(agents.due.shape[0], agents.order.shape[0])
        self.failures: dict[int, Failure] = {}
        self.calling: tuple[int, int, Indexes] | None = None  # the bucket calling
        self.diverts: dict[int, _Divert] = {}
        self.continuing: tuple[int, ChartMachine] | None = None
        self.processing = True  # handlers may send (not while despawning, say)
        self.undo_table = table  # the table undo rows name situations of
        self.traced: dict[int, Traced] = {}  # see ChartBatch.trace
        self._traced_here: set[int] = set()  # traced agents replayed with their handlers
        self.watching = False  # a traced call runs

    # -- passes ----------------------------------------------------------------------------

    def process(self, ids: Indexes, inputs: Indexes, replay: Replay) -> None:
        """One processing for each agent ``ids`` (ascending) of its input, then its calls."""
        if ids.size:
            self.run((ids, inputs, ids.size, inputs[:0]), _NO_TICK, replay)

    def run(self, work: Work, timing: Timing, replay: Replay) -> int:
        """A pass (see :func:`statetree.chart.batch.kernel.run`), then what follows it.

        With a choice per slot (a negative count), every choice is checked first: returns
        the position of the first wrong one (nothing changed then), else -1.
        """
        ids, inputs, count, mapping = work
        dense = count < 0
        watched = self.watch(ids[: max(count, 0)], inputs if dense else None, timing)
        self.buffers.reset()
        agents = self.agents
        agents.widen(len(self.table.situations))
        wrong = -1
        if self.backend == "numpy":
            if dense:
                wrong = vector.checked(inputs, mapping.size, agents.situations)
            if wrong < 0:
                vector.run(self.table, agents, work, timing, self.buffers)
        elif dense:  # the compiled check and pass in one call: the common frame
            choices = _plain(inputs)
            outputs = self.buffers.as_tuple(agents.capacity)
            program = (self.table.table, self.table.info, self.table.entries, self.table.delays)
            wrong = _kernel().given((choices, mapping), timing, self._arrays(), program, outputs)
            if wrong < 0 and self.buffers.status[CODE]:  # go on from where the pass stopped
                self._compiled((ids, choices, -1, mapping), timing)
        else:
            self._compiled(work, timing)
        if wrong >= 0:
            self.watching = False
            return int(wrong)
        self._traced_after(timing, replay, watched)
        return -1

    def given(
        self, chosen: tuple[NDArray[np.integer], Indexes, Indexes], timing: Timing, replay: Replay
    ) -> int:
        """``send_each`` of ``chosen`` (choices, the agent of each or none: one per slot,
        the input of each event) and, for a frame, the tick: every choice checked first.

        Returns -1, or the position of the first wrong choice (nothing changed then).
        """
        choices, ids, mapping = chosen
        if not ids.size:  # a choice per slot: the pass reads them in place
            return self.run((ids, choices, -1, mapping), timing, replay)
        named, inputs, wrong = vector.send(choices, ids, mapping, self.agents.situations)
        if wrong < 0:
            self.run((named, inputs, named.size, mapping), timing, replay)
        return wrong

    # -- tracing (see ChartBatch.trace) ----------------------------------------------------

    def watch(
        self,
        ids: NDArray[np.integer],
        choices: NDArray[np.integer] | None = None,
        timing: Timing | None = None,
    ) -> list[tuple[int, ChartMachine]]:
        """Each traced agent a call moves (``ids``, or those ``choices`` gives an event, or
        every agent in a tick), as a machine in its state before the pass."""
        if not self.traced:
            return _UNWATCHED
        self._traced_here = set()
        self.watching = True  # until the call's retrace
        agents = self.agents
        if timing is not None and timing[0].size:
            moving = list(self.traced)
        elif choices is not None:
            moving = [a for a in self.traced if a < choices.size and choices[a] >= 0]
        else:  # ids ascending: a search for each traced agent, not a set of every agent
            traced = np.fromiter(self.traced, np.intp, len(self.traced))
            at = np.minimum(np.searchsorted(ids, traced), max(ids.size - 1, 0))
            moving = traced[(ids.size > 0) & (ids[at] == traced)].tolist() if ids.size else []
        return [  # not those that failed already in this call (to start, say): they stay
            (agent, self._machine_now(agent, _QUIET, self.traced[agent][2]))
            for agent in sorted(moving)
            if agents.situations[agent] != 0 and agent not in self.failures
        ]

    def _traced_after(
        self, timing: Timing, replay: Replay, watched: list[tuple[int, ChartMachine]]
    ) -> None:
        """What follows a pass, then the trace of the agents ``watched``."""
        try:
            self._after(timing, replay)
        finally:
            self.watching = False
        self.retrace(watched, replay)

    def retrace(self, watched: list[tuple[int, ChartMachine]], replay: Replay) -> None:
        """Replay the call on each watched agent's machine, traced, its host actions not
        performed: the lines its own ``ChartMachine`` would write."""
        for agent, machine in watched:
            traced = self.traced.get(agent)  # a handler may have stopped it meanwhile
            if traced is None or agent in self._traced_here:  # or it was traced replayed
                continue
            _traced(machine, traced)
            with contextlib.suppress(TransitionLoopError):  # traced up to the loop
                replay(machine, agent)

    def _after(self, timing: Timing, replay: Replay) -> None:
        """After a tick's pass the clocks move on; then the calls and the rest."""
        ends = timing[0]
        before = None
        if ends.size:
            before = self.agents.clocks
            self.agents.clocks = ends
        self.finish(replay, before)

    def _arrays(self) -> tuple[Any, ...]:
        agents = self.agents
        return (agents.situations, agents.epochs, agents.clocks, agents.due, agents.order)

    def _compiled(self, work: Work, timing: Timing) -> None:
        """Run the compiled pass until done, deriving entries and growing buffers it asks
        for (it stops before the agent concerned, and goes on from there)."""
        table, buffers = self.table, self.buffers
        status = buffers.status
        work = (_plain(work[0]), _plain(work[1]), work[2], work[3])
        while True:
            program = (table.table, table.info, table.entries, table.delays)
            _kernel().run(
                work, timing, self._arrays(), program, buffers.as_tuple(self.agents.capacity)
            )
            code = status[CODE]
            if code == 0:  # done
                return
            if code == 1:  # an entry is missing
                table.entry(int(status[MISSING_S]), int(status[MISSING_X]))
                self.agents.widen(len(table.situations))
            else:
                buffers.grow()

    # -- after a pass ----------------------------------------------------------------------

    def finish(self, replay: Replay, clocks_before: Floats | None, *, undo: bool = True) -> None:
        """Make the pass's host calls, replay diverted agents, note failures; when a
        handler raises, put agents back (see :meth:`_undo`) unless ``undo`` is false (the
        caller puts the whole batch back)."""
        status = self.buffers.status
        if status[NREC]:
            try:
                self._calls()
            except BaseException:
                if undo:
                    self._undo(clocks_before)
                raise
            finally:
                self.calling = None
        if status[NFAIL]:
            self._failed(replay, clocks_before)
        if self.diverts:
            diverts, self.diverts = self.diverts, {}
            waiting = sorted(diverts)
            for done, agent in enumerate(waiting):
                self.failures.pop(agent, None)
                try:
                    self._continue(agent, diverts[agent], replay, clocks_before)
                except BaseException:  # a handler raised: this agent and those after it
                    if undo:
                        self._restore(np.array(waiting[done:], np.intp), clocks_before)
                    raise

    def _calls(self) -> None:
        table, buffers = self.table, self.buffers
        count = int(buffers.status[NREC])
        if self.backend == "numpy":
            records = buffers.records[:count]
            buckets, agents = vector.group(records, table.entries, table.call_keys, table.ranked)
        else:
            buckets, agents = _kernel().group(
                buffers.records, count, table.entries, table.call_keys, table.ranked
            )
        keys, handlers = table.keys, self.handlers
        for number, key, start, stop in buckets:
            entities = agents[start:stop]
            if self.diverts:
                entities = entities[~np.isin(entities, list(self.diverts))]
                if not entities.size:
                    continue
            action = keys[key][1]
            self.calling = (number, key, entities)
            entities.setflags(write=False)
            handlers[action.type](BatchCall(action, entities))

    def divert(self, events: list[Event], ids: Indexes) -> None:
        """A handler sends ``events`` to the agents ``ids`` of its call (see the module).

        Raises:
            UsageError: an agent is not one of the call's.
        """
        if self.continuing is not None:
            agent, machine = self.continuing
            if ids.tolist() != [agent]:
                raise UsageError(_NOT_THEIRS)
            for event in events:
                machine.send(event)
            return
        if self.calling is None or not self.processing:
            raise UsageError(
                "send() called while the batch exits states outside a processing (despawn, "
                "reload or a received configuration), or not from one of its handlers; "
                "send after this call returns"
            )
        number, key, entities = self.calling
        where = np.minimum(np.searchsorted(entities, ids), entities.size - 1)
        if not np.array_equal(entities[where], ids):
            raise UsageError(_NOT_THEIRS)
        for agent in ids.tolist():
            divert = self.diverts.get(agent)
            if divert is None:
                divert = self.diverts[agent] = _Divert(self._made(agent, number, key))
            divert.sent.extend(events)

    def _made(self, agent: int, number: int, key: int) -> int:
        """How many host calls ``agent`` has made in this pass, the one of processing
        ``number`` and call key ``key`` too."""
        table = self.table
        records = self.buffers.record_rows
        mine = records[(records[:, 0] == agent) & (records[:, 1] <= number)]
        made = int(table.entries[mine[:-1, 2], NCALLS].sum())
        start = int(table.entries[mine[-1, 2], CALLS])
        listed = table.call_keys[start : start + int(table.entries[mine[-1, 2], NCALLS])]
        return made + int(listed.tolist().index(key)) + 1

    # -- agents taken out ------------------------------------------------------------------

    def machine_of(
        self, agent: int, handlers: Mapping[str, Any], clocks_before: Any, sink: Sink = None
    ) -> ChartMachine:
        """Agent ``agent`` as it was before the pass, as a ``ChartMachine`` (whose trace
        lines, once traced, go to ``sink``)."""
        row = int(np.searchsorted(self.buffers.undo_rows[:, 0], agent))
        situation_id, epoch = (int(v) for v in self.buffers.undo[row, 1:3])
        clocks = self.agents.clocks if clocks_before is None else clocks_before
        state = (self.buffers.undo_due[row], self.buffers.undo_order[row], float(clocks[epoch]))
        return self._machine(self.undo_table, situation_id, state, agent, (handlers, sink))

    def _machine_now(self, agent: int, handlers: Mapping[str, Any], sink: Sink) -> ChartMachine:
        """Agent ``agent`` as it is now, as a ``ChartMachine``."""
        agents = self.agents
        state = (agents.due[:, agent], agents.order[:, agent], float(agents.clock(agent)))
        situation = int(agents.situations[agent])
        return self._machine(self.table, situation, state, agent, (handlers, sink))

    def _machine(
        self,
        table: Table,
        situation_id: int,
        rows: tuple[Floats, NDArray[np.int64], float],
        agent: int,
        calls: tuple[Mapping[str, Any], Sink],
    ) -> ChartMachine:
        """A machine of ``table``'s chart in situation ``situation_id``, with agent
        ``agent``'s extra levels, its timer ``rows`` (deadlines, start orders, clock), and
        ``calls``: its handlers and trace sink."""
        due, order, clock = rows
        handlers, sink = calls
        layout = table.layout
        situation = table.situation(situation_id)
        extra = frozenset(e for e, flags in self.agents.extra.items() if flags[agent])
        timers = []
        for key in layout.keys:
            if key.owner in situation.active and not math.isnan(float(due[key.row])):
                rank = int(order[key.row]) if order.size else 0
                timers.append(
                    RunningTimer(key.name, layout.paths[key.owner], float(due[key.row]), rank)
                )
        machine = ChartMachine(layout.compiled, handlers, trace_sink=sink)
        machine.machine.max_transitions = self.table.bound
        place(machine, Situation(situation.active, situation.history, situation.held | extra))
        place_timers(machine, timers)
        machine._runtime.clock = clock
        return machine

    def _continue(self, agent: int, divert: _Divert, replay: Replay, before: Any) -> None:
        """Replay a diverted agent on its machine, then put it back."""
        made = [0]

        def wrapped(call: ActionCall) -> None:
            made[0] += 1
            if made[0] <= divert.made:
                if made[0] == divert.made:
                    for event in divert.sent:
                        _latch(machine, event, agent)
                return
            single = np.array([agent], np.intp)
            single.setflags(write=False)
            self.handlers[call.type](BatchCall(call, single))

        names = dict.fromkeys(self.handlers, wrapped)
        traced = self.traced.get(agent) if self.watching else None
        machine = self.machine_of(agent, names, before, None if traced is None else traced[2])
        if traced is not None:  # its trace comes from this replay, with what was sent
            _traced(machine, traced)
            self._traced_here.add(agent)
        self.continuing = (agent, machine)
        try:
            replay(machine, agent)
        except TransitionLoopError as error:
            self.failures[agent] = Failure.of(error)
            if machine._compiled is not self.table.layout.compiled:
                return  # a reload that loops puts it back on the old chart: undone whole
        finally:
            self.continuing = None
        self.put_back(agent, machine)

    def put_back(self, agent: int, machine: ChartMachine) -> None:
        """Write ``machine``'s situation, timers and clock as agent ``agent``'s."""
        table, agents = self.table, self.agents
        situation = situation_of(machine)
        levels = frozenset(table.layout.levels)
        number = table.id_of(
            Situation(situation.active, situation.history, situation.held & levels)
        )
        agents.widen(len(table.situations))
        agents.situations[agent] = number
        agents.due[:, agent] = np.nan
        layout = table.layout
        for order, timer in enumerate(running_timers(machine), 1):
            key = layout.key(layout.numbers[timer.state], timer.name)
            assert key is not None
            agents.due[key.row, agent] = timer.due
            if agents.order.shape[0]:
                agents.order[key.row, agent] = order
        if float(agents.clock(agent)) != machine.clock:
            agents.set_clocks(np.array([agent]), np.array([machine.clock]))

    def _failed(self, replay: Replay, clocks_before: Floats | None) -> None:
        """Note the pass's failures: the cycle of a processing's entry or, for an agent that
        fired too many timers, the cycle its machine names when replayed from its clock
        before the call; and their clocks."""
        buffers = self.buffers
        count = int(buffers.status[NFAIL])
        for n, (agent, entry) in enumerate(buffers.fails[:count].tolist()):
            if entry >= 0:
                failure = self.table.failures[int(self.table.entries[entry, FAIL])]
                self.failures.setdefault(agent, failure)
            else:
                self.failures.setdefault(agent, self._timer_loop(agent, replay, clocks_before))
            clock = float(buffers.fail_clock[n])
            if float(self.agents.clock(agent)) != clock:
                self.agents.set_clocks(np.array([agent]), np.array([clock]))

    def _timer_loop(self, agent: int, replay: Replay, clocks_before: Floats | None) -> Failure:
        machine = self.machine_of(agent, _QUIET, clocks_before)
        try:
            replay(machine, agent)
        except TransitionLoopError as error:
            return Failure.of(error)
        raise AssertionError("the agent's machine fired its timers without looping")

    def _undo(self, clocks_before: Floats | None) -> None:
        """A handler raised: every agent whose calls were not all made, or that did not
        settle, gets back what it had before the pass."""
        undo = self.buffers.undo_rows
        if self.calling is None or not undo.size:
            return
        table = self.table
        rank = np.empty(len(table.keys), np.int64)
        rank[table.ranked] = np.arange(rank.size)
        now = (self.calling[0], rank[self.calling[1]])
        failed = self.buffers.fails[: int(self.buffers.status[NFAIL]), 0]
        late = [*self.diverts, *failed.tolist()]  # those that did not settle too
        for agent, number, entry in self.buffers.record_rows.tolist():
            start, calls = int(table.entries[entry, CALLS]), int(table.entries[entry, NCALLS])
            keys = table.call_keys[start : start + calls].tolist()
            if any((number, rank[key]) >= now for key in keys):
                late.append(agent)
        self._restore(np.unique(np.array(late, np.intp)), clocks_before)
        self.diverts = {}

    def _restore(self, ids: Indexes, clocks_before: Floats | None) -> None:
        """Give the agents ``ids`` back what they had before the pass."""
        undo = self.buffers.undo_rows
        rows = np.searchsorted(undo[:, 0], ids)
        agents = self.agents
        agents.situations[ids] = undo[rows, 1]
        agents.due[:, ids] = self.buffers.undo_due[rows].T
        agents.order[:, ids] = self.buffers.undo_order[rows].T
        clocks = agents.clocks if clocks_before is None else clocks_before
        agents.set_clocks(ids, clocks[undo[rows, 2]])


def _plain(array: NDArray[np.integer]) -> NDArray[np.integer]:
    """``array`` as a writable ``intp`` array where its values allow: numba compiles the
    pass once for each type of array it is given, a few seconds each time."""
    if array.dtype != np.intp:
        if array.dtype.kind == "u" and array.size and array.max() > np.iinfo(np.intp).max:
            return array  # the pass refuses it, as it is
        return array.astype(np.intp)
    return array if array.flags.writeable else array.copy()


@cache  # an import per call costs a dict lookup and a lock each frame
def _kernel() -> ModuleType:
    """The compiled pass (importing it imports numba: only batches that use it pay that)."""
    return import_module("statetree.chart.batch.kernel")


def _latch(machine: ChartMachine, event: Event, agent: int) -> None:
    """Send ``event`` to ``machine``, agent ``agent``'s, from its handler's place."""
    try:
        machine.send(event)
    except UsageError:  # the machine runs hooks outside a processing: a reload's exits
        raise UsageError(
            f"a handler sent {event} to agent {agent} while it exits states outside a "
            "processing (a reload's exits), where its machine takes no event; send it after "
            "this call returns"
        ) from None


_UNWATCHED: list[tuple[int, ChartMachine]] = []  # never appended to
Sink = Callable[[str], None] | None
"""Where trace lines go (``None``: the ``"statetree"`` logger)."""
Traced = tuple[str, TraceLevel, Sink]


def trace_options(level: object, sink: object) -> TraceLevel:
    """``level`` as a trace level, ``sink`` checked to be callable (or ``None``): what a
    batch's (or a sharded batch's) ``trace`` takes.

    Raises:
        UsageError: ``level`` is no trace level or ``sink`` is not callable.
    """
    if sink is not None:
        require_callable(sink, "sink")
    return trace_level(level)


"""How an agent is traced: its name in the lines, the level, the sink."""


def _traced(machine: ChartMachine, traced: Traced) -> None:
    """Trace ``machine`` from now on (placed untraced, with the sink of ``traced``)."""
    machine.machine.set_debug_info(traced[0], traced[1])


def _nothing(call: ActionCall) -> None:
    """A host action replayed only to learn a cycle or a trace: not performed."""


_QUIET = Noting(_nothing)
"""Handlers that perform nothing, for any chart (a reload's new one too)."""


_NO_TICK: Timing = (np.zeros(0, np.float64), 1, 0)
_NOT_THEIRS = (
    "a handler may only send() to the agents of its own call while the batch processes; "
    "keep other events and send them after this call returns"
)
