"""What a policy definition holds (:class:`PolicyDef`), and the rules every policy shares.

A policy is defined once, by one :class:`PolicyDef` in a module of its own; everything
that differs between policies is a field of it. The rules here follow from a definition's
fields alone: the structure edge to the child a state holds when none is chosen (its
:class:`Entry`), and the rules of a ground state.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from statetree.chart.model import DataPath, StateDef
from statetree.chart.states import ChartState
from statetree.core.transition import Transition, TransitionKind
from statetree.structure.model import Edge

__all__ = [
    "GROUND_LABEL",
    "PARTS",
    "Check",
    "Entry",
    "Moves",
    "Part",
    "PolicyDef",
    "Report",
    "TransitionFunction",
    "lacking",
]

Part = Literal["pre", "post", "transitions"]
"""A part of a state that its parent's policy may read."""

PARTS: tuple[Part, ...] = ("pre", "post", "transitions")
"""Every part a parent may read, in the order of the chart format."""

GROUND_LABEL = "otherwise"
"""The label of the structure edge to a ground state (entered when no other child is)."""

TransitionFunction = Callable[[ChartState], "Transition | None"]
"""A function a generated class takes as its ``transition`` (see :attr:`PolicyDef.run`)."""

Report = Callable[[DataPath, str], None]
"""Where a load-time rule reports a problem: the place in the chart document, the message."""

Check = Callable[[StateDef, str, DataPath, Report], None]
"""A policy's load-time rule on a state and its children: ``check(state, path, where,
report)``, where ``path`` is the state's dotted path and ``where`` its place in the
document."""

Moves = Callable[[str, StateDef], Iterator[Edge]]
"""A policy's structure edges from a state (at ``path``) to its children, its entry aside:
how it moves between them, each edge labelled with when it is taken."""


class Entry(enum.Enum):
    """Which child a state holds when its policy chooses none: every policy's state holds
    one once settled, so its structure has an entry (or region) edge, and the wire format
    spends no header value on a parent without a child."""

    FIRST = "first"
    """Its first child (or, on re-entry, the one its history recorded)."""
    GROUND = "ground"
    """Its last child, the *ground* state, chosen when no other is: the parent reads
    neither the ground's pre-condition (it has none) nor its post-condition (it rests)."""
    EVERY = "every"
    """Every child at once, each as a region."""


def _no_rule(state: StateDef, path: str, where: DataPath, report: Report) -> None:
    """A policy with no load-time rule of its own."""


def _no_moves(path: str, state: StateDef) -> Iterator[Edge]:
    """A policy whose children move only by their own transitions."""
    return iter(())


@dataclass(frozen=True, slots=True)
class PolicyDef:
    """Everything one policy means; the validator, the structure, the parts rule, the
    compiler, the JSON Schema and the inspector's editor read it.

    Attributes:
        policy: its name in charts, which is also the name of its module.
        summary: what it does, in one sentence (the schema's and the editor's text).
        entry: the child a state holds when the policy chooses none.
        reads: the parts of its children it reads; any other part of a child is a load
            error, since nothing would read it.
        last_reads: the parts it reads of its last child, when fewer (``None``: the same):
            a ground state's pre and post (see :attr:`Entry.GROUND`), the post of the last
            child of a sequence, which stays.
        run: the function that runs it (in its module), as the ``transition`` of a state
            without explicit transitions of its own.
        fire_then_run: the function for a state with explicit transitions: those first
            (:func:`statetree.chart.states.fire`).
        needs: the parts every child but the last must have, each with why (formatted with
            the state's ``path``): a child without it is a load error.
        moves: its structure edges besides the entry (how children follow each other).
        check: its load-time rule on a state's children besides ``needs`` (the ground's
            rules are checked for every policy whose entry is the ground).
    """

    policy: str
    summary: str
    entry: Entry
    reads: tuple[Part, ...]
    run: TransitionFunction
    fire_then_run: TransitionFunction
    moves: Moves = _no_moves
    needs: tuple[tuple[Part, str], ...] = ()
    check: Check = _no_rule
    last_reads: tuple[Part, ...] | None = None

    @property
    def regions(self) -> bool:
        """Whether its children are all active at once, each as a region."""
        return self.entry is Entry.EVERY

    def parts_read(self, index: int, count: int) -> tuple[Part, ...]:
        """The parts it reads of its child at ``index`` of ``count``."""
        if self.last_reads is not None and index == count - 1:
            return self.last_reads
        return self.reads

    def edges(self, path: str, state: StateDef) -> tuple[Edge, ...]:
        """The structure edges from ``state`` (at ``path``) to its children, in their order:
        the entry (or the regions) and the moves."""
        children = [f"{path}.{child.name}" for child in state.states]
        entries: list[Edge] = []
        if self.entry is Entry.EVERY:
            entries = [Edge(path, name, TransitionKind.CONCURRENT) for name in children]
        elif self.entry is Entry.FIRST:
            entries = [Edge(path, children[0], TransitionKind.INNER_ENTRY)]
        else:
            entries = [Edge(path, children[-1], TransitionKind.INNER_ENTRY, label=GROUND_LABEL)]
        order = {name: index for index, name in enumerate(children)}
        edges = [*entries, *self.moves(path, state)]
        return tuple(sorted(edges, key=lambda edge: order[edge.target]))

    def check_children(self, state: StateDef, path: str, where: DataPath, report: Report) -> None:
        """Its load-time rules on ``state``'s children: the ground's, its needs, its own."""
        if self.entry is Entry.GROUND:
            _ground_rules(self.policy, state, path, where, report)
        for part, why in self.needs:
            for index, child in lacking(state, part):
                report(
                    (*where, "states", index),
                    f"{path}.{child.name} has no {part}-condition, {why.format(path=path)}",
                )
        self.check(state, path, where, report)


def lacking(state: StateDef, part: Part) -> Iterator[tuple[int, StateDef]]:
    """Each child of ``state`` but the last that has no ``part``, with its index."""
    for index, child in enumerate(state.states[:-1]):
        if not getattr(child, part):
            yield index, child


def _ground_rules(policy: str, state: StateDef, path: str, where: DataPath, report: Report) -> None:
    """The ground state (the last child) has neither a pre- nor a post-condition."""
    ground = state.states[-1]
    last = (*where, "states", len(state.states) - 1)
    if ground.pre:
        report(
            (*last, "pre"),
            f"{policy} state {path} has no ground state: its last child {ground.name} "
            "has a pre-condition; add a last child without one, chosen when no other is",
        )
    if ground.post:
        report(
            (*last, "post"),
            f"the ground state {path}.{ground.name} cannot have a post-condition: it is "
            f"where {path} rests when no other child's pre-condition holds",
        )
