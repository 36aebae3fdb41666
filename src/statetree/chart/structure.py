"""The structure of a chart, read from its declared model (never guessed from code).

The edges from a state to its children are its policy's (:meth:`PolicyDef.edges
<statetree.chart.policy.PolicyDef.edges>`): an entry edge to the child it holds when it
chooses none (its first child, or its ground state, labelled ``otherwise``), concurrent
edges to its regions, and inner edges for how the policy moves between children (a
sequence's advances, a priority state's choices). Explicit transitions are sibling edges.
A child resumed from history has no edge of its own: it was reached by one before.

A state that is a use of a pattern is noted with the pattern's name (``«ComboStep»``), and
its states are located inside the pattern. Collapsed, a use is one state: what the pattern
put inside it is left out.

Every edge but entries and regions carries a label saying, in words, when it is taken:
``input: Attack``, ``timer: Window and not held: Block``, ``otherwise`` for the ground
state of a priority state.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterator

from statetree.chart.compile import CompiledChart
from statetree.chart.describe import describe_any, describe_condition
from statetree.chart.model import Chart, Condition, DataPath, StateDef
from statetree.chart.policy import GROUND_LABEL, definition
from statetree.core.transition import TransitionKind
from statetree.errors import UsageError
from statetree.structure.model import Edge, Location, StateInfo, Structure

__all__ = [
    "GROUND_LABEL",
    "chart_structure",
    "compiled_structure",
    "describe_condition",
    "use_note",
]


def _transition_edges(path: str, state: StateDef) -> Iterator[Edge]:
    """One sibling edge per target; several transitions to it read as alternatives."""
    parent = path.rpartition(".")[0]
    conditions: dict[str, list[Condition]] = {}
    for transition in state.transitions:
        conditions.setdefault(transition.to, []).append(transition.on)
    for target, alternatives in conditions.items():
        label = describe_any(tuple(alternatives))
        yield Edge(path, f"{parent}.{target}", TransitionKind.SIBLING, label=label)


def use_note(state: StateDef) -> str:
    """What a plot notes under a state that is a use of a pattern (``«ComboStep»``)."""
    return "" if state.use is None else f"«{state.use.pattern}»"


def _shown(chart: Chart, collapse: bool) -> Iterator[tuple[str, StateDef, DataPath, bool]]:
    """The states to show, each with whether its children are shown too."""
    hidden: str | None = None
    for path, state, where in chart.walk():
        if hidden is not None and path.startswith(f"{hidden}."):
            continue
        opened = not (collapse and state.use is not None)
        hidden = None if opened else path
        yield path, state, where, opened


def chart_structure(
    chart: Chart, *, collapse: bool = False, mark_patterns: bool = False
) -> Structure:
    """The :class:`~statetree.structure.Structure` of ``chart``; states named by path, each
    parent's children in the order the chart lists them (their declared order).

    Edges carry labels saying when they are taken (see the module documentation); two
    transitions to the same state make one edge whose label joins them with "or".

    Args:
        collapse: show each use of a pattern as one state, without the states inside it.
        mark_patterns: note every state a pattern wrote (``in «ComboStep»``), besides
            each use (``«ComboStep»``).

    Raises:
        UsageError: ``chart`` is not a chart.
    """
    if not isinstance(chart, Chart):
        raise UsageError(f"chart_structure() takes a chart, got {reprlib.repr(chart)}")
    inside = chart.used_patterns() if mark_patterns else {}
    states = []
    edges: list[Edge] = []
    children = {}
    for path, state, where, opened in _shown(chart, collapse):
        place = chart.origin.place(where)
        location = Location(place.file, place.line) if place.line else None
        note = use_note(state) or (f"in «{inside[path][0]}»" if path in inside else "")
        states.append(StateInfo(path, location=location, note=note))
        edges += _transition_edges(path, state)
        if opened and state.states:
            if state.policy is not None:
                edges += definition(state.policy).edges(path, state)
            children[path] = tuple(f"{path}.{child.name}" for child in state.states)
    root = chart.root.name
    return Structure(root, tuple(states), tuple(edges), (), children, (root,))


def compiled_structure(compiled: CompiledChart) -> Structure:
    """The chart's structure with each state's generated class (for tools that enter states)."""
    base = chart_structure(compiled.chart)
    states = tuple(
        StateInfo(info.name, compiled.by_path[info.name], info.location, info.note)
        for info in base.states
    )
    return Structure(base.initial, states, base.edges, (), base.children, base.outermost)
