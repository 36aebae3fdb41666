"""What a batch numbers once per chart: states, inputs, levels and timer rows.

States are numbered as :func:`~statetree.chart.compile_chart` numbers them: depth first,
parents before children, so the states inside state ``s`` are ``s + 1`` to ``end[s] - 1``.
An *input* is what a processing starts with: 0 for no event (or an event no trigger counts),
``1 + i`` for the event of edge trigger ``i``.

A timer belongs to the state that started it and dies when that state exits, and a state
restarts a timer it already runs, so each (owner, name) pair has at most one running timer.
Pairs whose owners can never be active together share a *row* (one deadline per agent): the
seed's combo attack starts four timers in four mutually exclusive states and needs one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from statetree.chart.compile import CompiledChart
from statetree.chart.events import Event
from statetree.chart.policy import runs_regions
from statetree.chart.registry import TIMER

__all__ = ["Layout", "TimerKey", "timer_pairs"]


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
