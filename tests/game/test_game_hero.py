"""The hero's machine: its traces, the values its states drive, its status effects."""

from __future__ import annotations

import pytest
from game import config
from game.hero import HERO_CODEC, Hero, HeroStates
from game.inputs import IDLE, Input
from game.status import Stunned

import statetree as st


def traced() -> tuple[Hero, list[str]]:
    lines: list[str] = []
    return Hero("Hero", 300, 300, trace=st.TraceLevel.BASIC, trace_sink=lines.append), lines


def run(hero: Hero, inputs: list[Input]) -> None:
    for value in inputs:
        hero.step(hero.frame + 1, value)


def values(hero: Hero) -> tuple[float, str, bool]:
    return hero.speed_scale.value, hero.animation.value, hero.invulnerable.value


def test_a_dodge_turns_into_a_lunge_and_the_values_follow_the_states() -> None:
    hero, lines = traced()
    run(hero, [Input(1, 0)] * 3)
    assert lines == [
        "HSM_1_Hero: Init    : HeroStates.Alive",
        "HSM_1_Hero:  Entry   : HeroStates.Locomotion",
        "HSM_1_Hero:   Entry   : HeroStates.Idle",
        "HSM_1_Hero:   Sibling : HeroStates.Walk",
    ]
    assert values(hero) == (1.0, "walk", False)
    lines.clear()
    run(hero, [Input(1, 0, dodge=True)])
    assert lines == ["HSM_1_Hero:  Sibling : HeroStates.Dodge"]
    assert values(hero) == (2.6, "dodge", True)
    run(hero, [Input(1, 0, attack=True)] * (config.DODGE_FRAMES // 2))
    assert lines[1:] == ["HSM_1_Hero:  Sibling : HeroStates.Attack"]
    assert values(hero) == (1.3, "lunge", False)
    lines.clear()
    run(hero, [IDLE] * 30)
    assert lines == [
        "HSM_1_Hero:  Sibling : HeroStates.Locomotion",
        "HSM_1_Hero:   Entry   : HeroStates.Idle",
    ]
    # Every value is back to what it was before any state set it.
    assert values(hero) == (0.0, "idle", False) and hero.heading.value is None


def test_a_dodge_needs_its_cooldown() -> None:
    hero, _ = traced()
    run(hero, [Input(0, 1, dodge=True)] + [Input(0, 1)] * config.DODGE_FRAMES)
    run(hero, [Input(0, 1, dodge=True)])
    assert isinstance(hero.machine.stack[-1], HeroStates.Walk)
    run(hero, [Input(0, 1)] * config.DODGE_COOLDOWN + [Input(0, 1, dodge=True)])
    assert isinstance(hero.machine.stack[-1], HeroStates.Dodge)


def test_nothing_hurts_a_dodging_hero() -> None:
    hero, _ = traced()
    run(hero, [Input(1, 0, dodge=True)])
    assert not hero.hurt(50, "Stunned")
    assert hero.health == config.HERO_HEALTH and hero.status.active_states == ("Alive",)


def test_a_stun_interrupts_an_attack_and_wears_off() -> None:
    hero, lines = traced()
    run(hero, [Input(attack=True)])
    assert hero.hurt(5, "Stunned")
    lines.clear()
    run(hero, [IDLE])
    assert lines == ["HSM_1_Hero:  Inner   : HeroStates.Stunned"]
    assert values(hero) == (0.0, "stunned", False)
    run(hero, [IDLE] * (Stunned.frames - 1))
    assert lines[1:] == [
        "HSM_1_Hero:  Sibling : HeroStates.Locomotion",
        "HSM_1_Hero:   Entry   : HeroStates.Idle",
    ]


def test_a_stun_that_wears_off_leaves_the_hero_steady_so_stuns_cannot_chain() -> None:
    hero, lines = traced()
    run(hero, [IDLE])
    assert hero.hurt(5, "Stunned")
    run(hero, [IDLE] * Stunned.frames)
    assert hero.status.active_states == ("Alive", "Steady")
    lines.clear()
    assert hero.hurt(5, "Stunned")  # the hit lands, the stun does not
    assert hero.status.active_states == ("Alive", "Steady")
    assert str(hero.status.explain("Stunned")) == (
        "Stunned cannot activate: it is blocked by Steady, active."
    )
    run(hero, [IDLE] * config.FLINCH_FRAMES + [Input(attack=True)])
    assert lines == [  # a flinch for a hard hit, not a stun: soon in control again
        "HSM_1_Hero:  Inner   : HeroStates.Flinch",
        "HSM_1_Hero:  Sibling : HeroStates.Locomotion",
        "HSM_1_Hero:  Sibling : HeroStates.Attack",
    ]
    run(hero, [IDLE] * (config.STEADY_FRAMES - config.FLINCH_FRAMES - 2))
    assert hero.status.is_active("Steady")  # for exactly STEADY_FRAMES frames
    run(hero, [IDLE])
    assert hero.status.active_states == ("Alive",)
    assert hero.hurt(5, "Stunned") and hero.status.is_active("Stunned")


def test_a_shield_ending_a_stun_leaves_no_grace_behind() -> None:
    hero, _ = traced()
    run(hero, [IDLE])
    assert hero.hurt(5, "Stunned")
    assert hero.status.try_activate("Shielded")
    run(hero, [IDLE])
    assert hero.status.active_states == ("Alive", "Shielded")


def test_death_ends_every_effect_and_the_hero_respawns_at_home() -> None:
    hero, lines = traced()
    run(hero, [Input(1, 1)] * 10)
    hero.hurt(10, "Poisoned")
    hero.hurt(config.HERO_HEALTH, "Stunned")
    lines.clear()
    run(hero, [IDLE])
    assert lines == ["HSM_1_Hero: Sibling : HeroStates.Dead"]
    assert hero.status.active_states == ()
    assert [str(change) for change in hero.status.history][-3:] == [
        "#4 -Poisoned (lost requirement Alive)",
        "#5 -Stunned (lost requirement Alive)",
        "#6 -Alive (requested)",
    ]
    run(hero, [IDLE] * config.RESPAWN_FRAMES)
    assert lines[1:] == [
        "HSM_1_Hero: Sibling : HeroStates.Alive",
        "HSM_1_Hero:  Entry   : HeroStates.Locomotion",
        "HSM_1_Hero:   Entry   : HeroStates.Idle",
    ]
    assert (hero.x, hero.y, hero.health, hero.lives) == (300, 300, config.HERO_HEALTH, 2)


def test_a_respawned_hero_is_protected_for_three_seconds() -> None:
    hero, _ = traced()
    run(hero, [IDLE])
    assert hero.hurt(config.HERO_HEALTH)
    run(hero, [IDLE] * (1 + config.RESPAWN_FRAMES))
    assert hero.status.active_states == ("Alive", "Protected")
    assert not hero.hunted
    assert not hero.hurt(50, "Stunned") and not hero.hurt(5, "Poisoned")
    assert (hero.health, hero.status.active_states) == (config.HERO_HEALTH, ("Alive", "Protected"))
    run(hero, [IDLE] * (config.PROTECTION_FRAMES - 1))
    assert hero.status.active_states == ("Alive", "Protected")
    run(hero, [IDLE])
    assert hero.status.active_states == ("Alive",) and hero.hunted
    assert hero.hurt(5, "Poisoned") and hero.health == config.HERO_HEALTH - 5


def test_a_hero_without_lives_stays_dead() -> None:
    hero = Hero("Hero", 300, 300, lives=2)
    run(hero, [IDLE])
    for lives in (1, 0):
        assert hero.hurt(config.HERO_HEALTH)
        run(hero, [IDLE])
        assert (hero.lives, hero.machine.active_names) == (lives, ("HeroStates.Dead",))
        run(hero, [IDLE] * (config.RESPAWN_FRAMES + config.PROTECTION_FRAMES))
    assert hero.out and hero.machine.active_names == ("HeroStates.Dead",)
    assert not hero.hurt(5)


def test_a_dialogue_at_the_shrine_grants_a_shield_that_blocks_stuns() -> None:
    hero = Hero("Hero", *config.SHRINE)
    run(hero, [Input(talk=True)])
    assert isinstance(hero.machine.stack[-1], HeroStates.Talk)
    assert hero.status.active_states == ("Alive", "InDialogue")
    run(hero, [IDLE] * 90)
    assert hero.status.active_states == ("Alive", "Shielded")
    assert isinstance(hero.machine.stack[-1], HeroStates.Idle)
    assert hero.hurt(5, "Stunned") and hero.status.active_states == ("Alive", "Shielded")


def test_a_stun_cuts_a_dialogue_short_without_a_shield() -> None:
    hero = Hero("Hero", *config.SHRINE)
    run(hero, [Input(talk=True)] + [IDLE] * 10)
    hero.hurt(5, "Stunned")
    run(hero, [IDLE] * 100)
    assert hero.status.active_states == ("Alive",)


def test_holding_talk_gives_one_dialogue_a_shield_and_the_hero_is_hunted_meanwhile() -> None:
    hero = Hero("Hero", *config.SHRINE)
    hunted, dialogues = [], 0
    for _ in range(90 + 300 + 5):  # a dialogue, its whole shield, and a few frames more
        run(hero, [Input(talk=True)])
        dialogues += (
            hero.status.is_active("InDialogue")
            and hero.status_until.get("InDialogue") == hero.frame + 90
        )
        hunted.append(hero.hunted)
    # The shield blocks a new dialogue: held talk is one dialogue, then five hunted seconds.
    assert dialogues == 2 and hunted[:90] == [False] * 90 and all(hunted[90:390])
    assert hero.status.active_states == ("Alive", "InDialogue")  # the shrine speaks again


def test_talking_needs_the_shrine() -> None:
    hero = Hero("Hero", 100, 100)
    run(hero, [Input(talk=True)])
    assert isinstance(hero.machine.stack[-1], HeroStates.Idle)


@pytest.mark.parametrize(
    "inputs",
    [
        [Input(1, 0, dodge=True)],
        [Input(attack=True)],
        [Input(0, -1, dodge=True)] * 10 + [Input(attack=True)],
    ],
)
def test_a_received_state_resumes_exactly_where_it_was(inputs: list[Input]) -> None:
    sender, receiver = Hero("A", 300, 300), Hero("B", 300, 300)
    run(sender, inputs)
    receiver.frame = sender.frame
    HERO_CODEC.receive(receiver.machine, HERO_CODEC.encode(sender.machine))
    assert HERO_CODEC.capture(receiver.machine) == HERO_CODEC.capture(sender.machine)
    for hero in (sender, receiver):
        run(hero, [IDLE] * 12)
    assert HERO_CODEC.capture(receiver.machine) == HERO_CODEC.capture(sender.machine)


def test_a_hard_hit_makes_the_hero_flinch_on_the_next_frame_out_of_an_attack() -> None:
    hero, lines = traced()
    run(hero, [Input(attack=True)])
    assert hero.hurt(3)  # a light hit: no flinch
    run(hero, [IDLE])
    assert hero.machine.events == () and isinstance(hero.machine.stack[-1], HeroStates.Attack)
    assert hero.hurt(config.FLINCH_DAMAGE)
    assert [type(event).__name__ for event in hero.machine.events] == ["Hurt"]
    lines.clear()
    run(hero, [IDLE])
    assert lines == ["HSM_1_Hero:  Inner   : HeroStates.Flinch"]
    assert hero.machine.events == () and values(hero) == (0.3, "flinch", False)
    run(hero, [IDLE] * config.FLINCH_FRAMES)
    assert lines[1:] == [
        "HSM_1_Hero:  Sibling : HeroStates.Locomotion",
        "HSM_1_Hero:   Entry   : HeroStates.Idle",
    ]


@pytest.mark.parametrize("order", [(3, config.FLINCH_DAMAGE), (config.FLINCH_DAMAGE, 3)])
def test_the_hardest_hit_of_a_frame_decides_whatever_its_order(order: tuple[int, int]) -> None:
    hero, lines = traced()
    run(hero, [IDLE])
    for damage in order:
        assert hero.hurt(damage)
    lines.clear()
    run(hero, [IDLE])
    assert lines == ["HSM_1_Hero:  Inner   : HeroStates.Flinch"]
    assert hero.machine.events == ()


def test_a_stunning_hit_stuns_rather_than_flinches() -> None:
    hero, lines = traced()
    run(hero, [IDLE])
    hero.hurt(8, "Stunned")
    lines.clear()
    run(hero, [IDLE])
    assert lines == ["HSM_1_Hero:  Inner   : HeroStates.Stunned"]
    assert hero.machine.events == ()  # the untaken Hurt went with the processing


def test_each_state_s_time_comes_from_the_frames_it_was_active() -> None:
    hero, _ = traced()
    run(hero, [Input(1, 0)] * 30)
    walk = hero.machine.stack[-1]
    assert hero.machine.active_names[-1] == "HeroStates.Walk"
    assert walk.time_in_state == pytest.approx(30 * config.DT)  # entered on the first frame
    run(hero, [Input(1, 0, dodge=True)] + [Input(1, 0)] * 4)
    alive, dodge = hero.machine.stack
    assert dodge.time_in_state == pytest.approx(5 * config.DT)
    assert alive.time_in_state == pytest.approx(35 * config.DT)
