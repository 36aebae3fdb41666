"""One pass of the book's algorithm for every agent at once: the first change, outermost first.

For each agent, the first active state (in processing order) whose ``transition()`` would
change the configuration chooses the move applied in this pass, exactly as
``StateMachine._first_change`` finds it: explicit transitions first, then the policy of the
state's children (:mod:`statetree.chart.policies`). A chooser computes its state's choice for
all agents at once; only the agents where that state is active and no outer state chose
keep it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from statetree.chart.batch.arrays import Bools, Indexes, Moves, np
from statetree.chart.batch.conditions import VectorCondition
from statetree.chart.batch.work import Work

__all__ = [
    "Chooser",
    "ConcurrentChooser",
    "ExplicitChooser",
    "Node",
    "PriorityChooser",
    "SequentialChooser",
    "choose",
]


@dataclass(frozen=True, slots=True)
class Node:
    """What every chooser knows of its state.

    Attributes:
        state: the state's number.
        fires: each explicit transition's condition and move, in order.
        children: the children's numbers.
        history_row: the row of the state's history (-1: a leaf).
    """

    state: int
    fires: tuple[tuple[VectorCondition, int], ...] = ()
    children: tuple[int, ...] = ()
    history_row: int = -1


class Chooser:
    """The choice of one state: its explicit transitions, then its children's policy."""

    __slots__ = ("children", "fires", "history_row", "state")

    def __init__(self, node: Node) -> None:
        self.state = node.state
        self.fires = node.fires
        self.children: Indexes = np.asarray(node.children, dtype=np.intp)
        self.history_row = node.history_row

    def choose(self, work: Work, moves: Moves, candidates: Bools) -> None:
        """Set the move of the agents where ``candidates`` is true, if the state changes."""
        if self.fires:
            threshold = work.entry[self.state]
            for condition, move in self.fires:
                hit = candidates & condition(work, threshold)
                np.copyto(moves, move, where=hit)
                candidates = candidates & ~hit
        if self.children.size and candidates.any():
            self.policy(work, moves, candidates)

    def policy(self, work: Work, moves: Moves, free: Bools) -> None:
        """Set the children's policy's move where ``free`` (a leaf has none)."""


class ExplicitChooser(Chooser):
    """Enter the child in the history when none is active (``inner_entry``)."""

    __slots__ = ("entries",)

    def __init__(self, node: Node, entries: Sequence[int]) -> None:
        super().__init__(node)
        self.entries: Moves = np.asarray(entries, dtype=np.int32)

    def policy(self, work: Work, moves: Moves, free: Bools) -> None:
        self.resume(work, moves, free & ~work.active[self.children].any(axis=0))

    def resume(self, work: Work, moves: Moves, empty: Bools) -> None:
        if empty.any():
            resumed = self.entries[work.history[self.history_row]]
            np.copyto(moves, resumed, where=empty)


class SequentialChooser(ExplicitChooser):
    """Resume as an explicit state; advance when the active child's post-condition holds."""

    __slots__ = ("advances",)

    def __init__(
        self,
        node: Node,
        entries: Sequence[int],
        advances: Sequence[tuple[int, VectorCondition, int]],
    ) -> None:
        super().__init__(node, entries)
        self.advances = tuple(advances)

    def policy(self, work: Work, moves: Moves, free: Bools) -> None:
        active = work.active
        self.resume(work, moves, free & ~active[self.children].any(axis=0))
        for child, post, move in self.advances:
            here = free & active[child]
            if here.any():
                np.copyto(moves, move, where=here & post(work, work.entry[child]))


class PriorityChooser(Chooser):
    """The first child whose pre-condition holds, unless the active child may stay."""

    __slots__ = ("inners", "posts", "pres")

    def __init__(
        self,
        node: Node,
        conditions: Sequence[tuple[VectorCondition | None, VectorCondition | None]],
        inners: Sequence[int],
    ) -> None:
        super().__init__(node)
        self.pres = tuple(pre for pre, _ in conditions)
        self.posts = tuple(post for _, post in conditions)
        self.inners: Moves = np.asarray(inners, dtype=np.int32)

    def policy(self, work: Work, moves: Moves, free: Bools) -> None:
        holding = np.ones((len(self.pres), work.k), np.bool_)
        for row, pre in enumerate(self.pres):
            if pre is not None:
                holding[row] = pre(work, 0)
        first = _first(holding, 0)
        active = work.active[self.children]
        empty = ~active.any(axis=0)
        current = work.history[self.history_row]
        higher = free & (empty | (first < current))
        np.copyto(moves, self.inners[first], where=higher)
        staying = free & ~higher
        for row in range(len(self.pres) - 1):
            here = staying & active[row]
            if here.any():
                self.leave(work, moves, here, row, (holding, first))

    def leave(
        self, work: Work, moves: Moves, here: Bools, row: int, chosen: tuple[Bools, Indexes]
    ) -> None:
        """The move of the agents whose active child is ``row``, when it is done or unwanted.

        ``chosen``: whether each child's pre-condition holds, and the first that holds."""
        holding, first = chosen
        post = self.posts[row]
        if post is None:
            np.copyto(moves, self.inners[first], where=here & ~holding[row])
            return
        done = here & post(work, work.entry[self.children[row]])
        if done.any():
            np.copyto(moves, self.inners[_first(holding, row + 1)], where=done)


def _first(holding: Bools, start: int) -> Indexes:
    """The first row from ``start`` on that is true, for each column (the last row is)."""
    last = holding.shape[0] - 1
    first: Indexes = np.full(holding.shape[1], last, np.intp)
    for row in range(last - 1, start - 1, -1):
        first = np.where(holding[row], row, first)
    return first


class ConcurrentChooser(Chooser):
    """Enter every region that is not active."""

    __slots__ = ("regions",)

    def __init__(self, node: Node, regions: int) -> None:
        super().__init__(node)
        self.regions = regions

    def policy(self, work: Work, moves: Moves, free: Bools) -> None:
        missing = free & ~work.active[self.children].all(axis=0)
        np.copyto(moves, self.regions, where=missing)


def choose(choosers: Sequence[Chooser], work: Work) -> Moves:
    """The move of each agent of ``work`` in this pass (-1: it has settled)."""
    moves: Moves = np.full(work.k, -1, np.int32)
    active = work.active
    present = np.any(active, axis=1).tolist()
    open_: Bools | None = None
    for chooser in choosers:
        if present[chooser.state]:
            here = active[chooser.state]
            chooser.choose(work, moves, here if open_ is None else open_ & here)
            open_ = moves < 0
    return moves
