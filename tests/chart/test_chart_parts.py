"""Which parts a state may have: exactly what the loader accepts, for every state."""

from __future__ import annotations

import copy
from typing import Any

from budget import examples
from chart_strategies import charts
from hypothesis import given, settings

from statetree.chart import ChartError, from_data, to_data
from statetree.chart.parts import PARTS, placements

CONDITION = {"event": "Poke"}


def _state(data: dict[str, Any], path: str) -> dict[str, Any]:
    state = data["root"]
    for name in path.split(".")[1:]:
        state = next(child for child in state["states"] if child["name"] == name)
    return state


def _with(data: dict[str, Any], path: str, part: str) -> dict[str, Any]:
    """The chart data with one more ``part`` on the state at ``path``."""
    edited = copy.deepcopy(data)
    state = _state(edited, path)
    if part == "transitions":
        state["transitions"] = [{"on": CONDITION, "to": state["name"]}]
    elif part == "policy":
        state["policy"] = "priority" if state.get("states") else "explicit"
    else:
        state[part] = CONDITION
    return edited


def _loads(data: dict[str, Any]) -> bool:
    try:
        from_data(data)
    except ChartError:
        return False
    return True


@settings(max_examples=examples(60), deadline=None)
@given(charts())
def test_a_state_may_have_a_part_exactly_when_the_loader_accepts_it(chart: Any) -> None:
    data = to_data(chart)
    offered = placements(chart)
    assert set(offered) == {path for path, _, _ in chart.walk()}
    for path, _, _ in chart.walk():
        for part in (*PARTS, "policy"):
            if part == "pre" and part in offered[path] and _state(data, path).get("pre"):
                continue  # it has one already: replacing it may starve its siblings
            edited = _with(data, path, part)
            if part == "policy" and "policy" not in offered[path]:
                assert not _loads(edited), (path, part)
            elif part != "policy":
                assert _loads(edited) == (part in offered[path]), (path, part)
