"""The batch engine: processings of many agents, pass by pass, as array operations.

Each agent of a working set runs its own processing, exactly as a ``ChartMachine`` would:
in every pass it either applies one move (the first change, outermost first) or has
settled. Agents that settle leave the working set (or, in a tick, start the processing of
their next timer), so every pass only touches agents still moving. Within a pass the exits
of all agents happen first, in descending state number (innermost first, later regions
first), then the entries in ascending number: for each agent that is the order a
``ChartMachine`` exits and enters, and each action runs once for all agents performing it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from statetree.chart.actions import ActionCall
from statetree.chart.batch.actions import BatchCall, BatchHandler
from statetree.chart.batch.arrays import Indexes, Moves, np, read_only
from statetree.chart.batch.choose import choose
from statetree.chart.batch.errors import Failure
from statetree.chart.batch.plan import Plan
from statetree.chart.batch.store import Store
from statetree.chart.batch.work import Work
from statetree.core.loops import KEPT_CHANGES, find_cycle
from statetree.errors import UsageError

if TYPE_CHECKING:
    from statetree.chart.batch.recall import Recall

__all__ = ["Engine", "Skip"]

_SETTLED, _FAILED = -1, -2


@dataclass(eq=False)
class Skip:
    """An agent processed again from the start: its host calls up to the ``left``-th are
    already made (not made again), and during that call its handler sent ``edges``."""

    left: int
    edges: list[int] = field(default_factory=list)


class Engine:
    """Runs processings of a batch's agents on its :class:`Store`.

    Attributes:
        plan: the chart's tables.
        store: the agents' arrays.
        handlers: the host handler of each host action slot.
        bound: the most changes one processing may make.
        failures: why each agent that hit ``bound`` during the current call failed
            (reported, then cleared, by the batch).
        recall: processes by recall when the chart's cases fit a key (``None``: passes
            only, as in a rehearsal).
        skips: agents processed again, by agent (see :class:`Skip`).
    """

    def __init__(
        self, plan: Plan, store: Store, handlers: Sequence[BatchHandler], bound: int
    ) -> None:
        self.plan = plan
        self.store = store
        self.handlers = list(handlers)
        self.bound = bound
        self.sequence = 0
        self.failures: dict[int, Failure] = {}
        self.recent: dict[int, list[str]] = {}
        self.calling: tuple[Work, Indexes, Indexes] | None = None
        self.processing = False
        self.recall: Recall | None = None
        self.skips: dict[int, Skip] = {}

    # -- what performers call --------------------------------------------------------------

    def call_host(self, slot: int, call: ActionCall, work: Work, positions: Indexes) -> None:
        """Call the handler of ``slot`` once, with every agent at ``positions``."""
        if self.skips:
            positions = self.skip(work, positions)
            if positions.size == 0:
                return
        entities = read_only(work.ids[positions])
        outer, self.calling = self.calling, (work, positions, entities)
        try:
            self.handlers[slot](BatchCall(call, entities))
        finally:
            self.calling = outer

    def skip(self, work: Work, positions: Indexes) -> Indexes:
        """The positions whose host call is made now; agents still skipping count it, and
        at their last skipped call the events their handler sent are latched."""
        made = []
        for position in positions.tolist():
            agent = int(work.ids[position])
            skip = self.skips.get(agent)
            if skip is None:
                made.append(position)
                continue
            skip.left -= 1
            if skip.left == 0:
                del self.skips[agent]
                for edge in skip.edges:
                    work.serial[position] += 1
                    if edge >= 0:
                        work.latched[edge, position] = work.serial[position]
        return np.asarray(made, np.intp)

    def next_sequence(self) -> int:
        """A number larger than any handed out before."""
        self.sequence += 1
        return self.sequence

    # -- processings -----------------------------------------------------------------------

    def process(self, ids: Indexes, edge: int | Indexes | None) -> None:
        """One processing for each agent ``ids`` (ascending): latch the event of ``edge``
        (a latch row, -1 for an event no trigger counts, one per agent, or ``None`` for
        none), then settle; by recall where it can, else in passes."""
        if ids.size == 0:
            return
        recall = self.recall
        memo = None if recall is None else recall.ready()
        if recall is None or memo is None:
            self.passes(ids, edge)
            return
        # No processing context: handlers called by recall latch through it, and the agents
        # it hands back to the pass engine are processed in one.
        recall.process(memo, ids, edge)

    def passes(self, ids: Indexes, edge: int | Indexes | None) -> None:
        """:meth:`process`, in passes: each agent applies one change per pass."""
        if ids.size == 0:
            return
        work = self.store.gather(ids, self.plan)
        with self.processings():
            self.begin_all(work, edge)
            self.settle(work)

    def processings(self) -> _Processing:
        """The context in which processings run: handlers may latch events only then."""
        return _Processing(self)

    def begin_all(self, work: Work, edge: int | Indexes | None) -> None:
        """:meth:`begin` for every agent of a working set just gathered (its processing
        arrays are clear)."""
        if edge is not None:
            work.serial[:] = 1
            if isinstance(edge, int):
                if edge >= 0:
                    work.latched[edge] = 1
            else:
                counted = (edge >= 0).nonzero()[0]
                work.latched[edge[counted], counted] = 1
        self.forget(work.ids)
        self.enter_roots(work, (~work.active[0]).nonzero()[0])

    def forget(self, agents: Indexes) -> None:
        """Forget the last changes remembered of ``agents`` (a new processing starts)."""
        if self.recent:
            for agent in agents.tolist():
                self.recent.pop(agent, None)

    def enter_roots(self, work: Work, empty: Indexes) -> None:
        """Enter the root for the agents at ``empty``, which have no active state."""
        if empty.size:
            self.enter(work, 0, empty)

    def settle(self, work: Work) -> None:
        """Apply passes until every agent of ``work`` has settled (or failed).

        Finished agents stay in the working set (choosing nothing) until they are the
        majority: then they are written back and dropped, so a pass costs in proportion to
        the agents still moving, without compacting after every pass.
        """
        done = np.zeros(work.k, np.bool_)
        while True:
            moves = choose(self.plan.choosers, work)
            moves[done] = _SETTLED
            moves = self.count(work, moves)
            done |= moves < 0
            finished = int(np.count_nonzero(done))
            if finished == work.k:
                self.store.scatter(work, done)
                return
            if 2 * finished > work.k:
                self.store.scatter(work, done)
                kept = ~done
                work, moves, done = work.take(kept), moves[kept], done[kept]
            self.apply(work, moves)

    def count(self, work: Work, moves: Moves) -> Moves:
        """Count each agent's change; an agent past the bound fails instead (its move -2)."""
        moving = moves >= 0
        work.changes[moving] += 1
        watched = moving & (work.changes > self.bound - KEPT_CHANGES)
        if watched.any():
            self.watch(work, moves, watched.nonzero()[0])
        return moves

    def watch(self, work: Work, moves: Moves, positions: Indexes) -> None:
        """Remember the last changes of agents near the bound; fail those past it."""
        for position in positions.tolist():
            agent = int(work.ids[position])
            recent = self.recent.setdefault(agent, [])
            recent.append(self.plan.target_paths[moves[position]])
            if work.changes[position] > self.bound:
                self.failures.setdefault(agent, Failure(tuple(find_cycle(recent))))
                moves[position] = _FAILED

    # -- changes ---------------------------------------------------------------------------

    def apply(self, work: Work, moves: Moves) -> None:
        """Apply each agent's move: every exit (descending), then every entry (ascending)."""
        plan = self.plan
        chosen = np.where(moves >= 0, moves, plan.still)
        numbers = plan.tree.numbers
        inside = (numbers >= plan.low[chosen]) & (numbers < plan.high[chosen])
        leaving = work.active & inside
        for state in np.any(leaving, axis=1).nonzero()[0][::-1].tolist():
            self.exit(work, state, leaving[state].nonzero()[0])
        work.active &= ~inside
        entering = plan.enters.take(chosen, axis=1) & ~work.active
        for state in np.any(entering, axis=1).nonzero()[0].tolist():
            self.enter(work, state, entering[state].nonzero()[0])

    def enter(self, work: Work, state: int, positions: Indexes) -> None:
        """Enter ``state`` for the agents at ``positions`` (``ChartState.on_enter``)."""
        tree = self.plan.tree
        work.active[state, positions] = True
        work.entry[state, positions] = work.serial[positions]
        parent = tree.parent[state]
        if parent >= 0:
            work.history[tree.history_row[parent], positions] = tree.index[state]
        for perform in self.plan.enter_actions[state]:
            perform(self, work, positions)

    def exit(self, work: Work, state: int, positions: Indexes) -> None:
        """Exit ``state`` for the agents at ``positions``: its actions, then its timers die.

        The caller clears ``active``."""
        for perform in self.plan.exit_actions[state]:
            perform(self, work, positions)
        for row in self.plan.kill_rows[state]:
            work.due[row, positions] = np.nan

    def exit_all(self, work: Work, order: Iterable[int]) -> None:
        """Exit, in ``order``, each of those states that is active, for every agent."""
        for state in order:
            positions = work.active[state].nonzero()[0]
            if positions.size:
                self.exit(work, state, positions)
                work.active[state, positions] = False

    # -- events from handlers --------------------------------------------------------------

    def latch_in_call(self, edges: int | Indexes, ids: Indexes) -> None:
        """Latch events for agents of the handler call in progress (a handler's ``send``).

        Args:
            edges: the latch row of the event (-1: none counts it), or one per agent.

        Raises:
            UsageError: no handler is running in a processing, or an agent is not one of
                its call.
        """
        if self.recall is not None and self.recall.calling is not None:
            self.recall.latch(edges, ids)
            return
        if self.calling is None or not self.processing:
            raise UsageError(
                "send() called while the batch exits states outside a processing (despawn "
                "or reload), or not from one of its handlers; send after this call returns"
            )
        work, positions, entities = self.calling
        where = np.minimum(np.searchsorted(entities, ids), entities.size - 1)
        if not np.array_equal(entities[where], ids):
            raise UsageError(
                "a handler may only send() to the agents of its own call while the batch "
                "processes; keep other events and send them after this call returns"
            )
        chosen = positions[where]
        work.serial[chosen] += 1
        edges = np.broadcast_to(edges, chosen.shape)
        counted = edges >= 0
        work.latched[edges[counted], chosen[counted]] = work.serial[chosen[counted]]


class _Processing:
    """Marks an engine as processing while it lasts (see :meth:`Engine.processings`)."""

    __slots__ = ("engine", "outer")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.outer = engine.processing

    def __enter__(self) -> None:
        self.engine.processing = True

    def __exit__(self, *exc: object) -> None:
        self.engine.processing = self.outer
