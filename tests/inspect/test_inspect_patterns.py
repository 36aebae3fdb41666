"""Patterns in the inspector: marked in the diagram, listed with their uses in the editor,
edited once for every use, or a use detached into plain states."""

from __future__ import annotations

import re
import runpy
import shutil
from pathlib import Path

import pytest

from statetree.chart import ChartError, ChartMachine, Event, Registry, UsedAt, load
from statetree.inspect import ChartFile, EditableChartAdapter, InspectError, adapt

pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")

CHARTS = Path(__file__).resolve().parents[2] / "examples" / "charts"
GAME: Registry = runpy.run_path(str(CHARTS / "game.py"))["REGISTRY"]
STEP = "Character.Alive.ComboAttack.ComboAttack"


def ignore(call: object) -> None:
    pass


@pytest.fixture
def combo(tmp_path: Path) -> EditableChartAdapter:
    """The combo chart, copied, running in an editable adapter, in ComboAttack1.Window."""
    path = tmp_path / "combo_attack.yaml"
    shutil.copyfile(CHARTS / "combo_attack.yaml", path)
    handlers = {action.name: ignore for action in GAME.host_actions()}
    machine = ChartMachine(load(path, GAME), handlers)
    machine.start()
    machine.send(Event("input", "ComboAttackButton"))
    machine.tick(1.0)
    adapter = adapt(machine)
    assert isinstance(adapter, EditableChartAdapter)
    return adapter


def changed_lines(diff: str) -> list[str]:
    """The lines a unified diff adds or removes (its header aside)."""
    lines = diff.splitlines()[2:]
    return [line for line in lines if line[:1] in "+-"]


def line_of(adapter: EditableChartAdapter, text: str) -> int:
    lines = adapter.file.read().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def test_the_diagram_marks_each_use_and_every_state_a_pattern_wrote(
    combo: EditableChartAdapter,
) -> None:
    structure = combo.view().structure
    notes = {info.name: info.note for info in structure.states if info.note}
    assert notes == {
        f"{STEP}{n}{inside}": "«ComboStep»" if not inside else "in «ComboStep»"
        for n in (1, 2)
        for inside in ("", ".Pre", ".Window", ".Post", ".Next")
    }


def test_the_editor_lists_each_pattern_with_its_parameters_and_uses(
    combo: EditableChartAdapter,
) -> None:
    source = combo.source()
    file = str(combo.file.path)
    assert source["patterns"] == [
        {
            "name": "ComboStep",
            "file": file,
            "line": line_of(combo, "ComboStep:"),
            "editable": True,
            "params": [
                {"name": name, "type": kind, "default": None, "minimum": None, "choices": None}
                for name, kind in (
                    ("attack", "string"),
                    ("damage", "number"),
                    ("pre", "number"),
                    ("window", "number"),
                )
            ],
            "uses": [
                {
                    "state": f"{STEP}{n}",
                    "file": file,
                    "line": line_of(combo, f"name: ComboAttack{n}"),
                    "arguments": arguments,
                }
                for n, arguments in (
                    (1, {"attack": "ComboAttack1", "damage": 2.0, "pre": 0.75, "window": 0.5}),
                    (2, {"attack": "ComboAttack2", "damage": 4.0, "pre": 1.0, "window": 0.35}),
                )
            ],
        }
    ]
    assert source["from_pattern"][f"{STEP}2.Window"] == {
        "pattern": "ComboStep",
        "use": f"{STEP}2",
    }
    assert f"{STEP}3" not in source["from_pattern"]
    assert "detach-use" in source["operations"] and "set-arguments" in source["operations"]


def test_a_pattern_is_edited_once_for_every_use(combo: EditableChartAdapter) -> None:
    window = [{"start_timer": {"name": "Window", "delay": "$window"}}, {"raise": "Open"}]
    edit = {"op": "set-actions", "path": "@ComboStep.Window", "kind": "enter", "actions": window}
    prepared = combo.prepare(edit)
    assert changed_lines(prepared.diff) == ["+          - raise: Open"]  # once, in the pattern
    result = combo.commit(prepared)
    chart = combo.chart_machine.chart
    for n in (1, 2):
        state = chart.find(f"{STEP}{n}.Window")
        assert state is not None and [str(a) for a in state.enter][1] == "raise(name='Open')"
    assert result["exited"] == [f"{STEP}1.Window"]  # the active one, re-entered
    assert combo.chart_machine.active[-1] == f"{STEP}1.Window"


def test_a_use_takes_new_arguments(combo: EditableChartAdapter) -> None:
    edit = {
        "op": "set-arguments",
        "path": f"{STEP}2",
        "arguments": {"attack": "ComboAttack2", "damage": 5.0, "pre": 1.0, "window": 0.35},
    }
    combo.commit(combo.prepare(edit))
    state = combo.chart_machine.chart.find(f"{STEP}2")
    assert state is not None and str(state.enter[0]) == (
        "enable_damage_collision(name='ComboAttack2', damage=5.0)"
    )
    assert "damage: 5.0" in combo.file.read()


