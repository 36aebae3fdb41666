"""Where the batch keeps timers: one deadline row per group of timers that never coexist.

A timer is owned by the state that started it and dies when that state exits, and a state
restarts a timer it already runs, so each (owner state, timer name) pair has at most one
live timer. Pairs whose owners can never be active together share a row: the seed's combo
attack starts four timers in four mutually exclusive states and needs one float per agent.
A dead timer's deadline is NaN.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from statetree.chart.batch.arrays import Bools, Indexes, NDArray, np
from statetree.chart.batch.tree import Tree
from statetree.chart.events import Event
from statetree.chart.registry import TIMER

__all__ = ["LOOKUP_ENTRIES", "TimerKey", "TimerLayout"]

LOOKUP_ENTRIES = 1 << 18
"""The timer a row holds is looked up by the agent's active flags when the table, one entry
of 2 bytes per row and set of flags, has at most this many entries (512 KiB): up to 18
states with one timer row, 16 with four."""


@dataclass(frozen=True, slots=True)
class TimerKey:
    """A timer as the batch stores it.

    Attributes:
        owner: the number of the state owning it.
        name: the timer's name (its event is ``Event("timer", name)``).
        row: its deadline row.
        edge: the latch row of its event (-1: no trigger listens to it).
    """

    owner: int
    name: str
    row: int
    edge: int


@dataclass(frozen=True, eq=False)
class TimerLayout:
    """Every timer key of a chart and the rows they share.

    Attributes:
        keys: the keys, in order of their owners.
        rows: how many deadline rows there are.
        by_owner: the keys owned by each state (by state number).
        by_row: the keys stored in each row.
        edges: the latch row of each key's event, then -1 (for "no key").
        owner_paths: the path of each key's owner, then "".
        owners: the owner of each key.
        places: the row of each key.
        numbers: each key's number plus one.
        by_flags: ``(rows, 2 ** states)``: the key of each row whose owner is active, for
            every set of active flags (bit ``n``: state ``n``), or -1; ``None`` when that
            table would have more than ``LOOKUP_ENTRIES`` entries, or there are no timers.
    """

    keys: tuple[TimerKey, ...]
    rows: int
    by_owner: tuple[tuple[TimerKey, ...], ...]
    by_row: tuple[tuple[TimerKey, ...], ...]
    edges: Indexes
    owner_paths: tuple[str, ...]
    owners: Indexes
    places: Indexes
    numbers: Indexes
    by_flags: NDArray[np.int16] | None

    @classmethod
    def of(
        cls, tree: Tree, pairs: Iterable[tuple[int, str]], edges: Mapping[Event, int]
    ) -> TimerLayout:
        """The layout of the (owner, name) ``pairs``, rows shared where owners exclude."""
        keys: list[TimerKey] = []
        for owner, name in dict.fromkeys(pairs):
            taken = {key.row for key in keys if _coexist(tree, key, owner)}
            row = next(row for row in range(len(keys) + 1) if row not in taken)
            keys.append(TimerKey(owner, name, row, edges.get(Event(TIMER, name), -1)))
        rows = 1 + max((key.row for key in keys), default=-1)
        return cls(
            tuple(keys),
            rows,
            tuple(tuple(k for k in keys if k.owner == owner) for owner in range(len(tree))),
            tuple(tuple(k for k in keys if k.row == row) for row in range(rows)),
            np.array([*(key.edge for key in keys), -1], dtype=np.intp),
            (*(tree.paths[key.owner] for key in keys), ""),
            np.array([key.owner for key in keys], np.intp),
            np.array([key.row for key in keys], np.intp),
            np.arange(1, len(keys) + 1, dtype=np.intp),
            _by_flags(keys, rows, len(tree)),
        )

    def owned(self, rows: Indexes | None, owning: Bools) -> Indexes:
        """The key of the timer in row ``rows[i]`` of each agent: the one whose owner is
        active (``owning``: ``(keys, agents)``, whether each key's owner is active), or -1
        if none is (``edges`` and ``owner_paths`` end with the entry of "no key").
        ``rows`` is ``None`` when there is one row."""
        mine = owning if rows is None else (self.places[:, None] == rows) & owning
        # The owners of a row's keys are never active together: one key at most is found.
        found: Indexes = self.numbers.dot(mine) - 1
        return found

    def key(self, owner: int, name: str) -> TimerKey:
        """The key of the timer ``name`` owned by state ``owner``."""
        return next(key for key in self.by_owner[owner] if key.name == name)

    def kill_rows(self, owner: int) -> tuple[int, ...]:
        """The rows holding timers of state ``owner`` (cleared when it exits)."""
        return tuple(sorted({key.row for key in self.by_owner[owner]}))


def _by_flags(keys: list[TimerKey], rows: int, states: int) -> NDArray[np.int16] | None:
    """``TimerLayout.by_flags`` (``None`` past ``LOOKUP_ENTRIES`` entries)."""
    if not rows or rows << states > LOOKUP_ENTRIES or len(keys) >= 1 << 15:
        return None
    flags = np.arange(1 << states)
    table = np.full((rows, flags.size), -1, np.int16)
    for number, key in enumerate(keys):
        table[key.row, (flags >> key.owner) & 1 == 1] = number
    return table


def _coexist(tree: Tree, key: TimerKey, owner: int) -> bool:
    return key.owner == owner or tree.can_be_active_together(key.owner, owner)
