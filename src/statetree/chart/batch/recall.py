"""Processings by recall: each agent takes the remembered ending of its case.

A call's agents are keyed (:class:`~statetree.chart.batch.memo.Keys`); cases not seen before
are processed once, on one agent each, by the pass engine in a rehearsal that notes its host
calls instead of making them (:func:`learn`). Each call is noted with its *moment*: the pass
the engine makes it in and its rank in a pass. Then the host calls of every agent are made,
moment by moment, each action once for all agents making it at that moment: the calls the
pass engine would have made, grouped as it groups them. Last, every agent takes its case's
ending: active states, histories, timers, failure.

A handler may send an event to agents of its call, which changes their processing from that
point: those agents leave the recall, and the pass engine processes them again from the
start, their host calls up to that one skipped and the event latched right there (see
:class:`~statetree.chart.batch.engine.Skip`), exactly as if it had run them all along.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Protocol

from statetree.chart.actions import ActionCall
from statetree.chart.batch.actions import BatchCall
from statetree.chart.batch.arrays import Bools, Indexes, NDArray, np, read_only
from statetree.chart.batch.engine import Engine, Skip
from statetree.chart.batch.errors import Failure
from statetree.chart.batch.memo import Ending, Keys, Memo, Trace
from statetree.chart.batch.store import Store
from statetree.chart.batch.work import Work
from statetree.errors import UsageError

__all__ = ["Recall"]

SMALL = 256
"""Up to this many agents, cases are told apart by a dict and host calls grouped by a loop
over the agents, rather than by sorting."""


class _Calling:
    """The host call being made: its moment, its agents, and the events they were sent
    (a plain class: made for every host call)."""

    __slots__ = ("entities", "moment", "sent")

    def __init__(self, moment: int, entities: Indexes) -> None:
        self.moment = moment
        self.entities = entities
        self.sent: dict[int, Skip] = {}


@dataclass(eq=False)
class _Replay:
    """The agents being replayed, the entry of each, and the entries' calls."""

    ids: Indexes
    of_agent: Indexes
    traces: list[Trace]

    def made(self, agent: int, moment: int) -> int:
        """How many host calls ``agent`` has made, counting the one at ``moment``."""
        entry = int(self.of_agent[np.searchsorted(self.ids, agent)])
        return 1 + [at for at, _ in self.traces[entry]].index(moment)


