"""Hypothesis strategies for charts: random valid charts and random event scripts."""

from __future__ import annotations

import functools
import json
from typing import Any

from hypothesis import strategies as st

from statetree.chart import (
    ActionDef,
    Chart,
    Condition,
    Event,
    ScriptStep,
    StateDef,
    dump_json,
    dump_yaml,
    to_data,
)
from statetree.chart import builder as b
from statetree.chart.policy import DEFINITIONS, PolicyDef

NAMES = ("A", "B", "C", "D")
TRIGGERS = (
    b.input("X"),
    b.input("Y"),
    b.event("E"),
    b.event("F"),
    b.anim_finished("Anim"),
    b.held("H"),
    b.timer("T"),
)
ACTIONS = (b.raise_event("E"), b.raise_event("F"), b.clear_history(), b.start_timer("T", 0.5))
MAX_DEPTH = 3


@functools.cache  # strategies are immutable: build each once, not per draw
def conditions(depth: int = 2) -> st.SearchStrategy[Condition]:
    """Triggers, and all / any / not of them, ``depth`` levels deep at most."""
    leaves: st.SearchStrategy[Condition] = st.sampled_from(TRIGGERS)
    if depth == 0:
        return leaves
    inner = conditions(depth - 1)
    return st.one_of(
        leaves,
        st.lists(inner, min_size=1, max_size=2).map(lambda items: b.all_of(*items)),
        st.lists(inner, min_size=1, max_size=2).map(lambda items: b.any_of(*items)),
        inner.map(b.not_),
    )


@functools.cache
def actions() -> st.SearchStrategy[tuple[ActionDef, ...]]:
    return st.lists(st.sampled_from(ACTIONS), max_size=2).map(tuple)


@functools.cache
def _some_conditions() -> st.SearchStrategy[tuple[Condition, ...]]:
    return st.lists(conditions(), min_size=1, max_size=2).map(tuple)


@st.composite
def states(
    draw: st.DrawFn,
    name: str,
    parent: PolicyDef | None,
    *,
    siblings: tuple[str, ...] = (),
    index: int = 0,
    depth: int = 0,
) -> StateDef:
    """A state valid as child ``index`` of ``siblings`` under a parent of policy ``parent``
    (``None``: the root): it has the parts the policy reads of it, at random, and those it
    needs always."""
    count = len(siblings)
    reads = () if parent is None else parent.parts_read(index, count)
    needs = () if parent is None or index == count - 1 else [part for part, _ in parent.needs]
    some = _some_conditions()

    def part(key: str) -> tuple[Condition, ...]:
        if key not in reads:
            return ()
        return draw(some if key in needs else st.one_of(st.just(()), some))

    pre, post = part("pre"), part("post")
    transitions = ()
    if "transitions" in reads:
        targets = st.sampled_from(siblings)
        pairs = st.lists(st.tuples(conditions(), targets), max_size=2)
        transitions = tuple(b.on(condition, to) for condition, to in draw(pairs))
    children: tuple[StateDef, ...] = ()
    policy = None
    count = draw(st.integers(0, 3)) if depth < MAX_DEPTH else 0
    if count:
        chosen = draw(st.sampled_from(list(DEFINITIONS.values())))
        policy = chosen.policy
        names = NAMES[:count]
        children = tuple(
            draw(states(child, chosen, siblings=names, index=position, depth=depth + 1))
            for position, child in enumerate(names)
        )
    return StateDef(
        name, policy, children, pre, post, draw(actions()), draw(actions()), transitions
    )


@st.composite
def charts(draw: st.DrawFn) -> Chart:
    """A random valid chart (its root starts the timer its triggers may use)."""
    root = draw(states("Root", None))
    root = StateDef(
        root.name, root.policy, root.states, enter=(b.start_timer("T", 0.5), *root.enter),
        exit=root.exit,
    )  # fmt: skip
    return b.chart("Random", root)


def steps() -> st.SearchStrategy[ScriptStep]:
    """One step of a script: any event the random charts react to, or a tick."""
    events = [Event(t.type, t.name) for t in TRIGGERS if t.type not in ("held", "timer")]
    return st.one_of(
        st.sampled_from(events).map(lambda event: ScriptStep("send", event)),
        st.sampled_from(("hold", "release")).map(
            lambda kind: ScriptStep(kind, Event("held", "H"))  # type: ignore[arg-type]
        ),
        st.sampled_from((0.25, 0.5, 1.0)).map(lambda dt: ScriptStep("tick", dt=dt)),
    )


