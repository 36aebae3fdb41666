"""The Python builder follows the rules of a chart file, and names a mistake where it is made."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionType,
    ChartError,
    ChartMachine,
    Param,
    dump_json,
    dump_yaml,
    from_data,
    loads,
    to_data,
)
from statetree.chart import builder as b
from statetree.chart.model import StateDef

MISTAKES: list[tuple[Callable[[], object], str]] = [
    (
        lambda: b.state("R", b.state("A.B"), b.state("A", b.state("B"))),
        "a state's name: a name must be ASCII letters, digits and _, not starting with a "
        "digit, got 'A.B'",
    ),
    (
        lambda: b.state("a b"),
        "a state's name: a name must be ASCII letters, digits and _, not starting with a "
        "digit, got 'a b'",
    ),
    (lambda: b.state(5), "a state's name: a name must be ASCII letters"),  # type: ignore[arg-type]
    (lambda: b.chart("X", "R"), "a chart's root must be a state (b.state(...)), got 'R'"),  # type: ignore[arg-type]
    (lambda: b.state("R", "A"), "the states of state 'R' must hold StateDef, got 'A'"),  # type: ignore[arg-type]
    (lambda: b.on("Go", "B"), "a transition's condition must be a condition"),  # type: ignore[arg-type]
    (lambda: b.state("R", pre="Go"), "the pre of state 'R' must be a list, got 'Go'"),
    (
        lambda: b.state("R", enter=["clear_history"]),  # type: ignore[list-item]
        "the enter of state 'R' must hold ActionDef, got 'clear_history'",
    ),
    (
        lambda: b.state("R", enter=b.raise_event("E")),  # type: ignore[arg-type]
        "the enter of state 'R' must be a list, got ActionDef(",
    ),
    (lambda: b.state("R", b.state("A"), policy="random"), "the policy of state 'R' is one of"),
    (
        lambda: b.state("R", policy="priority"),
        "'R' is a priority state with no children; give it 'states' or remove its policy",
    ),
    (lambda: b.state("R", policy="explicit"), "'R' is an explicit state with no children"),
    (b.all_of, "all_of() needs at least one condition"),
    (b.any_of, "any_of() needs at least one condition"),
    (lambda: b.input("no way!"), "the name of a 'input' trigger: a name must be ASCII letters"),
    (lambda: b.on(b.input("Go"), "Some.Where"), "'to': a name must be ASCII letters"),
]


@pytest.mark.parametrize(("build", "message"), MISTAKES)
def test_a_mistake_is_a_chart_error_where_it_is_made(
    build: Callable[[], object], message: str
) -> None:
    with pytest.raises(ChartError) as refused:
        build()

    assert str(refused.value).startswith(f"<data>: {message}")  # built in Python


def test_what_the_builder_makes_saves_loads_and_writes_as_a_file_would() -> None:
    chart = b.chart(
        "Guard",
        b.state(
            "Top",
            b.state("Idle", transitions=[b.on(b.all_of(b.input("Go"), b.held("Ready")), "Busy")]),
            b.state("Busy", enter=[b.start_timer("Rest", 1.0)], transitions=[
                b.on(b.timer("Rest"), "Idle")
            ]),
        ),
    )  # fmt: skip
    machine = ChartMachine(chart)
    machine.start()

    assert from_data(to_data(chart)) == chart
    assert pickle.loads(pickle.dumps(machine)).active == machine.active


def _chain(depth: int) -> StateDef:
    """``depth`` states, each the only child of the one before; the last has a transition."""
    state = b.state("Leaf", b.state("A", transitions=[b.on(b.input("X"), "B")]), b.state("B"))
    for level in range(depth - 2):
        state = b.state(f"P{level}", state)
    return state


def test_a_chart_too_deep_for_a_file_is_refused_at_build_and_the_deepest_loads_back() -> None:
    deepest = None
    for depth in (2, 10, 29, 30, 31, 1200):
        try:
            deepest = (depth, b.chart("Deep", _chain(depth)))
        except ChartError as error:
            assert depth > 30
            assert "would nest more than 64 levels deep (a chart 30 states deep fits)" in str(error)
    assert deepest is not None and deepest[0] == 30
    chart = deepest[1]
    for text, format in ((dump_yaml(chart), "yaml"), (dump_json(chart), "json")):
        assert loads(text, format) == chart


def test_a_string_no_chart_file_may_hold_is_refused_built_or_given_as_data() -> None:
    registry = DEFAULT_REGISTRY.with_actions(ActionType("say", (Param("text"),)))
    said = {"name": "C", "root": {"name": "C", "enter": [{"say": {"text": "a\x00b"}}]}}
    message = r"the character U\+0000 in 'a\\x00b' is not allowed in a chart"
    with pytest.raises(ChartError, match=message):
        from_data(said, registry)
    with pytest.raises(ChartError, match=message):
        b.chart("C", b.state("C", enter=[b.action("say", text="a\x00b")]), registry=registry)
    fine = from_data({**said, "root": {"name": "C", "enter": [{"say": {"text": "ab"}}]}}, registry)
    assert loads(dump_json(fine), "json", registry) == fine  # what exists always loads back
