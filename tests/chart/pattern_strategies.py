"""Random charts written with patterns, and the oracle that writes them out by hand.

A random valid chart (``charts()``) is rewritten step by step: a state is turned into a use
of a new pattern made of it (chosen values becoming ``$param`` references, the state's
values the use's arguments or the parameters' defaults), or an existing pattern is used in
place of another state, with arguments of its own. Patterns made later may hold uses of
earlier ones. :func:`written_out` expands the uses with its own few lines, independently
of the library, so a chart with patterns can be compared with its hand-expanded twin.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

from chart_strategies import charts
from hypothesis import strategies as st

from statetree.chart import to_data

Data = dict[str, Any]

# What a parameter may stand for, by the kind of place it replaces: the values each kind
# takes keep the expanded chart valid (a timer's name is never abstracted: its trigger
# needs a start_timer of the same name).
DOMAINS: dict[str, tuple[Any, ...]] = {
    "raise": ("E", "F"),
    "delay": (0.25, 0.5, 1.0),
    "input": ("X", "Y"),
    "event": ("E", "F"),
    "held": ("H",),
    "anim_suffix": ("im",),
}
TYPES = {"delay": "number"}
_PLACEMENT = ("pre", "post", "transitions")
Place = tuple[dict[str, Any], str, str]
"""A value a parameter may replace: its mapping, its key, and the kind of value it is."""


def _candidates(data: object) -> Iterator[Place]:
    """The places of ``data`` a parameter may replace: ``(mapping, key, kind)``."""
    if isinstance(data, list):
        for item in data:
            yield from _candidates(item)
    elif isinstance(data, dict) and "use" in data:
        # A use of an earlier pattern: its arguments are values too.
        for key, value in data.get("with", {}).items():
            if not str(value).startswith("$"):
                yield data["with"], key, "delay" if isinstance(value, float) else "raise"
    elif isinstance(data, dict):
        for key, value in data.items():
            found = _candidate(data, key, value)
            if found is None:
                yield from _candidates(value)
            else:
                yield found


def _candidate(
    data: dict[str, Any], key: str, value: Any
) -> tuple[dict[str, Any], str, str] | None:
    """The place ``key: value`` of ``data`` holds a parameter may replace, if any."""
    if key == "raise" and isinstance(value, dict):
        return value, "name", "raise"
    if key == "start_timer" and isinstance(value, dict):
        return value, "delay", "delay"
    if key in ("input", "event", "held") and isinstance(value, str):
        return data, key, key
    if key == "anim_finished" and value == "Anim":
        return data, key, "anim_suffix"
    return None


def _states(state: Data) -> Iterator[Data]:
    """``state`` and the states under it, parents first (uses have none under them)."""
    yield state
    for child in state.get("states", []):
        yield from _states(child)


def _reference(name: str, kind: str, form: int) -> str:
    if kind == "anim_suffix":
        return f"An${{{name}}}"  # a reference inside a longer text
    return f"${{{name}}}" if form else f"${name}"


Kinds = dict[tuple[str, str], str]
"""The kind of each parameter drawn, by pattern and parameter, to draw arguments of it."""


@st.composite
def _abstracted(draw: st.DrawFn, state: Data, name: str, kinds: Kinds) -> tuple[Data, Data]:
    """A pattern made of ``state`` and the use of it that stands where ``state`` was."""
    body = copy.deepcopy({k: v for k, v in state.items() if k not in ("name", *_PLACEMENT)})
    params: Data = {}
    arguments: Data = {}
    for number, (holder, key, kind) in enumerate(_candidates(body)):
        if not draw(st.booleans()):
            continue
        param = f"p{number}"
        value = "im" if kind == "anim_suffix" else holder[key]
        holder[key] = _reference(param, kind, draw(st.integers(0, 1)))
        declared: Any = {"type": TYPES.get(kind, "string")}
        if draw(st.booleans()):
            declared["default"] = draw(st.sampled_from(DOMAINS[kind]))
        if "default" not in declared or draw(st.booleans()):
            arguments[param] = value
        params[param] = declared if "default" in declared else declared["type"]
        kinds[(name, param)] = kind
    pattern = {"params": params, **body} if params else body
    use = {"name": state["name"], "use": name, **({"with": arguments} if arguments else {})}
    use.update((key, state[key]) for key in _PLACEMENT if key in state)
    return pattern, use


@st.composite
def _arguments(draw: st.DrawFn, name: str, pattern: Data, kinds: Kinds) -> Data:
    """Arguments for a new use of ``pattern``: each required one, some of the others."""
    found = {}
    for param, declared in pattern.get("params", {}).items():
        required = not isinstance(declared, dict) or "default" not in declared
        if required or draw(st.booleans()):
            found[param] = draw(st.sampled_from(DOMAINS[kinds[(name, param)]]))
    return found


def _replace(root: Data, old: Data, new: Data) -> Data:
    """``root`` with the state ``old`` (itself, not an equal one) replaced by ``new``."""
    if root is old:
        return new
    if "states" in root:
        root["states"] = [_replace(child, old, new) for child in root["states"]]
    return root


def _starts_timer(state: Data, patterns: Data) -> bool:
    """Whether ``state`` or a state under it (through the patterns it uses) starts a timer."""
    body = patterns[state["use"]] if "use" in state else state
    actions = [*body.get("enter", []), *body.get("exit", [])]
    if any("start_timer" in action for action in actions):
        return True
    return any(_starts_timer(child, patterns) for child in body.get("states", []))


@st.composite
def patterned(draw: st.DrawFn) -> Data:
    """The data of a random chart written with patterns (see the module's documentation)."""
    data = to_data(draw(charts()))
    patterns: Data = {}
    kinds: Kinds = {}
    for _ in range(draw(st.integers(1, 6))):
        states = list(_states(data["root"]))
        state = draw(st.sampled_from(states))
        if "use" in state:
            continue
        if patterns and draw(st.booleans()):  # another use of an existing pattern
            if _starts_timer(state, patterns):
                continue  # the state's timer may be one a trigger elsewhere waits for
            name = draw(st.sampled_from(sorted(patterns)))
            use = {"name": state["name"], "use": name}
            arguments = draw(_arguments(name, patterns[name], kinds))
            if arguments:
                use["with"] = arguments
            use.update((key, state[key]) for key in _PLACEMENT if key in state)
        else:
            name = f"P{len(patterns)}"
            patterns[name], use = draw(_abstracted(state, name, kinds))
        data["root"] = _replace(data["root"], state, use)
    return {"version": 1, "name": data["name"], "patterns": patterns, "root": data["root"]}


# -- the oracle: uses written out by hand -------------------------------------------------

_WHOLE = re.compile(r"\$\{?(\w+)\}?")
_ANY = re.compile(r"\$\{(\w+)\}|\$(\w+)")


def _filled(data: Any, arguments: Data) -> Any:
    if isinstance(data, str):
        whole = _WHOLE.fullmatch(data)
        if whole:
            return arguments[whole[1]]
        return _ANY.sub(lambda m: str(arguments[m[1] or m[2]]), data)
    if isinstance(data, dict):
        return {key: _filled(value, arguments) for key, value in data.items()}
    if isinstance(data, list):
        return [_filled(item, arguments) for item in data]
    return data


def _written_state(state: Data, patterns: Data) -> Data:
    if "use" in state:
        pattern = patterns[state["use"]]
        declared = pattern.get("params", {})
        arguments = {k: v["default"] for k, v in declared.items() if isinstance(v, dict)}
        arguments.update(state.get("with", {}))
        body = _filled({k: v for k, v in pattern.items() if k != "params"}, arguments)
        expanded = {"name": state.get("name", state["use"]), **body}
        expanded.update((key, state[key]) for key in _PLACEMENT if key in state)
        state = expanded
    if "states" in state:
        state = {**state, "states": [_written_state(c, patterns) for c in state["states"]]}
    return state


def written_out(data: Data) -> Data:
    """``data`` with every use replaced by its pattern's state, written out by hand."""
    patterns = data.get("patterns", {})
    root = _written_state(data["root"], patterns)
    return {key: value for key, value in {**data, "root": root}.items() if key != "patterns"}