# -- malformed charts: valid ones, then mutated ---------------------------------------------

FORMATS = ("yaml", "json", "toml")

# Pieces of text that each format's parser, or the chart loader, must refuse cleanly.
HOSTILE = (
    "\x00", "\ufeff", "\ud800", "\t", "\n", "  ", "#", ",", ":", ": ", "- ", "=", ".", "\\",
    "&a ", "*a", "<<: ", "!State ", "!!omap ", "!!python/object:os.system ", "---\n", "? ",
    "[", "]", "{", "}", "[[", "]]", '"', "'", '"""', "'''", "[" * 70, "{a: " * 70,
    "1" * 120, "-1", ".nan", ".inf", "1e400", "NaN", "Infinity", "0x1F", "1_000", "~", "null",
    "true", "2001-12-14", "a.b.c", "a" + ".a" * 70,
)  # fmt: skip


# Characters for random text: syntax of every format, letters, digits, non-ASCII.
ALPHABET = "aAzZ_09 .,:;-=+#!&*?|<>[]{}()\"'\\\t\n\ré€😀"


def toml_text(data: object) -> str:
    """``data`` (a chart's plain data) as TOML: top-level keys, inline values."""

    def inline(value: object) -> str:
        if isinstance(value, dict):
            return "{ " + ", ".join(f"{key} = {inline(item)}" for key, item in value.items()) + " }"
        if isinstance(value, list):
            return "[\n" + "".join(f"  {inline(item)},\n" for item in value) + "]"
        return json.dumps(value)

    assert isinstance(data, dict)
    return "".join(f"{key} = {inline(value)}\n" for key, value in data.items())


def chart_text(chart: Chart, format: str) -> str:
    """``chart`` written in ``format``."""
    if format == "yaml":
        return dump_yaml(chart)
    if format == "json":
        return dump_json(chart)
    return toml_text(to_data(chart))


@st.composite
def text_mutations(draw: st.DrawFn, text: str) -> str:
    """``text`` with one to three pieces deleted, duplicated or spliced in."""
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 40)))
        kind = draw(st.sampled_from(("delete", "duplicate", "splice", "splice")))
        if kind == "delete":
            text = text[:start] + text[end:]
        elif kind == "duplicate":
            text = text[:end] + text[start:end] + text[end:]
        else:
            piece = draw(st.one_of(st.sampled_from(HOSTILE), st.text(ALPHABET, max_size=4)))
            text = text[:start] + piece + text[end:]
    return text


@st.composite
def mutated_texts(draw: st.DrawFn) -> tuple[str, str]:
    """A random chart's text in a random format, then mutated: ``(format, text)``."""
    format = draw(st.sampled_from(FORMATS))
    return format, draw(text_mutations(chart_text(draw(charts()), format)))


def odd_values() -> st.SearchStrategy[object]:
    """Values of every kind a chart's data may hold where another kind is expected."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.text(ALPHABET, max_size=6),
        st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(("A", "Root", "T")),
    )  # fmt: skip
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.text(ALPHABET, max_size=5), inner, max_size=3),
        ),
        max_leaves=6,
    )


def _places(data: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    places = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            places += _places(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            places += _places(value, (*path, index))
    return places


@st.composite
def mutated_data(draw: st.DrawFn, base: st.SearchStrategy[Any] | None = None) -> object:
    """A random chart's plain data (drawn from ``base``, by default from :func:`charts`) with
    one place deleted, retyped, renamed or duplicated."""
    data = draw(base) if base is not None else to_data(draw(charts()))
    path = draw(st.sampled_from(_places(data)[1:]))
    *outer, last = path
    parent: Any = data
    for part in outer:
        parent = parent[part]
    kind = draw(st.sampled_from(("delete", "retype", "rename", "duplicate")))
    if kind == "delete":
        del parent[last]
    elif kind == "retype":
        parent[last] = draw(odd_values())
    elif kind == "rename" and isinstance(parent, dict):
        parent[draw(st.text(ALPHABET, max_size=6))] = parent.pop(last)
    elif isinstance(parent, list):
        parent.insert(int(str(last)), parent[int(str(last))])
    return data
