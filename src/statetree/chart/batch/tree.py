"""The shape of a chart as the batch engine numbers it.

States are numbered as :func:`~statetree.chart.compile_chart` numbers them: depth first,
parents before children, children in order. Active states, walked in processing order,
are therefore in ascending number; the states inside a state ``s`` are exactly the numbers
from ``s + 1`` to ``end[s] - 1``, and exiting innermost first, later regions first, is
descending number.
"""

from __future__ import annotations

from dataclasses import dataclass

from statetree.chart.batch.arrays import Indexes, np
from statetree.chart.compile import CompiledChart
from statetree.chart.model import Policy, StateDef

__all__ = ["Tree"]


@dataclass(frozen=True, eq=False)
class Tree:
    """States by number.

    Attributes:
        paths: the path of each state.
        definitions: the definition of each state.
        parent: each state's parent (-1 for the root).
        index: each state's position among its siblings.
        end: one past the last state inside each state.
        children: the children of each state.
        history_row: the row of each state's history (-1 for a leaf).
        numbers: ``0 .. n - 1`` as a column, to compare with ranges.
    """

    paths: tuple[str, ...]
    definitions: tuple[StateDef, ...]
    parent: tuple[int, ...]
    index: tuple[int, ...]
    end: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]
    history_row: tuple[int, ...]
    numbers: Indexes

    @classmethod
    def of(cls, compiled: CompiledChart) -> Tree:
        """The tree of ``compiled``."""
        classes = compiled.classes
        parent = tuple(c._parent_id for c in classes)
        children: list[list[int]] = [[] for _ in classes]
        for number, up in enumerate(parent):
            if up >= 0:
                children[up].append(number)
        end = [0] * len(classes)
        for number in reversed(range(len(classes))):
            end[number] = max([number + 1, *(end[child] for child in children[number])])
        rows = [-1] * len(classes)
        for row, number in enumerate(n for n, kids in enumerate(children) if kids):
            rows[number] = row
        return cls(
            tuple(c._path for c in classes),
            tuple(c._definition for c in classes),
            parent,
            tuple(c._index for c in classes),
            tuple(end),
            tuple(tuple(kids) for kids in children),
            tuple(rows),
            np.arange(len(classes), dtype=np.intp)[:, None],
        )

    def __len__(self) -> int:
        return len(self.paths)

    @property
    def history_rows(self) -> int:
        """How many states have children (and so a history)."""
        return sum(1 for row in self.history_row if row >= 0)

    @property
    def widest(self) -> int:
        """The most children any state has."""
        return max(len(kids) for kids in self.children)

    def policy(self, number: int) -> Policy | None:
        """The policy of state ``number``."""
        return self.definitions[number].policy

    def ancestors(self, number: int) -> list[int]:
        """``number`` and every state outside it, innermost first."""
        chain = [number]
        while self.parent[chain[-1]] >= 0:
            chain.append(self.parent[chain[-1]])
        return chain

    def can_be_active_together(self, one: int, other: int) -> bool:
        """Whether states ``one`` and ``other`` can be active at the same time."""
        outer = self.ancestors(one)
        if other in outer or one in self.ancestors(other):
            return True
        meet = next(number for number in self.ancestors(other) if number in outer)
        return self.policy(meet) is Policy.CONCURRENT
