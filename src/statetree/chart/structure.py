"""The structure of a chart, read from its declared model (never guessed from code).

Edges by policy: an explicit or sequential state enters its first child (inner-entry) and,
unless it clears its history on exit, may resume any other child (inner-entry too); a
sequential state advances to the next child (inner); a priority state chooses any child
(inner); a concurrent state enters every child as a region (concurrent); explicit
transitions are sibling edges.
"""

from __future__ import annotations

from collections.abc import Iterator

from statetree.chart.compile import CompiledChart
from statetree.chart.model import Chart, Policy, StateDef
from statetree.chart.registry import CLEAR_HISTORY
from statetree.core.transition import TransitionKind
from statetree.structure.model import Edge, Location, StateInfo, Structure

__all__ = ["chart_structure", "compiled_structure"]


def _child_edges(path: str, state: StateDef) -> Iterator[Edge]:
    children = [f"{path}.{child.name}" for child in state.states]
    policy = state.policy
    if policy is Policy.PRIORITY:
        yield from (Edge(path, child, TransitionKind.INNER) for child in children)
    elif policy is Policy.CONCURRENT:
        yield from (Edge(path, child, TransitionKind.CONCURRENT) for child in children)
    elif policy is not None:
        clears = any(action.type == CLEAR_HISTORY for action in state.exit)
        resumed = children[:1] if clears else children
        yield from (Edge(path, child, TransitionKind.INNER_ENTRY) for child in resumed)
        if policy is Policy.SEQUENTIAL:
            for child, following in zip(state.states, children[1:], strict=False):
                if child.post:
                    yield Edge(path, following, TransitionKind.INNER)


def _transition_edges(path: str, state: StateDef) -> Iterator[Edge]:
    parent = path.rpartition(".")[0]
    for transition in state.transitions:
        yield Edge(path, f"{parent}.{transition.to}", TransitionKind.SIBLING)


def chart_structure(chart: Chart) -> Structure:
    """The :class:`~statetree.structure.Structure` of ``chart``; states named by path."""
    states = []
    edges: list[Edge] = []
    for path, state, where in chart.walk():
        line = chart.origin.line(where)
        location = Location(chart.origin.file, line) if line else None
        states.append(StateInfo(path, location=location))
        edges += _child_edges(path, state)
        edges += _transition_edges(path, state)
    return Structure(chart.root.name, tuple(states), tuple(edges))


def compiled_structure(compiled: CompiledChart) -> Structure:
    """The chart's structure with each state's generated class (for tools that enter states)."""
    base = chart_structure(compiled.chart)
    states = tuple(
        StateInfo(info.name, compiled.by_path[info.name], info.location) for info in base.states
    )
    return Structure(base.initial, states, base.edges)
