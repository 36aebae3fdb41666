"""A chart compiled to tables: its numbering, and its behaviour by situation and input.

States are numbered as :func:`~statetree.chart.compile_chart` numbers them: depth first,
parents before children, so the states inside state ``s`` are ``s + 1`` to ``end[s] - 1``.
An *input* is what a processing starts with: 0 for no event (or an event no trigger counts),
``1 + i`` for the event of edge trigger ``i``.

A timer belongs to the state that started it and dies when that state exits, and a state
restarts a timer it already runs, so each (owner, name) pair has at most one running timer.
Pairs whose owners can never be active together share a *row* (one deadline per agent): the
seed's combo attack starts four timers in four mutually exclusive states and needs one.

Everything else that can differ between two agents of a chart is discrete (active states,
histories, held levels). So each distinct *situation* an agent can be in gets a number, and
the chart's behaviour becomes a table from (situation, input) to an *entry*: the next
situation, what each timer row does (keeps its deadline, stops, or starts a timer with some
delay), the host calls made, and whether the agent failed to settle. Entries are outcomes
of the per-agent runtime (see :mod:`~statetree.chart.batch.derive`), so a batch runs a chart
exactly as a machine does.

When a batch is built the situations reachable from a fresh agent are explored and every
entry derived (for a chart of tens of situations this takes milliseconds). A chart with more
than :data:`EAGER_SITUATIONS` of them (many regions and levels) is not explored: its
entries are derived the first time an agent meets them, and kept.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from statetree.chart.actions import ActionCall
from statetree.chart.batch.arrays import NDArray, np
from statetree.chart.batch.derive import Outcome, derive, processing, row_sources
from statetree.chart.batch.errors import Failure
from statetree.chart.compile import CompiledChart
from statetree.chart.events import Event
from statetree.chart.placement import Situation
from statetree.chart.policy import runs_regions
from statetree.chart.registry import TIMER

__all__ = [
    "CALLS",
    "EAGER_SITUATIONS",
    "FAIL",
    "NCALLS",
    "NEXT",
    "SRC",
    "TIMED",
    "Layout",
    "Table",
    "TimerKey",
    "table_of",
    "timer_pairs",
]


@dataclass(frozen=True, slots=True)
class TimerKey:
    """A timer as a batch stores it: the number of its owner state, its name, its row."""

    owner: int
    name: str
    row: int


def timer_pairs(compiled: CompiledChart) -> Iterable[tuple[int, str]]:
    """The (state number, timer name) of every timer the chart's enter actions start: those
    of the built-in actions that make timer events (a host's action makes none)."""
    declared = compiled.chart.registry.actions
    for cls in compiled.classes:
        for action in cls._definition.enter:
            if declared[action.type].makes == TIMER:
                yield cls._id, str(action.arguments["name"])


class Layout:
    """The numbering of one compiled chart (with the timers a reload carried over).

    Attributes:
        compiled: the chart.
        carried: timers that states kept by a reload still run although the chart no
            longer starts them, as (state path, timer name).
        paths: the path of each state, by number.
        parent: each state's parent (-1 for the root).
        end: one past the last state inside each state.
        levels: the level events of the chart, in bit order.
        inputs: the event of each input (``None`` for input 0).
        keys: every timer the chart can run; ``rows``: how many rows they take.
    """

    def __init__(self, compiled: CompiledChart, carried: Iterable[tuple[str, str]] = ()) -> None:
        self.compiled = compiled
        classes = compiled.classes
        self.carried = tuple(carried)
        self.paths = tuple(cls._path for cls in classes)
        self.numbers = {path: number for number, path in enumerate(self.paths)}
        self.parent = tuple(cls._parent_id for cls in classes)
        self.children: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for n, up in enumerate(self.parent) if up == number)
            for number in range(len(classes))
        )
        self.end = tuple(self._end(number) for number in range(len(classes)))
        self.levels: tuple[Event, ...] = tuple(compiled.levels)
        self.inputs: tuple[Event | None, ...] = (None, *compiled.edges)
        pairs = [*timer_pairs(compiled), *((self.numbers[p], n) for p, n in self.carried)]
        self.keys = self._rows(dict.fromkeys(pairs))
        self._keys = {(key.owner, key.name): key for key in self.keys}
        self.rows = 1 + max((key.row for key in self.keys), default=-1)
        self.ordered = self.rows > 1  # timers of one agent can run together: keep start order

    def _end(self, number: int) -> int:
        kids = self.children[number]
        return self._end(kids[-1]) if kids else number + 1

    def _rows(self, pairs: Iterable[tuple[int, str]]) -> tuple[TimerKey, ...]:
        keys: list[TimerKey] = []
        rows: dict[int, set[int]] = {}  # the rows of each owner's timers so far
        for owner, name in pairs:
            taken = set().union(
                *(used for other, used in rows.items() if self.together(other, owner))
            )
            row = next(row for row in range(len(keys) + 1) if row not in taken)
            rows.setdefault(owner, set()).add(row)
            keys.append(TimerKey(owner, name, row))
        return tuple(keys)

    def __len__(self) -> int:
        return len(self.paths)

    def ancestors(self, number: int) -> list[int]:
        """``number`` and every state outside it, innermost first."""
        chain = [number]
        while self.parent[chain[-1]] >= 0:
            chain.append(self.parent[chain[-1]])
        return chain

    def concurrent(self, number: int) -> bool:
        """Whether state ``number`` runs its children as regions."""
        return runs_regions(self.compiled.classes[number]._definition)

    def together(self, one: int, other: int) -> bool:
        """Whether states ``one`` and ``other`` can be active at the same time."""
        outer = self.ancestors(one)
        if other in outer or one in self.ancestors(other):
            return True
        meet = next(number for number in self.ancestors(other) if number in outer)
        return self.concurrent(meet)

    def input_of(self, event: Event) -> int:
        """The input of ``event`` (0 when no trigger counts it)."""
        return self.compiled.edges.get(event, -1) + 1

    def key(self, owner: int, name: str) -> TimerKey | None:
        """The key of timer ``name`` of state ``owner``, if the chart can run it."""
        return self._keys.get((owner, name))


