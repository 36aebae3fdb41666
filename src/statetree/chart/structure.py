"""The structure of a chart, read from its declared model (never guessed from code).

Edges by policy: an explicit or sequential state enters its first child (inner-entry); a
sequential state advances to the next child when the current one's post-condition holds
(inner); a priority state chooses a child (inner) by its pre-condition and enters its ground
state (its last child, inner-entry) when none holds, so it always holds a child, as every
policy's state does; a concurrent state enters every child as a region (concurrent);
explicit transitions are sibling edges.
A child resumed from history has no edge of its own: it was reached by one before.

A state that is a use of a pattern is noted with the pattern's name (``«ComboStep»``), and
its states are located inside the pattern. Collapsed, a use is one state: what the pattern
put inside it is left out.

Every edge but entries and regions carries a label saying, in words, when it is taken:
``input: Attack``, ``timer: Window and not held: Block``, ``otherwise`` for the ground
state of a priority state.
"""

from __future__ import annotations

from collections.abc import Iterator

from statetree.chart.compile import CompiledChart
from statetree.chart.model import (
    AllOf,
    AnyOf,
    Chart,
    Condition,
    DataPath,
    NotOf,
    Policy,
    StateDef,
)
from statetree.core.transition import TransitionKind
from statetree.structure.model import Edge, Location, StateInfo, Structure

__all__ = [
    "GROUND_LABEL",
    "chart_structure",
    "compiled_structure",
    "describe_condition",
    "use_note",
]

GROUND_LABEL = "otherwise"
"""The label of the edge to a priority state's ground state (its last child)."""


def describe_condition(condition: Condition) -> str:
    """``condition`` in words: ``input: Attack``, ``event: Died or not held: Block``."""
    if isinstance(condition, NotOf):
        return f"not {_operand(condition.condition)}"
    if isinstance(condition, (AllOf, AnyOf)) and len(condition.conditions) == 1:
        return describe_condition(condition.conditions[0])
    if isinstance(condition, AllOf):
        return " and ".join(_operand(item) for item in condition.conditions)
    if isinstance(condition, AnyOf):
        return " or ".join(_operand(item) for item in condition.conditions)
    return f"{condition.type}: {condition.name}"


def _operand(condition: Condition) -> str:
    """A condition inside another one: bracketed when it combines several."""
    text = describe_condition(condition)
    several = isinstance(condition, (AllOf, AnyOf)) and len(condition.conditions) > 1
    return f"({text})" if several else text


def _all(conditions: tuple[Condition, ...]) -> str:
    """Pre-conditions: all must hold."""
    return describe_condition(AllOf(conditions)) if conditions else ""


def _any(conditions: tuple[Condition, ...]) -> str:
    """Post-conditions: any one suffices."""
    return describe_condition(AnyOf(conditions)) if conditions else ""


def _child_edges(path: str, state: StateDef) -> Iterator[Edge]:
    children = [f"{path}.{child.name}" for child in state.states]
    if not children:
        return
    if state.policy is Policy.PRIORITY:
        # Any child can be chosen by its pre-condition; the ground is entered when none holds,
        # so a priority state always holds a child: an entry edge, as an explicit state's.
        for child, name in zip(state.states[:-1], children, strict=False):
            yield Edge(path, name, TransitionKind.INNER, label=_all(child.pre))
        yield Edge(path, children[-1], TransitionKind.INNER_ENTRY, label=GROUND_LABEL)
    elif state.policy is Policy.CONCURRENT:
        yield from (Edge(path, name, TransitionKind.CONCURRENT) for name in children)
    else:  # explicit or sequential: entered at the first child
        yield Edge(path, children[0], TransitionKind.INNER_ENTRY)
        if state.policy is Policy.SEQUENTIAL:
            yield from _advances(path, state, children)


def _advances(path: str, state: StateDef, children: list[str]) -> Iterator[Edge]:
    """A sequence moves on to the next child when the current one's post-condition holds."""
    for current, following in zip(state.states, children[1:], strict=False):
        if current.post:
            yield Edge(path, following, TransitionKind.INNER, label=_any(current.post))


def _transition_edges(path: str, state: StateDef) -> Iterator[Edge]:
    """One sibling edge per target; several transitions to it read as alternatives."""
    parent = path.rpartition(".")[0]
    conditions: dict[str, list[Condition]] = {}
    for transition in state.transitions:
        conditions.setdefault(transition.to, []).append(transition.on)
    for target, alternatives in conditions.items():
        label = _any(tuple(alternatives))
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
    """
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
            edges += _child_edges(path, state)
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
