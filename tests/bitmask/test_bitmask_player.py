"""Seven player states of a bitmask machine, rule by rule, using the runnable example."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bitmask_player.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bitmask_player_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ex = load_example()


def player(*states: str, ammo: int = 3) -> ex.Player:
    hero = ex.Player("Hero", ammo=ammo)
    for state in states:
        assert hero.machine.try_activate(state), state
    hero.events.clear()
    return hero


def test_the_article_mask_example() -> None:
    hero = player("Alive", "Crouching", "Aiming", "Shooting")
    assert hero.machine.mask == 0b0011101
    assert hero.machine.encode() == bytes([0b0011101])


@pytest.mark.parametrize(
    ("state", "required"),
    [
        ("Moving", ["Alive"]),
        ("Crouching", ["Alive"]),
        ("Aiming", ["Alive"]),
        ("Shooting", ["Alive", "Aiming"]),
        ("Punching", ["Alive"]),
        ("InDialogue", ["Alive"]),
    ],
)
def test_required_states(state: str, required: list[str]) -> None:
    hero = player()
    assert not hero.machine.try_activate(state)
    assert hero.machine.explain(state).missing == tuple(required)
    for needed in required:
        hero.machine.try_activate(needed)
    assert hero.machine.try_activate(state)
    hero.events.clear()
    hero.machine.deactivate(required[-1])
    assert not hero.machine.is_active(state)
    assert f"-{state} (lost requirement {required[-1]})" in hero.events


@pytest.mark.parametrize(
    ("state", "blocker", "setup"),
    [
        ("Moving", "InDialogue", ["Alive", "InDialogue"]),
        ("Crouching", "InDialogue", ["Alive", "InDialogue"]),
        ("Aiming", "InDialogue", ["Alive", "InDialogue"]),
        ("Shooting", "InDialogue", ["Alive", "InDialogue"]),
        ("Punching", "Shooting", ["Alive", "Aiming", "Shooting"]),
        ("Punching", "InDialogue", ["Alive", "InDialogue"]),
    ],
)
def test_blocking_states(state: str, blocker: str, setup: list[str]) -> None:
    hero = player(*setup)
    assert not hero.machine.try_activate(state)
    assert blocker in hero.machine.explain(state).blockers


def test_blocking_stays_a_guard_on_activation() -> None:
    hero = player("Alive", "Crouching", "InDialogue")
    assert hero.machine.active_states == ("Alive", "Crouching", "InDialogue")
    assert not hero.machine.try_activate("Crouching")


def test_in_dialogue_terminates_moving_punching_and_aiming_and_their_dependents() -> None:
    hero = player("Alive", "Moving", "Crouching", "Punching", "Aiming", "Shooting")
    assert hero.machine.try_activate("InDialogue")
    assert hero.events == [
        "-Punching (terminated by InDialogue)",
        "-Shooting (lost requirement Aiming)",
        "-Aiming (terminated by InDialogue)",
        "-Moving (terminated by InDialogue)",
        "+InDialogue (requested)",
    ]
    assert hero.machine.active_states == ("Alive", "Crouching", "InDialogue")
    assert (hero.speed, hero.sensitivity) == (0.0, 1.0)


def test_punching_terminates_aiming_and_retriggers_after_its_cooldown() -> None:
    hero = player("Alive", "Aiming")
    assert hero.machine.try_activate("Punching")
    assert not hero.machine.try_activate("Punching")
    assert hero.machine.explain("Punching").check_failed
    hero.tick(ex.PUNCH_COOLDOWN)
    assert hero.machine.try_activate("Punching")
    assert hero.events == [
        "-Aiming (terminated by Punching)",
        "+Punching (requested)",
        "-Punching (retriggered)",
        "+Punching (requested)",
    ]


def test_shooting_needs_ammo() -> None:
    hero = player("Alive", "Aiming", ammo=1)
    assert hero.machine.try_activate("Shooting")
    hero.machine.deactivate("Shooting")
    assert not hero.machine.try_activate("Shooting")
    assert str(hero.machine.explain("Shooting")) == (
        "Shooting cannot activate: its custom check Shooting.can_activate() returned False."
    )


def test_alive_has_no_rules_and_takes_everything_down() -> None:
    hero = player("Alive", "Moving", "Crouching", "Punching", "Aiming", "Shooting")
    assert hero.machine.deactivate("Alive")
    assert hero.events == [
        "-Punching (lost requirement Alive)",
        "-Shooting (lost requirement Alive)",
        "-Aiming (lost requirement Alive)",
        "-Crouching (lost requirement Alive)",
        "-Moving (lost requirement Alive)",
        "-Alive (requested)",
    ]


def test_the_walkthrough_runs(capsys: pytest.CaptureFixture[str]) -> None:
    ex.main()
    out = capsys.readouterr().out
    assert "naive client flickers: ['+Aiming (predicted)', '-Aiming (from the network)'" in out
    assert "bad packet refused: bitmask 'Player': Shooting is active but requires" in out
    assert "#16 -InDialogue (lost requirement Alive)" in out
