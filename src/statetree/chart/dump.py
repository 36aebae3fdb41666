"""Writing charts back as data: plain Python data, JSON text, YAML text.

``from_data(to_data(chart))`` gives back an equal chart, and so does loading the text that
``dump_json`` or ``dump_yaml`` writes; a chart's patterns, imports and uses are written as
they were (the data of a chart read from a file writes that file again, comments and
layout aside). (TOML charts are read; the standard library has no TOML writer.)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable

from statetree.chart.loading import format_module
from statetree.chart.model import (
    ActionDef,
    AllOf,
    Chart,
    Condition,
    NotOf,
    PatternDef,
    StateDef,
    TriggerDef,
    UseDef,
    thaw,
)
from statetree.chart.parse import FORMAT_VERSION
from statetree.chart.registry import Param

__all__ = [
    "dump_json",
    "dump_yaml",
    "fingerprint",
    "fingerprint_of",
    "state_data",
    "to_data",
    "written_out",
]

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


def _placement(state: StateDef, data: Data, keys: tuple[str, ...]) -> None:
    """Write the ``keys`` among pre, post and transitions that ``state`` has."""
    for key, conditions in (("pre", state.pre), ("post", state.post)):
        if conditions and key in keys:
            data[key] = _conditions(conditions)
    if state.transitions and "transitions" in keys:
        data["transitions"] = [
            {"on": _condition(transition.on), "to": transition.to}
            for transition in state.transitions
        ]


def state_data(state: StateDef) -> Data:
    """``state`` as plain data in the chart format (a use written as a use)."""
    return _state(state)


def _state(state: StateDef) -> Data:
    if state.use is not None:
        return _use(state, state.use)
    data: Data = {"name": state.name}
    if state.policy is not None:
        data["policy"] = state.policy
    _placement(state, data, ("pre", "post"))
    for key, actions in (("enter", state.enter), ("exit", state.exit)):
        if actions:
            data[key] = [_action(action) for action in actions]
    _placement(state, data, ("transitions",))
    if state.states:
        data["states"] = [_state(child) for child in state.states]
    return data


def _use(state: StateDef, use: UseDef) -> Data:
    """A state written as a use: its name, pattern and arguments, and what it sets itself."""
    data: Data = {"name": state.name, "use": use.pattern}
    if use.arguments:
        data["with"] = dict(use.arguments)
    _placement(state, data, use.given)
    return data


def _param(param: Param) -> object:
    """A pattern's parameter: its type alone, or a mapping when it says more."""
    data: Data = {"type": param.type_name}
    for key, value in (("default", param.default), ("minimum", param.minimum)):
        if value is not None:
            data[key] = value
    if param.choices is not None:
        data["choices"] = list(param.choices)
    return data if len(data) > 1 else param.type_name


def _pattern(pattern: PatternDef) -> Data:
    data: Data = {}
    if pattern.params:
        data["params"] = {param.name: _param(param) for param in pattern.params}
    body = thaw(pattern.body)
    assert isinstance(body, dict)  # a pattern's body is a mapping
    return {**data, **body}


def to_data(chart: Chart) -> Data:
    """``chart`` as plain data in the chart format (what ``from_data`` reads), with its
    imports and patterns, and each state written as a use written so again."""
    data: Data = {"version": FORMAT_VERSION, "name": chart.name}
    if chart.imports:
        data["imports"] = list(chart.imports)
    if chart.patterns:
        data["patterns"] = {pattern.name: _pattern(pattern) for pattern in chart.patterns}
    data["root"] = _state(chart.root)
    return data


def dump_json(chart: Chart) -> str:
    """``chart`` as JSON text."""
    return json.dumps(to_data(chart), indent=2) + "\n"


def dump_yaml(chart: Chart) -> str:
    """``chart`` as YAML text (needs ``ruamel.yaml``, the ``chart`` extra)."""
    write: Callable[[object], str] = format_module("yaml").write
    return write(to_data(chart))


def fingerprint(chart: Chart) -> str:
    """A short digest of what ``chart`` is: equal charts (as ``==`` compares them, however
    their patterns were given) have equal fingerprints.

    Snapshots carry it, so that one is only restored on the chart it was taken of.
    """
    return fingerprint_of(to_data(written_out(chart)))


def fingerprint_of(data: object) -> str:
    """The fingerprint of the data of a chart written out (see :func:`written_out`)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def written_out(chart: Chart) -> Chart:
    """``chart`` as if written without patterns: every use written out where it stands."""
    if not chart.patterns and not chart.imports and all(s.use is None for _, s, _ in chart.walk()):
        return chart  # written out already
    return dataclasses.replace(chart, root=_written_out(chart.root), patterns=(), imports=())


def _written_out(state: StateDef) -> StateDef:
    # The root holds every use expanded already: only the record of the use goes.
    return dataclasses.replace(state, use=None, states=tuple(map(_written_out, state.states)))
