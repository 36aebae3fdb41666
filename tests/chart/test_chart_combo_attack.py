"""The seed's combination attack under an Alive/Dead root, step by step.

Paths are long; ``A`` abbreviates ``Character.Alive.ComboAttack``.
"""

from __future__ import annotations

from chart_samples import CHARTS, Recorder, example

A = "Character.Alive.ComboAttack"


def combo() -> Recorder:
    recorder = Recorder(example("combo_attack.yaml"))
    recorder.machine.start()
    recorder.lines.clear()
    return recorder


def actions(recorder: Recorder, script: str) -> list[str]:
    return [line for line in recorder.play(script) if not line.startswith("HSM_")]


def test_pressing_starts_combo_attack_1() -> None:
    recorder = combo()
    assert recorder.play("input ComboAttackButton") == [
        "HSM_1_Combo:   Inner   : Character.Alive.ComboAttack",
        "HSM_1_Combo:    Entry   : Character.Alive.ComboAttack.ComboAttack1",
        f"enter {A}.ComboAttack1: enable_damage_collision(name='ComboAttack1', damage=2.0)",
        "HSM_1_Combo:     Entry   : Character.Alive.ComboAttack.ComboAttack1.Pre",
        f"enter {A}.ComboAttack1.Pre: play_animation(name='ComboAttack1', loop=False)",
        f"enter {A}.ComboAttack1.Pre: play_sound(name='ComboAttack1', loop=False)",
        f"enter {A}.ComboAttack1.Pre: start_timer(name='Pre', delay=0.75)",
    ]


def test_pressing_within_each_window_chains_1_2_3() -> None:
    recorder = combo()
    recorder.play("input ComboAttackButton")
    assert actions(recorder, "tick 0.5\ninput ComboAttackButton") == []  # Pre ignores it
    assert actions(recorder, "tick 0.25") == [
        f"enter {A}.ComboAttack1.Window: start_timer(name='Window', delay=0.5)",
    ]
    assert actions(recorder, "tick 0.25\ninput ComboAttackButton") == [
        f"enter {A}.ComboAttack1.Next: raise(name='Next')",
        f"exit {A}.ComboAttack1: disable_damage_collision(name='ComboAttack1')",
        f"exit {A}.ComboAttack1: clear_history()",
        f"enter {A}.ComboAttack2: enable_damage_collision(name='ComboAttack2', damage=4.0)",
        f"enter {A}.ComboAttack2.Pre: play_animation(name='ComboAttack2', loop=False)",
        f"enter {A}.ComboAttack2.Pre: play_sound(name='ComboAttack2', loop=False)",
        f"enter {A}.ComboAttack2.Pre: start_timer(name='Pre', delay=1.0)",
    ]
    # The Next event that completed ComboAttack1 came before ComboAttack2 was entered: it
    # does not complete ComboAttack2 too.
    assert recorder.machine.active[-1] == f"{A}.ComboAttack2.Pre"
    assert actions(recorder, "tick 1\ntick 0.25\ninput ComboAttackButton") == [
        f"enter {A}.ComboAttack2.Window: start_timer(name='Window', delay=0.35)",
        f"enter {A}.ComboAttack2.Next: raise(name='Next')",
        f"exit {A}.ComboAttack2: disable_damage_collision(name='ComboAttack2')",
        f"exit {A}.ComboAttack2: clear_history()",
        f"enter {A}.ComboAttack3: enable_damage_collision(name='ComboAttack3', damage=8.0)",
        f"enter {A}.ComboAttack3: play_animation(name='ComboAttack3', loop=False)",
        f"enter {A}.ComboAttack3: play_sound(name='ComboAttack3', loop=False)",
    ]
    assert actions(recorder, "anim_finished ComboAttack3") == [
        f"exit {A}.ComboAttack3: disable_damage_collision(name='ComboAttack3')",
        f"exit {A}: clear_history()",
        "enter Character.Alive.Idle: play_animation(name='Idle', loop=True)",
    ]


def test_missing_the_window_ends_the_combo_when_the_animation_finishes() -> None:
    recorder = combo()
    recorder.play("input ComboAttackButton")
    assert recorder.play("tick 1.25") == [
        "HSM_1_Combo:     Sibling : Character.Alive.ComboAttack.ComboAttack1.Window",
        f"enter {A}.ComboAttack1.Window: start_timer(name='Window', delay=0.5)",
        "HSM_1_Combo:     Sibling : Character.Alive.ComboAttack.ComboAttack1.Post",
    ]
    assert actions(recorder, "input ComboAttackButton") == []  # too late
    assert actions(recorder, "anim_finished ComboAttack1") == [
        f"exit {A}.ComboAttack1: disable_damage_collision(name='ComboAttack1')",
        f"exit {A}.ComboAttack1: clear_history()",
        f"exit {A}: clear_history()",
        "enter Character.Alive.Idle: play_animation(name='Idle', loop=True)",
    ]


def test_a_new_combo_starts_again_at_combo_attack_1_pre() -> None:
    recorder = combo()
    recorder.play("input ComboAttackButton\ntick 1\ninput ComboAttackButton")
    recorder.play("anim_finished ComboAttack2\ninput ComboAttackButton")
    assert recorder.machine.active[2:] == (A, f"{A}.ComboAttack1", f"{A}.ComboAttack1.Pre")


def test_dying_interrupts_everything_and_cancels_the_timers() -> None:
    recorder = combo()
    recorder.play("input ComboAttackButton\ntick 1")
    assert recorder.play("event Died") == [
        f"exit {A}.ComboAttack1: disable_damage_collision(name='ComboAttack1')",
        f"exit {A}.ComboAttack1: clear_history()",
        f"exit {A}: clear_history()",
        "HSM_1_Combo:  Sibling : Character.Dead",
        "enter Character.Dead: play_animation(name='Death', loop=False)",
    ]
    assert recorder.play("tick 5\ninput ComboAttackButton") == []
    assert recorder.machine.active == ("Character", "Character.Dead")
    recorder.play("event Revived")
    assert recorder.machine.active == ("Character", "Character.Alive", "Character.Alive.Idle")


def test_the_events_file_ends_alive_and_idle() -> None:
    recorder = combo()
    played = recorder.play((CHARTS / "combo_attack.events").read_text())
    entered = [line.split(": ")[-1] for line in played if line.startswith("HSM_")]
    assert entered.count("Character.Alive.ComboAttack.ComboAttack3") == 1
    assert entered.count("Character.Dead") == 1
    assert recorder.machine.active == ("Character", "Character.Alive", "Character.Alive.Idle")
