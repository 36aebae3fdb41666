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
from statetree.chart.policy import DEFINITIONS
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
    ) == ["+      pre: {input: B}"]  # written as the other pre-conditions are
    assert added_lines(file, {"op": "remove-state", "path": "Character.BasicAttack"}) == []
    assert added_lines(
        platformer_file, {"op": "set-policy", "path": "Hero.Arms", "policy": "explicit"}
    ) == ["+      policy: explicit"]
    transitions = [{"on": {"input": "Attack"}, "to": "Slashing"}]
    assert added_lines(
        platformer_file,
        {"op": "set-transitions", "path": "Hero.Arms.Aiming", "transitions": transitions},
    ) == ["+            - {on: {input: Attack}, to: Slashing}"]  # as the file writes them


def test_a_bad_edit_gets_the_loaders_error_and_saves_nothing(attack: Path) -> None:
    file = ChartFile(attack, GAME)
    before = attack.read_text()

    with pytest.raises(ChartError) as caught:
        file.prepare({"op": "set-policy", "path": "Character", "policy": "random"})

    assert str(caught.value).startswith(f"{attack}:7 at root.policy: ")
    assert attack.read_text() == before


def _nested(depth: int) -> Any:
    """A condition nested ``depth`` deep (deeper than the recursion of a writer)."""
    condition: Any = {"input": "Go"}
    for _ in range(depth):
        condition = {"not": condition}
    return condition


class _Half(float):
    """A float of the program's own (NumPy's and enums' values are subclasses too)."""


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            {"op": "explode"},
            "unknown chart edit 'explode'; expected one of: replace-text, "
            "rename-state, add-state, remove-state, move-state, set-policy, add-transition, "
            "set-conditions, set-actions, set-transitions, set-arguments, detach-use, undo, redo",
        ),
        (
            {"op": "rename-state", "path": "Character.Nope", "name": "X"},
            "the chart has no state 'Character.Nope'",
        ),
        (
            {"op": "rename-state", "path": "Character.Idle", "name": "X", "bogus": 1},
            "'rename-state' edit has unexpected field(s): bogus",
        ),
        (
            {"op": "replace-text", "text": "version: 1\n", "path": "Character", "ref": 1},
            "'replace-text' edit has unexpected field(s): path, ref",
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
        (
            {"op": "set-policy", "path": "Character"},  # cut short: not "remove the policy"
            "'set-policy' edit needs 'policy', a policy's name or null",
        ),
        (None, "a chart edit is a mapping with an 'op', got None"),
        (["rename-state"], "a chart edit is a mapping with an 'op', got ['rename-state']"),
        (
            {"op": "set-actions", "path": "Character", "kind": "enter", "actions": [{1: 2}]},
            "'set-actions' edit has a key that is no string: 1",
        ),
        (
            {"op": "set-actions", "path": "Character", "kind": "enter", "actions": [b"x"]},
            "'set-actions' edit holds b'x' (a bytes), which no chart file can: values are "
            "mappings, lists, strings, numbers, booleans or null",
        ),
        (  # a subclass of a JSON type (an enum's, NumPy's) is not written as one
            {"op": "set-actions", "path": "Character", "kind": "enter", "actions": [_Half(0.5)]},
            "'set-actions' edit holds 0.5 (a _Half), which no chart file can: values are "
            "mappings, lists, strings, numbers, booleans or null",
        ),
        (
            {"op": "set-actions", "path": "Character", "kind": "enter", "actions": [10**1000]},
            "'set-actions' edit holds an integer of more than 1000 digits",
        ),
        (
            {"op": "set-arguments", "path": "Character"},  # cut short: not "remove them"
            "'set-arguments' edit needs 'arguments', a mapping or null",
        ),
        (
            {"op": "rename-state", "path": "Character.Idle", "name": "Idle\ud800"},
            "the character U+D800 in 'Idle\\ud800' is not allowed in a chart (control "
            "characters and lone surrogates are not text)",
        ),
        (
            {"op": "add-transition", "path": "Character", "on": _nested(1000), "to": "Idle"},
            "'add-transition' edit's values nest more than 64 levels deep",
        ),
    ],
)
def test_malformed_edits_are_refused(attack: Path, edit: Any, message: str) -> None:
    before = attack.read_text()
    with pytest.raises(InspectError) as caught:
        ChartFile(attack, GAME).prepare(edit)
    assert str(caught.value) == message
    assert attack.read_text() == before


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