class Recall:
    """Processes agents of ``engine`` by recall (see the module documentation)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.memo: Memo | None = None
        self.calling: _Calling | None = None
        self.replaying: _Replay | None = None

    def ready(self) -> Memo | None:
        """The memo of the engine's current plan (``None``: its cases do not fit a key)."""
        engine = self.engine
        memo = self.memo
        if memo is None or memo.plan is not engine.plan:
            keys = Keys.of(engine.plan, engine.store)
            memo = self.memo = None if keys is None else Memo(engine.plan, keys)
        return memo

    def process(self, memo: Memo, ids: Indexes, edge: int | Indexes | None) -> None:
        """One processing for each agent ``ids`` (ascending) of event ``edge``."""
        engine = self.engine
        levels = engine.store.level_rows(engine.plan)
        keys = memo.keys.of_agents(engine.store, ids, levels, edge)
        if keys.size > SMALL:
            # Many agents whose cases are all known: looked up, with no sort of the agents.
            of_agent = memo.lookup(keys)
            if of_agent is None:
                of_agent = self.entries(memo, keys, ids, edge)
            known: list[int] = np.bincount(of_agent).nonzero()[0].tolist()
            entries: _Entries = _Groups(of_agent, known)
            distinct: Collection[int] = known
        else:
            # Few agents: each looked up by dict and grouped by a loop, cheaper than sorting.
            found = list(map(memo.index.get, keys.tolist(), repeat(-1)))
            if -1 in found:
                of_agent = self.entries(memo, keys, ids, edge)
                found = of_agent.tolist()
            else:
                of_agent = np.array(found, np.intp)
            entries = _Agents(found, memo.calling()[of_agent].nonzero()[0])
            distinct = entries.distinct
        table = memo.table
        assert table is not None
        every = ids
        sent = self.replay(memo, _Replay(ids, of_agent, table.calls), entries)
        if sent:
            kept = np.ones(ids.size, np.bool_)
            kept[np.searchsorted(ids, np.fromiter(sent, np.intp))] = False
            ids, of_agent = ids[kept], of_agent[kept]
        end(engine, table, ids, of_agent)
        if any(map(table.timed.__getitem__, distinct)):
            end_timers(engine, table, ids, of_agent)
        if any(map(table.failures.__getitem__, distinct)):  # a Failure is never falsy
            _failures(engine, table, ids, of_agent)
        if sent:
            self.again(every, edge, sent)

    def entries(
        self, memo: Memo, keys: NDArray[np.int64], ids: Indexes, edge: int | Indexes | None
    ) -> Indexes:
        """The memo entry of each agent's case; cases not seen before are learnt first."""
        cases, firsts, inverse = _cases(keys)
        entries = memo.entries(cases)
        missing = [number for number, entry in enumerate(entries) if entry < 0]
        if missing:
            found = learn(self.engine, memo, ids[firsts[missing]], _picked(edge, firsts[missing]))
            learnt = memo.learn([cases[n] for n in missing], found)
            for number, entry in zip(missing, learnt, strict=True):
                entries[number] = entry
        of_agent: Indexes = np.asarray(entries, np.intp)[inverse]
        return of_agent

    def replay(self, memo: Memo, replay: _Replay, entries: _Entries) -> dict[int, Skip]:
        """Make every agent's host calls, moment by moment; return the agents sent events."""
        calls = entries.calls(replay.traces, replay.ids)
        sent: dict[int, Skip] = {}
        if not calls:
            return sent
        self.replaying, outer = replay, self.replaying
        try:
            for moment, number, making in calls:
                # Agents sent events left the recall.
                agents = making[~np.isin(making, list(sent))] if sent else making
                if agents.size:
                    calling = _Calling(moment, read_only(agents))
                    self.call(memo, number, calling)
                    if calling.sent:
                        sent.update(calling.sent)
        finally:
            self.replaying = outer
        return sent

    def call(self, memo: Memo, number: int, calling: _Calling) -> None:
        """Make host call ``number`` for the agents of ``calling`` (handlers' sends go to
        it)."""
        slot, action = memo.calls[number]
        outer, self.calling = self.calling, calling
        try:
            self.engine.handlers[slot](BatchCall(action, calling.entities))
        finally:
            self.calling = outer

    def latch(self, edges: int | Indexes, ids: Indexes) -> None:
        """A handler sends to agents of its call: they leave the recall (see the module).

        Raises:
            UsageError: an agent is not one of the call's.
        """
        calling, replay = self.calling, self.replaying
        assert calling is not None and replay is not None
        entities = calling.entities
        where = np.minimum(np.searchsorted(entities, ids), entities.size - 1)
        if not np.array_equal(entities[where], ids):
            raise UsageError(
                "a handler may only send() to the agents of its own call while the batch "
                "processes; keep other events and send them after this call returns"
            )
        sent = np.broadcast_to(edges, ids.shape).tolist()
        for agent, edge in zip(ids.tolist(), sent, strict=True):
            skip = calling.sent.get(agent)
            if skip is None:
                skip = calling.sent[agent] = Skip(replay.made(agent, calling.moment))
            skip.edges.append(edge)

    def again(self, ids: Indexes, edge: int | Indexes | None, sent: dict[int, Skip]) -> None:
        """Process the agents sent events by the pass engine, from the start."""
        agents = np.fromiter(sorted(sent), np.intp)
        engine = self.engine
        engine.skips.update(sent)
        try:
            engine.passes(agents, _picked(edge, np.searchsorted(ids, agents)))
        finally:
            engine.skips.clear()


class _Entries(Protocol):
    """The agents of a processing, grouped by memo entry."""

    def calls(self, traces: list[Trace], ids: Indexes) -> list[tuple[int, int, Indexes]]:
        """Each host call of the agents ``ids`` as (moment, call number, the agents making
        it, ascending), by moment then number: the order of the passes."""
        ...


