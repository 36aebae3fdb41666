"""The platformer example: concurrent body regions driven by a script."""

from __future__ import annotations

import chart_platformer
import pytest


def test_the_platformer_prints_its_run(capsys: pytest.CaptureFixture[str]) -> None:
    chart_platformer.main()
    out = capsys.readouterr().out.splitlines()
    assert out[:6] == [
        "HSM_1_Hero: Init    : Hero",
        "HSM_1_Hero:  Region  : Hero.Legs",
        "HSM_1_Hero:  Region  : Hero.Arms",
        "HSM_1_Hero:   Inner   : Hero.Legs.Standing",
        "  legs: play Stand",
        "HSM_1_Hero:   Entry   : Hero.Arms.Relaxed",
    ]
    jump = out.index("> input Jump")
    # Jumping leaves Running (its exit action stops the hero) while the arms keep slashing.
    assert out[jump : jump + 5] == [
        "> input Jump",
        "  speed 0",
        "HSM_1_Hero:   Inner   : Hero.Legs.Jumping",
        "  legs: play Jump",
        "  speed 0.5",
    ]
    landed = out.index("> landed Ground")
    assert out[landed + 1] == "HSM_1_Hero:   Inner   : Hero.Legs.Running"  # Right still held
    shoot = out.index("> input Attack", jump)
    assert out[shoot : shoot + 5] == [
        "> input Attack",
        "HSM_1_Hero:   Sibling : Hero.Arms.Shooting",
        "  arms: play Shoot",
        "  spawn Arrow",
        "> tick 0.5",
    ]
    assert out[-1] == "active: Hero, Hero.Legs, Hero.Legs.Standing, Hero.Arms, Hero.Arms.Relaxed"


def test_the_hero_keeps_what_the_actions_changed() -> None:
    lines = chart_platformer.run()
    assert "> hold Right" in lines and "> release Aim" in lines
    hero = chart_platformer.Hero([])
    hero.machine.start()
    assert hero.layers == {"legs": "Stand"} and hero.speed == 0.0