def test_a_handler_raising_in_the_reload_is_the_programs_error_and_saves_nothing(
    attack: Path,
) -> None:
    def shake(call: object) -> None:
        raise RuntimeError("the camera is gone")

    handlers = {a.name: ignore for a in GAME.host_actions() if a.name != "shake_camera"}
    machine = ChartMachine(load(attack, GAME), {**handlers, "shake_camera": shake})
    machine.start()
    adapter = adapt(machine)
    assert isinstance(adapter, EditableChartAdapter)
    before, chart, active = attack.read_text(), machine.chart, machine.active
    shaking = {"op": "set-actions", "path": "Character.Idle", "kind": "enter"}
    prepared = adapter.prepare({**shaking, "actions": ["shake_camera"]})

    with pytest.raises(InspectError) as refused:
        adapter.commit(prepared)  # Idle changed, so it is entered again: its action raises
    assert str(refused.value) == (
        "the machine did not take the edit: a handler raised RuntimeError: the camera is gone "
        "while it reloaded (the machine is as it was; nothing was saved)"
    )
    assert attack.read_text() == before
    assert machine.chart is chart and machine.active == active


def test_the_demo_edits_a_copy_of_its_chart(tmp_path: Path) -> None:
    adapter = platformer(tmp_path / "platformer.yaml")

    assert adapter.source()["states"][:3] == ["Hero", "Hero.Legs", "Hero.Legs.Jumping"]
    assert (tmp_path / "platformer.yaml").read_text() == (CHARTS / "platformer.yaml").read_text()


PLATFORMER_CHART = CHARTS / "platformer.yaml"


@pytest.fixture
def hero(tmp_path: Path) -> ChartFile:
    """A copy of the platformer chart (flow-style transitions, comments) to edit."""
    path = tmp_path / "platformer.yaml"
    shutil.copyfile(PLATFORMER_CHART, path)
    return ChartFile(path, PLATFORMER)


def test_a_state_is_moved_among_its_siblings(hero: ChartFile) -> None:
    prepared = hero.prepare({"op": "move-state", "path": "Hero.Arms.Slashing", "index": 0})

    assert [s.name for s in prepared.definition.find("Hero.Arms").states] == [
        "Slashing",
        "Relaxed",
        "Aiming",
        "Shooting",
    ]
    with pytest.raises(InspectError) as caught:
        hero.prepare({"op": "move-state", "path": "Hero.Arms.Slashing", "index": 4})
    assert str(caught.value) == "'index' must be from 0 to 3; got 4"


def test_a_removed_state_takes_the_transitions_to_it(hero: ChartFile) -> None:
    prepared = hero.prepare({"op": "remove-state", "path": "Hero.Arms.Slashing"})

    relaxed = prepared.definition.find("Hero.Arms.Relaxed")
    assert [t.to for t in relaxed.transitions] == ["Aiming"]
    assert "Slashing" not in prepared.text
    assert "# explicit: transitions between siblings" in prepared.text


def test_an_added_transition_is_written_like_its_siblings(hero: ChartFile) -> None:
    prepared = hero.prepare(
        {
            "op": "add-transition",
            "path": "Hero.Arms.Slashing",
            "on": {"held": "Aim"},
            "to": "Aiming",
        }
    )

    assert prepared.diff.splitlines()[-1] == "+            - {on: {held: Aim}, to: Aiming}"


def test_replaced_actions_keep_the_files_style(hero: ChartFile) -> None:
    actions = [{"play_animation": {"name": "Run", "loop": False}}, {"set_speed": {"value": 2.5}}]
    prepared = hero.prepare(
        {"op": "set-actions", "path": "Hero.Legs.Running", "kind": "enter", "actions": actions}
    )

    assert [line for line in prepared.diff.splitlines() if line[:2] in ("+ ", "- ")] == [
        "-            - play_animation: {name: Run, layer: legs, loop: true}",
        "-            - set_speed: {value: 1.0}",
        "+            - play_animation: {name: Run, loop: false}",
        "+            - set_speed: {value: 2.5}",
    ]


