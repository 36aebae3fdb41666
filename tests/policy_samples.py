"""Chart data for tests that run over every policy definition (the chart's and the wire's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from statetree.chart.policy import PolicyDef


def child_data(found: PolicyDef, names: Sequence[str], index: int) -> dict[str, Any]:
    """The child ``names[index]`` of a state of ``found``'s policy, given every part the
    policy reads of it: a pre-condition held by its name, a post-condition
    ``input <name>Done``, transitions ``input To<sibling>`` to each sibling."""
    name = names[index]
    child: dict[str, Any] = {"name": name}
    parts = found.parts_read(index, len(names))
    if "pre" in parts:
        child["pre"] = {"held": name}
    if "post" in parts:
        child["post"] = {"input": f"{name}Done"}
    if "transitions" in parts:
        others = [other for other in names if other != name]
        child["transitions"] = [{"on": {"input": f"To{o}"}, "to": o} for o in others]
    return child
