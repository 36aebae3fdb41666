"""The seed's basic attack: attack once from Idle, then back to Idle."""

from __future__ import annotations

from chart_samples import CHARTS, Recorder, example


def test_the_attack_plays_through_and_returns_to_idle() -> None:
    recorder = Recorder(example("basic_attack.yaml"))
    recorder.machine.start()
    assert recorder.lines == [
        "HSM_1_BasicAttack: Init    : Character",
        "HSM_1_BasicAttack:  Inner   : Character.Idle",
        "enter Character.Idle: play_animation(name='Idle', loop=True)",
    ]
    played = recorder.play((CHARTS / "basic_attack.events").read_text())
    assert played == [
        "HSM_1_BasicAttack:  Inner   : Character.BasicAttack",
        "enter Character.BasicAttack: play_animation(name='BasicAttack', loop=False)",
        "enter Character.BasicAttack: play_sound(name='BasicAttack', loop=False)",
        "enter Character.BasicAttack: enable_damage_collision(name='BasicAttack', damage=1.0)",
        "exit Character.BasicAttack: disable_damage_collision(name='BasicAttack')",
        "HSM_1_BasicAttack:  Inner   : Character.Idle",
        "enter Character.Idle: play_animation(name='Idle', loop=True)",
    ]
    assert recorder.machine.active == ("Character", "Character.Idle")


def test_pressing_again_while_attacking_changes_nothing() -> None:
    recorder = Recorder(example("basic_attack.yaml"))
    recorder.play("input BasicAttackButton")
    assert recorder.play("input BasicAttackButton\nanim_finished Idle") == []
    assert recorder.machine.is_active("Character.BasicAttack")


def test_an_attack_can_follow_an_attack() -> None:
    recorder = Recorder(example("basic_attack.yaml"))
    recorder.play("input BasicAttackButton\nanim_finished BasicAttack")
    recorder.play("input BasicAttackButton")
    assert recorder.machine.active == ("Character", "Character.BasicAttack")