def test_a_policy_is_removed_with_null(hero: ChartFile) -> None:
    prepared = hero.prepare({"op": "set-policy", "path": "Hero", "policy": None})

    changed = [line for line in prepared.diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed == ["-  policy: concurrent"]
    assert prepared.definition.root.policy == "explicit"


def test_an_edit_leaves_quoted_values_as_they_were_written(tmp_path: Path) -> None:
    path = tmp_path / "quoted.yaml"
    path.write_text(
        "version: 1\nname: \"Quoted\"\nroot:\n  name: 'Top'\n  states:\n"
        '  - name: A\n    enter: [{raise: {name: "E"}}]\n  - name: B\n'
    )
    prepared = ChartFile(path).prepare({"op": "add-state", "path": "Top", "name": "Z"})

    changed = [line for line in prepared.diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed == ["+  - name: Z"]


def test_a_list_replaced_keeps_the_comments_at_the_ends_of_its_items_lines(
    tmp_path: Path,
) -> None:
    path = tmp_path / "arms.yaml"
    path.write_text(
        "version: 1\nname: Arms\nroot:\n  name: Top\n  states:\n  - name: A\n"
        "    transitions:\n"
        "    - {on: {input: Go}, to: B}     # the quick way\n"
        "    - {on: {input: Back}, to: C}   # the long way\n"
        "  - name: B\n  - name: C\n"
    )
    transitions = [{"on": {"input": "Run"}, "to": "B"}, {"on": {"input": "Back"}, "to": "C"}]
    edit = {"op": "set-transitions", "path": "Top.A", "transitions": transitions}
    prepared = ChartFile(path).prepare(edit)

    changed = [line for line in prepared.diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed == [  # the one changed keeps its comment, the other is left as it was
        "-    - {on: {input: Go}, to: B}     # the quick way",
        "+    - {on: {input: Run}, to: B}    # the quick way",
    ]


def test_the_palette_lists_every_event_the_chart_responds_to() -> None:
    from statetree.inspect.chart_adapter import palette

    chart = load(PLATFORMER_CHART, PLATFORMER)
    assert [f"{t.type} {t.name}{' (level)' if t.level else ''}" for t in palette(chart)] == [
        "input Jump",
        "input Attack",
        "anim_finished Slash",
        "timer Reload",
        "held Right (level)",
        "held Aim (level)",
        "landed Ground",
    ]


def test_a_chart_shows_its_clock_and_held_levels(tmp_path: Path) -> None:
    adapter = platformer(tmp_path / "platformer.yaml")
    adapter.chart_machine.tick(0.25)
    adapter.chart_machine.hold(Event("held", "Right"))

    assert adapter.values() == (("chart", "clock", 0.25), ("held", "held Right", True))


def test_a_commit_refuses_a_file_changed_since_the_edit_was_checked(tmp_path: Path) -> None:
    adapter = platformer(tmp_path / "platformer.yaml")
    prepared = adapter.prepare({"op": "rename-state", "path": "Hero.Arms.Aiming", "name": "Aim"})
    adapter.file.save(adapter.file.read() + "# touched\n")

    with pytest.raises(InspectError) as caught:
        adapter.commit(prepared)
    assert str(caught.value) == (
        "the chart file changed while this edit was checked: nothing was saved, make the edit again"
    )
    assert adapter.chart_machine.chart.find("Hero.Arms.Aiming") is not None


def test_a_chart_file_runs_alone_with_the_types_it_uses(tmp_path: Path) -> None:
    from statetree.chart.stand_in import stand_in_registry
    from statetree.inspect.chart_world import ChartWorld

    path = tmp_path / "platformer.yaml"
    shutil.copyfile(PLATFORMER_CHART, path)
    world = ChartWorld(path)
    world.tick(0.1)
    world.machine.send(Event("landed", "Ground"))

    registry = world.machine.chart.registry
    assert registry == stand_in_registry(load(path, check_types=False))
    assert registry.actions["play_animation"].signature == (
        "play_animation(name: string, layer: string, loop: boolean = False)"
    )
    assert registry.actions["set_speed"].signature == "set_speed(value: number)"
    assert "landed" in registry.triggers
    # An edit may bring an action type the game never declared: it runs, doing nothing.
    adapter = world.adapter
    actions = [{"shake_camera": {"strength": 2}}]
    edit = {"op": "set-actions", "path": "Hero.Arms.Slashing", "kind": "enter", "actions": actions}
    adapter.commit(adapter.prepare(edit))
    world.machine.send(Event("input", "Attack"))
    assert "Hero.Arms.Slashing" in world.machine.active


def test_the_editor_is_sent_the_policies_the_library_defines(hero: ChartFile) -> None:
    assert hero.source()["policies"] == {
        "default": "explicit",
        "choices": [{"name": p, "summary": d.summary} for p, d in DEFINITIONS.items()],
    }