class _Groups:
    """The positions of the agents of each entry, ascending (found by sorting, when some
    agent makes a host call)."""

    def __init__(self, of_agent: Indexes, entries: list[int]) -> None:
        self.of_agent = of_agent
        self.entries = entries
        self.size = entries[-1] + 1 if entries else 0
        self.order: Indexes = of_agent
        self.bounds: dict[int, tuple[int, int]] = {}

    def sort(self) -> None:
        """Find the positions of each entry's agents."""
        of_agent, entries = self.of_agent, self.entries
        if len(entries) == 1:
            self.order = np.arange(of_agent.size)
            self.bounds = {entries[0]: (0, of_agent.size)}
            return
        # Entries fit 16 bits (see memo.LIMIT), which NumPy sorts stably by radix.
        self.order = np.argsort(of_agent.astype(np.int16), kind="stable")
        cuts = np.searchsorted(of_agent[self.order], [*entries, entries[-1] + 1]).tolist()
        self.bounds = {e: (cuts[n], cuts[n + 1]) for n, e in enumerate(entries)}

    def calls(self, traces: list[Trace], ids: Indexes) -> list[tuple[int, int, Indexes]]:
        moments: dict[int, dict[int, list[int]]] = {}
        for entry in self.entries:
            for moment, number in traces[entry]:
                moments.setdefault(moment, {}).setdefault(number, []).append(entry)
        if not moments:
            return []
        self.sort()
        return [
            (moment, number, ids[self.of(users)])
            for moment in sorted(moments)
            for number, users in sorted(moments[moment].items())
        ]

    def of(self, entries: list[int]) -> Indexes:
        """The positions of the agents of ``entries``, ascending."""
        if len(entries) == 1:
            start, stop = self.bounds[entries[0]]
            return self.order[start:stop]
        chosen = np.zeros(self.size, np.bool_)  # a mask of entries: no sort of the parts
        chosen[entries] = True
        return chosen[self.of_agent].nonzero()[0]


class _Agents:
    """The entry of each of a few agents (a list), grouped by a loop over the agents that
    make host calls (``calling``)."""

    def __init__(self, of_agent: list[int], calling: Indexes) -> None:
        self.of_agent = of_agent
        self.calling = calling
        self.distinct = set(of_agent)

    def calls(self, traces: list[Trace], ids: Indexes) -> list[tuple[int, int, Indexes]]:
        if not self.calling.size:
            return []
        making: dict[tuple[int, int], list[int]] = {}
        of_agent = self.of_agent
        for position in self.calling.tolist():
            for call in traces[of_agent[position]]:
                making.setdefault(call, []).append(position)
        return [(moment, number, ids[making[moment, number]]) for moment, number in sorted(making)]


def _cases(keys: NDArray[np.int64]) -> tuple[list[int], Indexes, Indexes]:
    """The distinct keys, the first agent of each, and each agent's case number."""
    if keys.size > SMALL:
        distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        cases: list[int] = distinct.tolist()
        return cases, first, inverse
    # Dicts built from iterators: no Python-level loop over the agents. Filled from the
    # last agent back, each key keeps its first agent.
    found = keys.tolist()
    count = len(found)
    firsts = dict(zip(reversed(found), range(count - 1, -1, -1), strict=True))
    cases = list(firsts)
    numbers = dict(zip(cases, range(len(cases)), strict=True))
    inverse_of = np.fromiter(map(numbers.__getitem__, found), np.intp, count)
    return cases, np.fromiter(firsts.values(), np.intp, len(cases)), inverse_of


def _picked(edge: int | Indexes | None, positions: Indexes) -> int | Indexes | None:
    return edge[positions] if isinstance(edge, np.ndarray) else edge