EAGER_SITUATIONS = 4096
"""Up to this many reachable situations, every entry is derived when the table is built."""

NEXT, NCALLS, CALLS, FAIL, TIMED, SRC = 0, 1, 2, 3, 4, 5
"""Columns of an entry: the next situation, how many host calls, where they are listed,
the failure (-1: none), whether a timer row changes, then the source of each timer row,
then each row's start rank."""
STARTED, LEVELS, FIRE = 0, 1, 2
"""Columns of a situation's info: started (0/1), its level bits, each row's timer input."""
MAX_RELEVEL_LEVELS = 8
"""Up to this many levels, a situation with other levels is found by a table lookup."""


def _grown(array: NDArray[Any], rows: int, fill: object) -> NDArray[Any]:
    grown = np.full((rows, *array.shape[1:]), fill, array.dtype)
    grown[: array.shape[0]] = array
    return grown


class Table:
    """The situations and entries of one chart (for one bound on changes).

    Situation 0 is a free slot; situation 1 is an agent that has not started.

    Attributes:
        layout: the chart's numbering.
        bound: the most changes one processing may make.
        situations: each situation, by number (``None`` for 0).
        active: ``(situations, states)``: which states each situation has active.
        info: ``(situations, 2 + rows)``: :data:`STARTED`, :data:`LEVELS` and, per timer
            row, the input its timer fires (see the column names).
        table: ``(situations, inputs)``: the entry of each pair, -1 until derived.
        entries: ``(entries, 5 + 2 * rows)``: see :data:`NEXT` and the columns after it.
        delays: ``(entries, rows)``: the delay of each timer an entry starts.
        call_keys: the host calls of every entry, listed by ``entries[e, CALLS]``: each a
            *call key*, a host call at a moment of a processing.
        keys: each call key as ``(moment, the action record handlers receive)``.
        failures: each failure, by number.
        eager: every entry reachable from a fresh agent is derived.
    """

    def __init__(self, layout: Layout, bound: int) -> None:
        self.layout = layout
        self.bound = bound
        rows, levels = layout.rows, len(layout.levels)
        self.situations: list[Situation | None] = [None]
        self.ids: dict[Situation, int] = {}
        self.active = np.zeros((8, len(layout)), np.bool_)
        self.info = np.zeros((8, FIRE + rows), np.int32)
        self.table = np.full((8, len(layout.inputs)), -1, np.int32)
        width = 1 << levels if levels <= MAX_RELEVEL_LEVELS else 0
        self.relevel = np.full((8, width), -1, np.int32)
        self.entries = np.zeros((16, SRC + 2 * rows), np.int32)
        self.delays = np.zeros((16, rows), np.float64)
        self.call_keys = np.zeros(16, np.int32)
        self.count = 0  # entries in use
        self.listed = 0  # call keys in use
        self.keys: list[tuple[int, ActionCall]] = []
        self.key_ids: dict[tuple[int, int], int] = {}
        self.failures: list[Failure] = []
        self._ranked = np.zeros(0, np.int64)
        self._entry_ids: dict[tuple[Any, ...], int] = {}
        history = (0,) * len(layout)
        self.fresh = self.id_of(Situation((), history))
        self.eager = self._explore()

    # -- situations ------------------------------------------------------------------------

    def id_of(self, situation: Situation) -> int:
        """The number of ``situation`` (levels of the chart only), given one if it is new."""
        found = self.ids.get(situation)
        if found is not None:
            return found
        number = len(self.situations)
        if number == self.active.shape[0]:
            size = 2 * number
            self.active = _grown(self.active, size, False)
            self.info = _grown(self.info, size, 0)
            self.table = _grown(self.table, size, -1)
            self.relevel = _grown(self.relevel, size, -1)
        layout = self.layout
        active = set(situation.active)
        self.active[number, list(active)] = True
        row = self.info[number]
        row[STARTED] = bool(active)
        row[LEVELS] = sum(1 << n for n, e in enumerate(layout.levels) if e in situation.held)
        for key in layout.keys:
            if key.owner in active:
                row[FIRE + key.row] = layout.input_of(Event(TIMER, key.name))
        self.situations.append(situation)
        self.ids[situation] = number
        return number

    def situation(self, number: int) -> Situation:
        """Situation ``number`` (never 0)."""
        found = self.situations[number]
        assert found is not None
        return found

    def with_levels(self, number: int, bits: int) -> int:
        """Situation ``number`` with the chart's levels set to ``bits`` (bit ``n``: level
        ``n`` held)."""
        width = self.relevel.shape[1]
        if bits < width and self.relevel[number, bits] >= 0:
            return int(self.relevel[number, bits])
        situation = self.situation(number)
        levels = self.layout.levels
        held = frozenset(e for n, e in enumerate(levels) if bits >> n & 1)
        found = self.id_of(Situation(situation.active, situation.history, held))
        if bits < width:
            self.relevel[number, bits] = found
        return found

    # -- entries ---------------------------------------------------------------------------

    def entry(self, number: int, input_: int) -> int:
        """The entry of situation ``number`` and input ``input_``, derived if new."""
        found = int(self.table[number, input_])
        if found < 0:
            event = self.layout.inputs[input_]
            outcome = derive(self.layout, self.situation(number), processing(event), self.bound)
            found = self.add(outcome)
            self.table[number, input_] = found
        return found

    def add(self, outcome: Outcome, before: Layout | None = None) -> int:
        """The entry of ``outcome`` (of a situation of ``before``, this layout by default)."""
        sources, delays, ranks = row_sources(outcome, before or self.layout, self.layout)
        calls = tuple(self.call_key(moment, call) for moment, call in outcome.calls)
        fail = -1 if outcome.failure is None else self._failure(outcome.failure)
        nxt = self.id_of(outcome.situation)
        signature = (nxt, tuple(sources), tuple(ranks), tuple(delays), calls, fail)
        found = self._entry_ids.get(signature)
        if found is not None:
            return found
        found, listed = self.count, self.listed
        if found == self.entries.shape[0]:
            self.entries = _grown(self.entries, 2 * found, 0)
            self.delays = _grown(self.delays, 2 * found, 0.0)
        if listed + len(calls) > self.call_keys.size:
            self.call_keys = _grown(self.call_keys, 2 * (listed + len(calls)), 0)
        timed = before is not None or any(src != row for row, src in enumerate(sources))
        self.entries[found] = [nxt, len(calls), listed, fail, timed, *sources, *ranks]
        self.delays[found] = delays
        self.call_keys[listed : listed + len(calls)] = calls
        self.count, self.listed = found + 1, listed + len(calls)
        self._entry_ids[signature] = found
        return found

    def next_of(self, entry: int) -> int:
        """The situation entry ``entry`` leads to."""
        return int(self.entries[entry, NEXT])

    @property
    def ranked(self) -> NDArray[np.int64]:
        """The call keys in the order calls are made: by moment (then by number)."""
        if self._ranked.size != len(self.keys):
            order = sorted(range(len(self.keys)), key=lambda k: (self.keys[k][0], k))
            self._ranked = np.array(order, np.int64)
        return self._ranked

    def call_key(self, moment: int, call: ActionCall) -> int:
        """The number of host call ``call`` made at ``moment`` of a processing."""
        found = self.key_ids.get((moment, id(call)))  # records live as long as the table
        if found is None:
            found = self.key_ids[moment, id(call)] = len(self.keys)
            self.keys.append((moment, call))
        return found

    def _failure(self, failure: Failure) -> int:
        if failure not in self.failures:
            self.failures.append(failure)
        return self.failures.index(failure)

    def _explore(self) -> bool:
        """Derive every entry reachable from a fresh agent; ``False`` (and stop) past
        :data:`EAGER_SITUATIONS` situations."""
        waiting = deque([self.fresh])
        seen = {self.fresh}
        inputs = range(len(self.layout.inputs))
        flips = [1 << n for n in range(len(self.layout.levels))]
        while waiting:
            number = waiting.popleft()
            bits = int(self.info[number, LEVELS])
            if self.info[number, STARTED]:
                nexts = [self.next_of(self.entry(number, x)) for x in inputs]
                nexts += [self.with_levels(number, bits ^ flip) for flip in flips]
            else:
                nexts = [self.next_of(self.entry(number, 0))]
            for following in nexts:
                if following not in seen:
                    if len(seen) >= EAGER_SITUATIONS:
                        return False
                    seen.add(following)
                    waiting.append(following)
        return True


_TABLES: WeakKeyDictionary[CompiledChart, dict[tuple[int, tuple[tuple[str, str], ...]], Table]]
_TABLES = WeakKeyDictionary()


def table_of(compiled: CompiledChart, bound: int, carried: Sequence[tuple[str, str]] = ()) -> Table:
    """The table of ``compiled`` for ``bound`` (and the timers a reload ``carried``),
    shared by every batch running it: built once, filled as agents meet situations."""
    tables = _TABLES.setdefault(compiled, {})
    key = (bound, tuple(carried))
    table = tables.get(key)
    if table is None:
        table = tables[key] = Table(Layout(compiled, carried), bound)
    return table
