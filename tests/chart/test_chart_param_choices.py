"""Parameters with choices: a value the host does not know is a load error, located."""

from __future__ import annotations

from pathlib import Path

import pytest

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    ChartError,
    ChartMachine,
    Param,
    loads,
)
from statetree.cli import EXIT_FAILED, EXIT_OK, main
from statetree.errors import DefinitionError

STYLE = Param("style", choices=("hold", "wander", "chase"))
GAME = DEFAULT_REGISTRY.with_actions(
    ActionType("move", (STYLE, Param("speed", float, 1.0, choices=(1, 2.5)))),
)

REGISTRY_FILE = """\
from statetree.chart import DEFAULT_REGISTRY, ActionType, Param

REGISTRY = DEFAULT_REGISTRY.with_actions(
    ActionType("move", (Param("style", choices=("hold", "wander", "chase")),)),
)
"""

CHART = """\
name: Enemy
root:
  name: Top
  states:
    - name: Roam
      enter: [move: wander]
    - name: Hunt
      enter:
        - move: {style: dance}
"""


def test_a_value_among_the_choices_loads_and_reaches_the_handler() -> None:
    chart = loads(CHART.replace("dance", "chase"), "yaml", GAME)
    calls: list[ActionCall] = []
    ChartMachine(chart, {"move": calls.append}).start()
    assert [dict(call.params) for call in calls] == [{"style": "wander", "speed": 1.0}]
    assert dict(chart.root.states[1].enter[0].params) == {"style": "chase", "speed": 1.0}


def test_a_value_outside_the_choices_is_refused_naming_file_line_and_choices() -> None:
    with pytest.raises(ChartError) as caught:
        loads(CHART, "yaml", GAME, file="enemy.yaml")
    error = caught.value
    assert (error.file, error.line, error.path) == (
        "enemy.yaml",
        9,
        "root.states[1].enter[0].move.style",
    )
    assert error.message == "move: 'style' must be one of 'hold', 'wander', 'chase', got 'dance'"


def test_number_choices_compare_by_value() -> None:
    chart = loads(CHART.replace("{style: dance}", "{style: hold, speed: 2.5}"), "yaml", GAME)
    assert dict(chart.root.states[1].enter[0].params) == {"style": "hold", "speed": 2.5}
    with pytest.raises(ChartError) as caught:
        loads(CHART.replace("{style: dance}", "{style: hold, speed: 2}"), "yaml", GAME)
    assert caught.value.message == "move: 'speed' must be one of 1, 2.5, got 2"


def test_statetree_check_reports_the_value_with_the_hosts_registry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("registry.py").write_text(REGISTRY_FILE)
    Path("enemy.yaml").write_text(CHART)

    status = main(["check", "enemy.yaml", "--registry", "registry.py:REGISTRY"])
    out = capsys.readouterr().out

    assert status == EXIT_FAILED
    assert out.splitlines()[1:] == [
        "  error: enemy.yaml:9: move: 'style' must be one of 'hold', 'wander', 'chase', "
        "got 'dance' [chart]",
        "  1 error, 0 warnings",
    ]
    Path("enemy.yaml").write_text(CHART.replace("dance", "hold"))
    assert main(["check", "enemy.yaml", "--registry", "registry.py:REGISTRY"]) == EXIT_OK


def test_the_signature_lists_the_choices() -> None:
    assert GAME.actions["move"].signature == (
        "move(style: 'hold' | 'wander' | 'chase', speed: 1 | 2.5 = 1.0)"
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"choices": ()}, "parameter 'x': choices cannot be empty"),
        ({"choices": ("a", 1)}, "parameter 'x': choice must be a string, got 1"),
        ({"choices": ("a", "b", "a")}, "parameter 'x': choice 'a' is given twice"),
        (
            {"choices": ("a",), "default": "b"},
            "parameter 'x': the default 'b' is not one of the choices",
        ),
        (
            {"type": int, "minimum": 0, "choices": (-1, 2)},
            "parameter 'x': choice must be at least 0, got -1",
        ),
    ],
)
def test_bad_choices_are_refused_when_declared(options: dict[str, object], message: str) -> None:
    with pytest.raises(DefinitionError) as caught:
        Param("x", **options)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_choices_given_as_a_list_are_kept_as_a_tuple_in_order() -> None:
    assert Param("x", choices=["b", "a"]).choices == ("b", "a")  # type: ignore[arg-type]
