"""Writing charts back as data: plain Python data, JSON text, YAML text.

``from_data(to_data(chart))`` gives back an equal chart, and so does loading the text that
``dump_json`` or ``dump_yaml`` writes. (TOML charts are read; the standard library has no
TOML writer.)
"""

from __future__ import annotations

import json
from collections.abc import Callable

from statetree.chart.load import format_module
from statetree.chart.model import (
    ActionDef,
    AllOf,
    Chart,
    Condition,
    NotOf,
    StateDef,
    TriggerDef,
)
from statetree.chart.parse import FORMAT_VERSION

__all__ = ["dump_json", "dump_yaml", "to_data"]

Data = dict[str, object]


def _condition(condition: Condition) -> object:
    if isinstance(condition, TriggerDef):
        return {condition.type: condition.name}
    if isinstance(condition, NotOf):
        return {"not": _condition(condition.condition)}
    key = "all" if isinstance(condition, AllOf) else "any"
    return {key: [_condition(item) for item in condition.conditions]}


def _conditions(conditions: tuple[Condition, ...]) -> object:
    if len(conditions) == 1:
        return _condition(conditions[0])
    return [_condition(condition) for condition in conditions]


def _action(action: ActionDef) -> object:
    if not action.params:
        return action.type
    return {action.type: dict(action.params)}


def _state(state: StateDef) -> Data:
    data: Data = {"name": state.name}
    if state.policy is not None:
        data["policy"] = state.policy.value
    for key, conditions in (("pre", state.pre), ("post", state.post)):
        if conditions:
            data[key] = _conditions(conditions)
    for key, actions in (("enter", state.enter), ("exit", state.exit)):
        if actions:
            data[key] = [_action(action) for action in actions]
    if state.transitions:
        data["transitions"] = [
            {"on": _condition(transition.on), "to": transition.to}
            for transition in state.transitions
        ]
    if state.states:
        data["states"] = [_state(child) for child in state.states]
    return data


def to_data(chart: Chart) -> Data:
    """``chart`` as plain data in the chart format (what ``from_data`` reads)."""
    return {"version": FORMAT_VERSION, "name": chart.name, "root": _state(chart.root)}


def dump_json(chart: Chart) -> str:
    """``chart`` as JSON text."""
    return json.dumps(to_data(chart), indent=2) + "\n"


def dump_yaml(chart: Chart) -> str:
    """``chart`` as YAML text (needs ``ruamel.yaml``, the ``chart`` extra)."""
    write: Callable[[object], str] = format_module("yaml").write
    return write(to_data(chart))
