"""A chart run without its host: the types it uses stand in for the host's registry."""

from __future__ import annotations

from pathlib import Path

import pytest
from chart_samples import CHARTS

from statetree.chart import ChartError, ChartWatcher, loads
from statetree.chart.session import ChartSession, watch
from statetree.chart.stand_in import loads_stand_in, stand_in_names

BASIC = (CHARTS / "basic_attack.yaml").read_text()


def test_the_scalar_of_an_unknown_action_is_kept_as_its_value() -> None:
    chart = loads(BASIC, "yaml", check_types=False)

    exit_action = chart.root.states[0].exit[0]
    assert (exit_action.type, exit_action.params) == (
        "disable_damage_collision",
        (("value", "BasicAttack"),),
    )


def test_host_types_are_taken_as_the_chart_uses_them() -> None:
    chart = loads_stand_in(BASIC, "yaml", file="basic.yaml")

    assert stand_in_names(chart) == (
        "play_animation",
        "play_sound",
        "enable_damage_collision",
        "disable_damage_collision",
    )
    actions = chart.registry.actions
    assert actions["enable_damage_collision"].signature == (
        "enable_damage_collision(name: string, damage: number)"
    )
    # Written as a scalar, the one parameter of a stand-in type is "value".
    assert (
        actions["disable_damage_collision"].signature == "disable_damage_collision(value: string)"
    )
    assert chart.root.states[0].exit[0].arguments == {"value": "BasicAttack"}


def test_everything_built_in_is_still_checked_with_every_problem() -> None:
    text = BASIC.replace("    - name: Idle ", "    - name: Idle\n      pre: {input: Rest}\n ")
    text = text.replace("exit:", "exit:\n        - start_timer: {name: T, delay: soon}")

    with pytest.raises(ChartError) as caught:
        loads_stand_in(text, "yaml", file="bad.yaml")

    messages = [problem.message for problem in caught.value.problems]
    assert messages == [
        "start_timer: 'delay' must be a number, got 'soon'",
        "priority state Character has no ground state: its last child Idle has a "
        "pre-condition; add a last child without one, chosen when no other is",
    ]


def test_a_session_without_its_host_reloads_a_chart_with_new_action_types(tmp_path: Path) -> None:
    path = tmp_path / "basic.yaml"
    path.write_text(BASIC)
    out: list[str] = []
    session = ChartSession(loads_stand_in(BASIC, "yaml", file=str(path)), out.append)
    watcher = ChartWatcher(path, None, mtime=lambda _: len(path.read_text()))
    session.play([])
    edited = BASIC.replace("play_sound:", "shake_camera: {strength: 2}\n        - play_sound:")

    def lines() -> object:
        path.write_text(edited)
        yield None
        yield "input BasicAttackButton\n"

    out.clear()
    watch(session, watcher, lines())  # type: ignore[arg-type]

    assert out[:3] == [
        f"> reload {path}",
        "  exited: -",
        "  entered: -",
    ]
    assert "  enter Character.BasicAttack: shake_camera(strength=2)" in out
    assert not [line for line in out if line.startswith("!")]


def test_typed_lines_are_numbered_and_a_bad_one_is_reported(tmp_path: Path) -> None:
    out: list[str] = []
    session = ChartSession(loads_stand_in(BASIC, "yaml"), out.append)
    prompts: list[int] = []

    watch(
        session,
        None,
        iter(["input BasicAttackButton\n", None, "inpt Jump\n", "tick 0.1\n"]),
        lambda: prompts.append(len(out)),
    )

    errors = [line for line in out if line.startswith("!")]
    assert errors == [
        "! <stdin>:2: unknown event kind 'inpt' (did you mean 'input'?); this chart's kinds "
        "are input, anim_finished, timer, event, held (and tick, hold, release)"
    ]
    assert out[-1] == "> tick 0.1"
    # A prompt before the first line, and after each line played: never while none came.
    assert len(prompts) == 4
    assert prompts[2] == out.index(errors[0]) + 1


MIXED = """\
name: Mixed
root:
  name: R
  enter: [{play: {x: true, y: 1}}, {play: {x: "a", y: 2.5}}, {play: {x: 3}}]
"""


def test_a_parameter_given_values_of_several_types_takes_each_as_given() -> None:
    chart = loads_stand_in(MIXED, "yaml", file="mixed.yaml")

    play = chart.registry.actions["play"]
    assert [(param.name, param.type, param.default) for param in play.params] == [
        ("x", str, None),  # of three types: any value fits
        ("y", float, 0.0),  # numbers: a number, left out once
    ]
    assert [action.arguments for action in chart.root.enter] == [
        {"x": True, "y": 1},
        {"x": "a", "y": 2.5},
        {"x": 3, "y": 0.0},
    ]


@pytest.mark.parametrize(
    ("enter", "message"),
    [
        ('[{play: {"": Idle}}]', "play() has no parameter ''"),
        ('[{"": x}]', "unknown action type ''"),
        ("[{boom: [1, 2]}]", "a parameter is a scalar, got a list"),
    ],
)
def test_names_no_type_may_have_are_the_charts_problems_where_they_are(
    enter: str, message: str
) -> None:
    text = f"name: Odd\nroot:\n  name: R\n  enter: {enter}\n"
    with pytest.raises(ChartError) as caught:
        loads_stand_in(text, "yaml", file="odd.yaml")
    (problem,) = caught.value.problems
    assert (problem.message.split("; known")[0], problem.line) == (message, 4)
