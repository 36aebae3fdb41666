"""Which parts of a chart state its place reads: one home for the rule, for the loader that
refuses the others and for tools (the inspector's editor) that offer only these.

A state's ``pre``, ``post`` and ``transitions`` are read by its parent's policy: a priority
parent reads its children's pre- and post-conditions, a sequential one their
post-conditions, an explicit one their transitions. The root has no parent to read them,
and the ground state of a priority parent (its last child, chosen when no other is) has
neither a pre- nor a post-condition. Only a state with children has a policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from statetree.chart.model import Chart, Policy, StateDef

__all__ = ["PARTS", "READERS", "parts_read", "placements"]

PARTS = ("pre", "post", "transitions")
"""The parts of a state that its parent reads."""

READERS: Mapping[str, tuple[Policy, ...]] = MappingProxyType(
    {
        "pre": (Policy.PRIORITY,),
        "post": (Policy.SEQUENTIAL, Policy.PRIORITY),
        "transitions": (Policy.EXPLICIT,),
    }
)
"""The policies of the parents that read each part."""


def parts_read(parent: StateDef | None, index: int) -> tuple[str, ...]:
    """The parts of the child at ``index`` of ``parent`` that ``parent`` reads (none for
    the root, ``parent`` ``None``)."""
    if parent is None:
        return ()
    ground = parent.policy is Policy.PRIORITY and index == len(parent.states) - 1
    return tuple(
        part
        for part in PARTS
        if parent.policy in READERS[part] and not (ground and part in ("pre", "post"))
    )


def placements(chart: Chart) -> dict[str, tuple[str, ...]]:
    """The parts each state of ``chart`` may have, by path: ``policy`` when it has children
    (a policy chooses among them; a leaf has none), then those its parent reads. The states
    of the chart's own patterns are included as ``@Pattern.Child``: a pattern's top state
    gets what each use gives it, and a policy given by a parameter reads every part."""
    found: dict[str, tuple[str, ...]] = {}

    def visit(path: str, state: StateDef, read: tuple[str, ...]) -> None:
        found[path] = ("policy", *read) if state.states else read
        for index, child in enumerate(state.states):
            visit(f"{path}.{child.name}", child, parts_read(state, index))

    visit(chart.root.name, chart.root, parts_read(None, 0))
    for pattern in chart.patterns:
        _visit_body(found, f"@{pattern.name}", pattern.body, ())
    return found


def _visit_body(
    found: dict[str, tuple[str, ...]], path: str, body: Mapping[str, object], read: tuple[str, ...]
) -> None:
    """:func:`placements` for a pattern's plain data (its values may be parameters)."""
    children = body.get("states")
    states = [c for c in children if isinstance(c, Mapping)] if isinstance(children, list) else []
    found[path] = ("policy", *read) if states else read
    value = body.get("policy", Policy.EXPLICIT.value)
    known = value in [policy.value for policy in Policy]
    for index, child in enumerate(states):
        if known:
            holder = StateDef(
                "", Policy(value), tuple(StateDef(str(n)) for n in range(len(states)))
            )
            parts = parts_read(holder, index)
        else:  # a parameter chooses the policy: the loader checks each use
            parts = PARTS
        _visit_body(found, f"{path}.{child.get('name', index)}", child, parts)
