"""Hot reload: a running machine takes an edited chart and keeps what did not change."""

from __future__ import annotations

import pytest
from chart_samples import CHARTS, GAME, Recorder

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionType,
    Chart,
    ChartError,
    ChartMachine,
    Event,
    HandlerError,
    Policy,
    StateDef,
    loads,
)

TEXT = (CHARTS / "combo_attack.yaml").read_text()
A = "Character.Alive.ComboAttack"


def edited(old: str, new: str, count: int = 1) -> str:
    assert TEXT.count(old) >= count, old
    return TEXT.replace(old, new, count)


def in_window() -> Recorder:
    """A combo machine in ComboAttack1.Window, 0.25 s into it."""
    recorder = Recorder(loads(TEXT, "yaml", GAME))
    recorder.play("input ComboAttackButton\ntick 1")
    assert recorder.machine.active[-1] == f"{A}.ComboAttack1.Window"
    return recorder


def test_a_change_to_inactive_states_keeps_everything_and_applies_later() -> None:
    recorder = in_window()
    before = recorder.machine.machine.stack
    report = recorder.machine.reload(loads(edited("damage: 4.0", "damage: 5.0"), "yaml", GAME))
    assert report.exited == report.entered == ()
    assert report.kept == recorder.machine.active
    assert all(a is b for a, b in zip(recorder.machine.machine.stack, before, strict=True))
    assert recorder.lines == []  # nothing entered or exited
    assert (
        f"enter {A}.ComboAttack2: enable_damage_collision(name='ComboAttack2', damage=5.0)"
        in recorder.play("input ComboAttackButton")
    )


def test_kept_states_take_their_new_class_and_keep_their_timers() -> None:
    recorder = in_window()
    window = recorder.machine.state(f"{A}.ComboAttack1.Window")
    old_class = type(window)
    # The window now closes into Next instead of Post.
    text = edited("- {on: {timer: Window}, to: Post}", "- {on: {timer: Window}, to: Next}")
    recorder.machine.reload(loads(text, "yaml", GAME))
    assert recorder.machine.state(f"{A}.ComboAttack1.Window") is window
    assert type(window) is not old_class
    assert type(window).__qualname__ == f"{A}.ComboAttack1.Window"
    recorder.play("tick 0.25")  # the window's timer, started before the reload, fires
    assert recorder.machine.active[-1] == f"{A}.ComboAttack2.Pre"


def test_a_changed_active_state_is_exited_and_entered_again() -> None:
    recorder = in_window()
    report = recorder.machine.reload(loads(edited("damage: 2.0", "damage: 3.0"), "yaml", GAME))
    assert report.exited == (f"{A}.ComboAttack1", f"{A}.ComboAttack1.Window")
    assert report.entered == (f"{A}.ComboAttack1", f"{A}.ComboAttack1.Pre")
    assert recorder.actions() == [
        f"exit {A}.ComboAttack1: disable_damage_collision(name='ComboAttack1')",
        f"exit {A}.ComboAttack1: clear_history()",
        f"enter {A}.ComboAttack1: enable_damage_collision(name='ComboAttack1', damage=3.0)",
        f"enter {A}.ComboAttack1.Pre: play_animation(name='ComboAttack1', loop=False)",
        f"enter {A}.ComboAttack1.Pre: play_sound(name='ComboAttack1', loop=False)",
        f"enter {A}.ComboAttack1.Pre: start_timer(name='Pre', delay=0.75)",
    ]


def test_a_vanished_active_state_is_exited_and_its_parent_chooses_again() -> None:
    recorder = Recorder(loads(TEXT, "yaml", GAME))
    recorder.machine.start()
    text = edited("        - name: Idle\n", "        - name: Rest\n")
    report = recorder.machine.reload(loads(text, "yaml", GAME))
    assert report.exited == ("Character.Alive.Idle",)
    assert report.entered == ("Character.Alive.Rest",)


def test_a_renamed_root_restarts_the_machine_on_the_new_root() -> None:
    recorder = in_window()
    text = TEXT.replace("name: Character\n", "name: Hero\n", 1)
    report = recorder.machine.reload(loads(text, "yaml", GAME))
    assert report.kept == ()
    assert recorder.machine.active == ("Hero", "Hero.Alive", "Hero.Alive.Idle")
    recorder.machine.machine.stop()
    recorder.machine.start()
    assert recorder.machine.active[0] == "Hero"


def test_a_bad_chart_or_a_missing_handler_changes_nothing() -> None:
    recorder = in_window()
    active = recorder.machine.active
    sequence = StateDef("Character", Policy.SEQUENTIAL, (StateDef("A"), StateDef("B")))
    with pytest.raises(ChartError, match="would never advance past it"):
        recorder.machine.reload(Chart("Combo", sequence))
    registry = GAME.with_actions(ActionType("shake_camera"))
    text = edited("- raise: Next", "- shake_camera\n          - raise: Next")
    with pytest.raises(HandlerError, match=r"missing: shake_camera \(used by .*1\.Next \(enter\)"):
        recorder.machine.reload(loads(text, "yaml", registry))
    assert recorder.machine.active == active
    assert recorder.lines == []


def test_reloading_a_chart_with_new_triggers_keeps_levels_held() -> None:
    base = "name: L\nroot:\n  name: Top\n  policy: priority\n  states:\n"
    one = base + "    - {name: Run, pre: {held: Right}}\n    - {name: Stand}\n"
    two = base + "    - {name: Duck, pre: {held: Down}}\n" + one.split("states:\n")[1]
    machine = ChartMachine(loads(one, "yaml"))
    machine.hold(Event("held", "Down"))
    machine.hold(Event("held", "Right"))
    assert machine.active == ("Top", "Top.Run")
    machine.reload(loads(two, "yaml", DEFAULT_REGISTRY))
    assert machine.active == ("Top", "Top.Duck")
