"""Which parts of a chart state its place reads: one home for the rule, for the loader that
refuses the others and for tools (the inspector's editor) that offer only these.

A state's ``pre``, ``post`` and ``transitions`` are read by its parent's policy, as the
policy's definition says (:attr:`~statetree.chart.policy.PolicyDef.reads`, and
``last_reads`` of its last child: a ground state's pre- and post-conditions, or the
post-condition of a sequence's last child, are never read). The root has no parent to read
them. Only a state with children has a policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from statetree.chart.model import DEFAULT_POLICY, Chart, StateDef
from statetree.chart.policy import DEFINITIONS, PARTS, Part

__all__ = ["PARTS", "READERS", "parts_read", "placements", "readers_named"]

READERS: Mapping[Part, tuple[str, ...]] = MappingProxyType(
    {part: tuple(p for p, found in DEFINITIONS.items() if part in found.reads) for part in PARTS}
)
"""The policies of the parents that read each part."""


def readers_named(part: Part) -> str:
    """The policies that read ``part``, for a sentence: ``priority or sequential``,
    ``explicit, priority or sequential``."""
    names = READERS[part]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def parts_read(parent: StateDef | None, index: int) -> tuple[Part, ...]:
    """The parts of the child at ``index`` of ``parent`` that ``parent`` reads (none for
    the root, ``parent`` ``None``)."""
    if parent is None or parent.policy is None:
        return ()
    return DEFINITIONS[parent.policy].parts_read(index, len(parent.states))


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
    value = body.get("policy", DEFAULT_POLICY)
    # A parameter may choose the policy: each use is checked by the loader.
    chosen = DEFINITIONS.get(value) if isinstance(value, str) else None
    for index, child in enumerate(states):
        parts = PARTS if chosen is None else chosen.parts_read(index, len(states))
        _visit_body(found, f"{path}.{child.get('name', index)}", child, parts)
