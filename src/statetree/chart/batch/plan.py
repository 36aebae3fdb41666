"""A compiled chart as the batch engine runs it: moves, choosers, performers and timers.

A *move* is one change a state can choose, as ``StateMachine._apply`` makes it: the states
it exits (every active state in a range of numbers) and the states it enters (a sibling or
child, or the regions not active). Every move of a chart is known when the plan is built;
a pass then only picks one move number per agent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from statetree.chart.actions import Phase
from statetree.chart.batch.actions import Context, Performers, make_performer
from statetree.chart.batch.arrays import Bools, Indexes, np
from statetree.chart.batch.choose import (
    Chooser,
    ConcurrentChooser,
    ExplicitChooser,
    Node,
    PriorityChooser,
    SequentialChooser,
)
from statetree.chart.batch.conditions import (
    VectorCondition,
    vectorise,
    vectorise_all,
    vectorise_any,
)
from statetree.chart.batch.timers import TimerLayout
from statetree.chart.batch.tree import Tree
from statetree.chart.compile import CompiledChart
from statetree.chart.events import Event
from statetree.chart.model import Condition, Policy
from statetree.chart.registry import START_TIMER

__all__ = ["Move", "Plan", "timer_pairs"]


@dataclass(frozen=True, slots=True)
class Move:
    """One change: exit the active states numbered ``low`` to ``high - 1``, enter ``targets``.

    ``targets`` are entered in order, those already active skipped (a concurrent move
    enters only the missing regions).
    """

    state: int
    low: int
    high: int
    targets: tuple[int, ...]


def timer_pairs(compiled: CompiledChart) -> Iterable[tuple[int, str]]:
    """The (state number, timer name) of every timer the chart's enter actions start."""
    hosted = START_TIMER in compiled.host_actions  # a registry's own action of that name
    for cls in compiled.classes:
        for action in cls._definition.enter:
            if action.type == START_TIMER and not hosted:
                yield cls._id, str(action.arguments["name"])


class Plan:
    """Everything the engine needs about one compiled chart, by number.

    Args:
        compiled: the chart.
        carried: timers that states kept by a reload still run although the new chart no
            longer starts them, as (state path, timer name).
    """

    def __init__(self, compiled: CompiledChart, carried: Iterable[tuple[str, str]] = ()) -> None:
        self.compiled = compiled
        self.tree = tree = Tree.of(compiled)
        self.edges = len(compiled.edges)
        self.level_events: tuple[Event, ...] = tuple(compiled.levels)
        self.carried = tuple(carried)
        self.numbers = {path: number for number, path in enumerate(tree.paths)}
        self.slots = {name: slot for slot, name in enumerate(compiled.host_actions)}
        extra = ((self.numbers[path], name) for path, name in self.carried)
        self.timers = TimerLayout.of(tree, [*timer_pairs(compiled), *extra], compiled.edges)
        self.moves: list[Move] = []
        self.choosers = tuple(c for c in map(self._chooser, range(len(tree))) if c is not None)
        self.target_paths = tuple(tree.paths[m.targets[0]] for m in self.moves)
        # One more move that changes nothing: the move of agents that do not move.
        self.still = len(self.moves)
        self.low: Indexes = np.array([m.low for m in self.moves] + [0], dtype=np.intp)
        self.high: Indexes = np.array([m.high for m in self.moves] + [0], dtype=np.intp)
        self.enters: Bools = np.zeros((len(tree), self.still + 1), np.bool_)
        for number, move in enumerate(self.moves):
            self.enters[list(move.targets), number] = True
        self.enter_actions = tuple(self._performers(n, "enter") for n in range(len(tree)))
        self.exit_actions = tuple(self._performers(n, "exit") for n in range(len(tree)))
        self.kill_rows = tuple(self.timers.kill_rows(n) for n in range(len(tree)))
        self.order = _call_order(compiled)

    @property
    def states(self) -> int:
        """How many states the chart has."""
        return len(self.tree)

    def _move(self, state: int, low: int, high: int, *targets: int) -> int:
        self.moves.append(Move(state, low, high, targets))
        return len(self.moves) - 1

    def _chooser(self, state: int) -> Chooser | None:
        tree = self.tree
        definition = tree.definitions[state]
        sibling = f"{tree.paths[tree.parent[state]]}." if state else ""
        fires = [
            (self._condition(t.on), self._sibling(state, self.numbers[sibling + t.to]))
            for t in definition.transitions
        ]
        children = tree.children[state]
        node = Node(state, tuple(fires), children, tree.history_row[state])
        policy = definition.policy
        if policy is None:
            return Chooser(node) if fires else None
        if policy is Policy.CONCURRENT:
            return ConcurrentChooser(node, self._move(state, 0, 0, *children))
        inners = [self._move(state, state + 1, tree.end[state], c) for c in children]
        if policy is Policy.PRIORITY:
            return PriorityChooser(node, [self._pre_post(c) for c in children], inners)
        entries = [self._move(state, 0, 0, c) for c in children]
        if policy is Policy.EXPLICIT:
            return ExplicitChooser(node, entries)
        advances = [
            (child, post, inners[index + 1])
            for index, child in enumerate(children[:-1])
            if (post := self._pre_post(child)[1]) is not None
        ]
        return SequentialChooser(node, entries, advances)

    def _sibling(self, state: int, target: int) -> int:
        return self._move(state, state, self.tree.end[state], target)

    def _condition(self, condition: Condition) -> VectorCondition:
        return vectorise(condition, self.compiled.edges, self.compiled.levels)

    def _pre_post(self, state: int) -> tuple[VectorCondition | None, VectorCondition | None]:
        definition = self.tree.definitions[state]
        edges, levels = self.compiled.edges, self.compiled.levels
        pre = vectorise_all(definition.pre, edges, levels)
        return pre, vectorise_any(definition.post, edges, levels)

    def _performers(self, state: int, phase: Phase) -> Performers:
        cls = self.compiled.classes[state]
        performers = cls._enter if phase == "enter" else cls._exit
        timers = self.timers
        context = Context(
            phase,
            self.tree.history_row[state],
            lambda name: timers.key(state, name).row,
            self.compiled.edges,
            self.slots,
        )
        return tuple(make_performer(performer.call, context) for performer in performers)


def _call_order(compiled: CompiledChart) -> dict[int, int]:
    """The rank of each action (by ``id`` of its ``ActionCall``) in the order a pass
    performs them: exits by descending state number, then entries by ascending number,
    each state's actions in order."""
    classes = compiled.classes
    exits = [p.call for cls in reversed(classes) for p in cls._exit]
    enters = [p.call for cls in classes for p in cls._enter]
    return {id(call): rank for rank, call in enumerate([*exits, *enters], 1)}