def learn(engine: Engine, memo: Memo, ids: Indexes, edge: int | Indexes | None) -> Ending:
    """Process agents ``ids`` (one of each new case) in a rehearsal that notes its host
    calls instead of making them, the batch's own arrays untouched; return how each ended."""
    store, plan = engine.store, engine.plan
    count = ids.size
    copy = Store(plan, count, store.held_events)
    copy.spawn(count)
    copy.active[:, :count] = store.active[:, ids]
    copy.history[:, :count] = store.history[:, ids]
    copy.held[:, :count] = store.held[:, ids]
    copy.due[:] = -1.0  # at clock 0, a row started reads its delay, one killed NaN
    rehearsal = _Rehearsal(memo, copy, engine.bound)
    rehearsal.passes(np.arange(count), edge)
    return _ending(copy, rehearsal)


class _Rehearsal(Engine):
    """The pass engine, noting each host call with its moment instead of making it.

    A call's moment is where the pass engine makes it: the pass (the agent's change count)
    and the call's rank in a pass, so calls of different agents at equal moments are made
    together, as the pass engine makes them.
    """

    def __init__(self, memo: Memo, store: Store, bound: int) -> None:
        super().__init__(memo.plan, store, [], bound)
        self.memo = memo
        self.traces: list[list[tuple[int, int]]] = [[] for _ in range(store.size)]
        self.ranks = len(memo.plan.order) + 1

    def call_host(self, slot: int, call: ActionCall, work: Work, positions: Indexes) -> None:
        number = self.memo.call_number(slot, call)
        rank = self.memo.plan.order[id(call)]
        agents = work.ids[positions].tolist()
        for agent, changes in zip(agents, work.changes[positions].tolist(), strict=True):
            self.traces[agent].append((changes * self.ranks + rank, number))


def _ending(copy: Store, rehearsal: _Rehearsal) -> Ending:
    count = copy.size
    due = copy.due[:, :count]
    kept: Bools = due < 0  # NaN compares false: killed
    untouched: list[bool] = np.all(kept, axis=0).tolist()
    ranks = copy.sequence[:, :count] if copy.sequence.size else np.zeros((0, count), np.int64)
    failures: list[Failure | None] = [rehearsal.failures.get(agent) for agent in range(count)]
    return Ending(
        copy.active[:, :count].copy(),
        copy.history[:, :count].copy(),
        kept,
        np.where(kept, 0.0, due),
        ranks.copy(),
        [tuple(trace) for trace in rehearsal.traces],
        failures,
        [not every for every in untouched],
    )


def end(engine: Engine, table: Ending, ids: Indexes, of_agent: Indexes) -> None:
    """Give each agent ``ids`` the ending of its entry ``of_agent``: active states,
    histories and timers."""
    store = engine.store
    _put(store.active, ids, table.active, of_agent)
    if store.history.shape[0]:
        _put(store.history, ids, table.history, of_agent)


def end_timers(engine: Engine, table: Ending, ids: Indexes, of_agent: Indexes) -> None:
    """Start and kill the timers of each agent ``ids`` as its entry ``of_agent`` did."""
    store = engine.store
    clock = store.clock[ids]
    for row in range(store.due.shape[0]):  # row by row: NumPy's fastest on few rows
        due = store.due[row]
        started = clock + table.delays[row][of_agent]
        np.copyto(started, due[ids], where=table.kept[row][of_agent])
        due[ids] = started
    if store.sequence.size:
        ranks = table.ranks.take(of_agent, axis=1)
        old = store.sequence.take(ids, axis=1)
        store.sequence[:, ids] = np.where(ranks > 0, engine.sequence + ranks, old)
        engine.sequence += int(ranks.max(initial=0))


def _put(target: NDArray[Any], ids: Indexes, table: NDArray[Any], of_agent: Indexes) -> None:
    """``target[:, ids] = table[:, of_agent]``; a single row as a row, which NumPy does
    faster."""
    if target.shape[0] == 1:
        target[0][ids] = table[0][of_agent]
    else:
        target[:, ids] = table.take(of_agent, axis=1)


def _failures(engine: Engine, table: Ending, ids: Indexes, of_agent: Indexes) -> None:
    for agent, entry in zip(ids.tolist(), of_agent.tolist(), strict=True):
        failure = table.failures[entry]
        if failure is not None:
            engine.failures.setdefault(agent, failure)
