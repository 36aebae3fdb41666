"""Charts in the inspector: watched like any machine, edited from the page and reloaded."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from chart_platformer import REGISTRY as PLATFORMER
from inspector_demo import platformer

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionType,
    ChartError,
    ChartMachine,
    Event,
    HandlerError,
    Param,
    from_data,
    load,
)
from statetree.inspect import (
    ChartAdapter,
    ChartFile,
    EditableChartAdapter,
    Hub,
    InspectError,
    adapt,
    capabilities,
)
from statetree.inspect.adapters import Event as Line
from statetree.inspect.watcher import Watcher

CHARTS = Path(__file__).resolve().parents[2] / "examples" / "charts"
pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")


@pytest.fixture
def attack(tmp_path: Path) -> Path:
    """A copy of the basic attack chart (YAML, with comments) to edit."""
    path = tmp_path / "basic_attack.yaml"
    shutil.copyfile(CHARTS / "basic_attack.yaml", path)
    return path


GAME = DEFAULT_REGISTRY.with_actions(
    ActionType("play_animation", (Param("name"), Param("loop", bool, False))),
    ActionType("play_sound", (Param("name"), Param("loop", bool, False))),
    ActionType("enable_damage_collision", (Param("name"), Param("damage", float))),
    ActionType("disable_damage_collision", (Param("name"),)),
    ActionType("shake_camera"),
)
"""The host actions of the attack charts (as in examples/charts/game.py), and one more."""


def ignore(call: object) -> None:
    pass


def machine_of(path: Path) -> ChartMachine:
    # No handler for shake_camera: a chart edited to use it is refused by the machine.
    handlers = {a.name: ignore for a in GAME.host_actions() if a.name != "shake_camera"}
    return ChartMachine(load(path, GAME), handlers)


def test_a_chart_from_a_file_is_editable_one_from_data_is_not(attack: Path) -> None:
    from_file = adapt(machine_of(attack))
    in_memory = adapt(ChartMachine(from_data({"version": 1, "name": "A", "root": {"name": "R"}})))

    assert isinstance(from_file, EditableChartAdapter)
    assert capabilities(from_file) == ["edit", "events"]
    assert type(in_memory) is ChartAdapter
    assert capabilities(in_memory) == ["events"]


def test_chart_states_steps_and_actions(attack: Path) -> None:
    machine = machine_of(attack)
    adapter = ChartAdapter(machine)
    seen: list[Any] = []
    adapter.attach(seen.append)
    machine.send(Event("input", "BasicAttackButton"))

    assert adapter.view().structure.names == (
        "Character",
        "Character.BasicAttack",
        "Character.Idle",
    )
    assert adapter.active() == ("Character", "Character.BasicAttack")
    lines = [adapter.describe(raw) for raw in seen]
    assert lines[:3] == [
        Line("enter", "Init", "Character", 0),
        Line("enter", "Inner", "Character.Idle", 1),
        Line("action", "play_animation", "Character.Idle", -1, "enter(name='Idle', loop=True)"),
    ]
    assert Line("exit", "Pop", "Character.Idle", 1) in lines
    adapter.detach()
    assert machine.machine._listeners() == ()
    assert machine.machine.owner.listener is None


def test_a_rename_keeps_the_comments_and_follows_transitions(tmp_path: Path) -> None:
    path = tmp_path / "platformer.yaml"
    shutil.copyfile(CHARTS / "platformer.yaml", path)
    file = ChartFile(path, PLATFORMER)

    prepared = file.prepare({"op": "rename-state", "path": "Hero.Arms.Aiming", "name": "Aim"})

    changed = [line for line in prepared.diff.splitlines() if line[:1] in "+-"]
    assert changed == [
        "--- a/platformer.yaml",
        "+++ b/platformer.yaml",
        "-            - {on: {held: Aim}, to: Aiming}",
        "-        - name: Aiming",
        "+            - {on: {held: Aim}, to: Aim}",
        "+        - name: Aim",
        "-            - {on: {timer: Reload}, to: Aiming}",
        "+            - {on: {timer: Reload}, to: Aim}",
    ]
    assert prepared.text.startswith("# A platformer hero whose upper and lower body")
    assert path.read_text() == (CHARTS / "platformer.yaml").read_text()


def added_lines(file: ChartFile, edit: dict[str, Any]) -> list[str]:
    return [line for line in file.prepare(edit).diff.splitlines() if line.startswith("+ ")]


def test_every_structured_edit(attack: Path, tmp_path: Path) -> None:
    file = ChartFile(attack, GAME)
    arms = tmp_path / "platformer.yaml"
    shutil.copyfile(CHARTS / "platformer.yaml", arms)
    platformer_file = ChartFile(arms, PLATFORMER)

    assert added_lines(file, {"op": "add-state", "path": "Character.Idle", "name": "Breathe"}) == [
        "+      states:",
        "+        - name: Breathe",
    ]
    assert added_lines(
        file,
        {
            "op": "set-actions",
            "path": "Character.Idle",
            "kind": "exit",
            "actions": ["clear_history"],
        },
    ) == ["+      exit:", "+        - clear_history"]
    assert added_lines(
        file,
        {
            "op": "set-conditions",
            "path": "Character.BasicAttack",
            "kind": "pre",
            "conditions": {"input": "B"},
        },
    ) == ["+      pre:", "+        input: B"]
    assert added_lines(file, {"op": "remove-state", "path": "Character.BasicAttack"}) == []
    assert added_lines(
        platformer_file, {"op": "set-policy", "path": "Hero.Arms", "policy": "explicit"}
    ) == ["+      policy: explicit"]
    transitions = [{"on": {"input": "Attack"}, "to": "Slashing"}]
    assert added_lines(
        platformer_file,
        {"op": "set-transitions", "path": "Hero.Arms.Aiming", "transitions": transitions},
    ) == ["+            - on:", "+                input: Attack", "+              to: Slashing"]


def test_a_bad_edit_gets_the_loaders_error_and_saves_nothing(attack: Path) -> None:
    file = ChartFile(attack, GAME)
    before = attack.read_text()

    with pytest.raises(ChartError) as caught:
        file.prepare({"op": "set-policy", "path": "Character", "policy": "random"})

    assert str(caught.value).startswith(f"{attack}:7 at root.policy: ")
    assert attack.read_text() == before


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            {"op": "explode"},
            "unknown chart edit 'explode'; expected one of: replace-text, "
            "rename-state, add-state, remove-state, move-state, set-policy, add-transition, "
            "set-conditions, set-actions, set-transitions",
        ),
        (
            {"op": "rename-state", "path": "Character.Nope", "name": "X"},
            "the chart has no state 'Character.Nope'",
        ),
        (
            {"op": "rename-state", "path": "Character.Idle"},
            "'rename-state' edit needs 'name', a non-empty string",
        ),
        (
            {"op": "remove-state", "path": "Character"},
            "'Character' is the chart's root: it cannot be removed",
        ),
        (
            {"op": "set-actions", "path": "Character", "kind": "during", "actions": []},
            "'kind' must be one of enter, exit; got 'during'",
        ),
        (
            {"op": "set-policy", "path": "Character", "policy": "priority"},
            "the edit changes nothing",
        ),
    ],
)
def test_malformed_edits_are_refused(attack: Path, edit: dict[str, Any], message: str) -> None:
    with pytest.raises(InspectError) as caught:
        ChartFile(attack, GAME).prepare(edit)
    assert str(caught.value) == message


def test_toml_and_json_charts(tmp_path: Path) -> None:
    toml, json_file = tmp_path / "a.toml", tmp_path / "a.json"
    shutil.copyfile(CHARTS / "basic_attack.toml", toml)
    shutil.copyfile(CHARTS / "basic_attack.json", json_file)

    with pytest.raises(InspectError) as caught:
        ChartFile(toml).prepare({"op": "add-state", "path": "Character", "name": "B"})
    assert str(caught.value) == (
        "TOML charts are edited as text only (no TOML writer keeps the file): use replace-text"
    )
    text = toml.read_text().replace('name = "Idle"', 'name = "Rest"')
    assert '+name = "Rest"' in ChartFile(toml).prepare({"op": "replace-text", "text": text}).diff
    renamed = ChartFile(json_file).prepare(
        {"op": "rename-state", "path": "Character.Idle", "name": "Rest"}
    )
    assert '+        "name": "Rest",' in renamed.diff.splitlines()


def test_commit_reloads_the_running_machine_then_saves(attack: Path) -> None:
    machine = machine_of(attack)
    adapter = adapt(machine)
    assert isinstance(adapter, EditableChartAdapter)
    hub = Hub([adapter])
    hub.watch(Watcher(), [hub.ids[0]])
    machine.start()

    prepared = adapter.prepare({"op": "rename-state", "path": "Character.Idle", "name": "Rest"})
    result = hub.call(lambda: adapter.commit(prepared)).result()

    assert result == {
        "diff": prepared.diff,
        "step": "edit",
        "kept": ["Character"],
        "exited": ["Character.Idle"],
        "entered": ["Character.Rest"],
    }
    assert machine.active == ("Character", "Character.Rest")
    assert "- name: Rest            # the ground state: no pre-condition" in attack.read_text()
    rows = hub.flush()
    assert rows[-1][3:] == ("edit", "Reloaded", "", -1, "kept Character; exited Idle; entered Rest")


def test_a_refused_reload_saves_nothing(attack: Path) -> None:
    machine = machine_of(attack)
    adapter = adapt(machine)
    assert isinstance(adapter, EditableChartAdapter)
    before = attack.read_text()
    prepared = adapter.prepare(
        {"op": "set-actions", "path": "Character.Idle", "kind": "exit", "actions": ["shake_camera"]}
    )

    with pytest.raises(HandlerError):
        adapter.commit(prepared)
    assert attack.read_text() == before


def test_the_demo_edits_a_copy_of_its_chart(tmp_path: Path) -> None:
    adapter = platformer(tmp_path / "platformer.yaml")

    assert adapter.source()["states"][:3] == ["Hero", "Hero.Legs", "Hero.Legs.Jumping"]
    assert (tmp_path / "platformer.yaml").read_text() == (CHARTS / "platformer.yaml").read_text()