@pytest.mark.parametrize("arguments", [0, False, "", [], 5])
def test_arguments_that_are_no_mapping_are_refused_not_read_as_none(
    combo: EditableChartAdapter, arguments: object
) -> None:
    before = combo.file.read()
    edit = {"op": "set-arguments", "path": f"{STEP}2", "arguments": arguments}
    with pytest.raises(InspectError) as refused:
        combo.prepare(edit)
    assert str(refused.value) == "'set-arguments' edit needs 'arguments', a mapping or null"
    assert combo.file.read() == before


def test_a_detached_use_is_written_out_and_runs_as_before(combo: EditableChartAdapter) -> None:
    before = combo.chart_machine.chart
    active = combo.chart_machine.active
    result = combo.commit(combo.prepare({"op": "detach-use", "path": f"{STEP}1"}))
    assert result["exited"] == result["entered"] == []
    assert combo.chart_machine.chart == before
    assert combo.chart_machine.active == active
    # Written out as the pattern is written, ComboAttack2 still using it.
    written_out = Path(__file__).parents[1] / "chart" / "patterns" / "combo_written_out.yaml"
    first = written_out.read_text().split("            - name: ComboAttack1\n")[1]
    first = (
        "            - name: ComboAttack1\n" + first.split("            - name: ComboAttack2")[0]
    )
    assert re.sub(r" +#.*", "", first) in combo.file.read()  # its comments aside
    assert combo.file.read().count("use: ComboStep") == 1
    source = combo.source()
    assert [use["state"] for use in source["patterns"][0]["uses"]] == [f"{STEP}2"]
    assert f"{STEP}1.Window" not in source["from_pattern"]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            {"op": "detach-use", "path": f"{STEP}3"},
            f"'{STEP}3' is not a use of a pattern among the chart's states",
        ),
        (
            {"op": "detach-use", "path": "@ComboStep"},
            "'@ComboStep' is not a use of a pattern among the chart's states",
        ),
        (
            {"op": "set-arguments", "path": f"{STEP}3", "arguments": {}},
            f"'{STEP}3' is not a use of a pattern: it has no arguments",
        ),
        (
            {"op": "set-policy", "path": "@Nope.Pre", "policy": None},
            "the chart file defines no pattern 'Nope' (a pattern imported from another file "
            "is edited in that file)",
        ),
        (
            {"op": "detach-use", "path": f"{STEP}1.Pre"},
            f"'{STEP}1.Pre' is a state of pattern 'ComboStep', used at '{STEP}1': edit the "
            "pattern (@ComboStep) or detach the use to edit its states here",
        ),
        (
            {"op": "set-policy", "path": f"{STEP}1.Nope.Deeper", "policy": None},
            f"'{STEP}1.Nope.Deeper' is a state of pattern 'ComboStep', used at '{STEP}1': edit "
            "the pattern (@ComboStep) or detach the use to edit its states here",
        ),
        (
            {"op": "rename-state", "path": "@ComboStep", "name": "X"},
            "'@ComboStep' takes its name from each use of it: rename a use instead",
        ),
    ],
)
def test_malformed_pattern_edits_are_refused_and_nothing_is_saved(
    combo: EditableChartAdapter, edit: dict[str, object], message: str
) -> None:
    before = combo.file.read()
    with pytest.raises(InspectError) as caught:
        combo.prepare(edit)
    assert str(caught.value) == message
    assert combo.file.read() == before


def test_a_pattern_edit_that_breaks_a_use_names_the_pattern_line_and_the_uses(
    combo: EditableChartAdapter,
) -> None:
    before = combo.file.read()
    edit = {
        "op": "set-transitions",
        "path": "@ComboStep.Pre",
        "transitions": [{"on": {"timer": "Pre"}, "to": "Windw"}],
    }
    with pytest.raises(ChartError) as caught:
        combo.prepare(edit)
    # Once per use: at the transition's line in the pattern (as edited), naming the use.
    line = line_of(combo, "{on: {timer: Pre}, to: Window}")
    file = str(combo.file.path)
    assert [(p.file, p.line, p.path, p.message, p.uses) for p in caught.value.problems] == [
        (
            file,
            line,
            "patterns.ComboStep.states[0].transitions[0].to",
            f"unknown state 'Windw' in a transition of {STEP}{n}.Pre; it can go to its "
            "siblings: Pre, Window, Post, Next",
            (UsedAt("ComboStep", file, line_of(combo, f"name: ComboAttack{n}")),),
        )
        for n in (1, 2)
    ]
    assert combo.file.read() == before


def test_a_chart_file_alone_shows_its_patterns(tmp_path: Path) -> None:
    path = tmp_path / "combo_attack.yaml"
    shutil.copyfile(CHARTS / "combo_attack.yaml", path)
    assert ChartFile(path, GAME).load(path.read_text()).patterns[0].name == "ComboStep"
