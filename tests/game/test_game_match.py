"""The match: waves, a score, lives, a result; and the scripted match, the same every run."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from game import config
from game.app import Session, play_headless
from game.hero import AttackMove, HeroStates
from game.match import Result, Rules
from game.world import RESPAWN_SPOTS, Summary, World
from game_support import bring_in, idle, play

import statetree as st

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EVERYWHERE = AttackMove(frames=1, hit_frame=0, reach=5000.0, arc=-1.0, damage=100, speed=0.0)
"""A blow that fells every enemy in play, wherever it stands."""


def test_an_idle_hero_survives_its_first_ten_seconds() -> None:
    world = World(1)
    hero = world.heroes[0]
    idle(world, 10 * config.FPS)
    assert (hero.health, hero.lives, hero.machine.active_names[0]) == (
        config.HERO_HEALTH,
        config.LIVES,
        "HeroStates.Alive",
    )
    assert world.match.view().phase == "Fight" and world.crowd.in_play.sum() > 0
    # The enemies do come: standing still is no way to win.
    while hero.health == config.HERO_HEALTH and hero.lives == config.LIVES:
        idle(world, 1)
    assert world.frame < 40 * config.FPS


def test_waves_come_one_after_another_and_each_kill_and_wave_scores() -> None:
    lines: list[str] = []
    world = World(
        1, 20, rules=Rules(waves=(0.5, 1.0)), trace=st.TraceLevel.BASIC, trace_sink=lines.append
    )
    assert world.match.sizes == (10, 20)
    changes: list[tuple[int, str]] = []
    while not world.over:
        world.strike(world.heroes[0], EVERYWHERE)  # every enemy falls as soon as it comes in
        before = len(lines)
        idle(world, 1)
        changes += [(world.frame, line) for line in lines[before:] if "Match" in line]
    intro, summons = config.FIRST_INTRO_FRAMES, (10 - 1) * config.SUMMON_EVERY
    wave_1_done = intro + summons + 2  # the last one comes in a frame later, falls the next
    wave_2 = wave_1_done + config.CLEARED_FRAMES + config.INTRO_FRAMES
    assert changes == [
        (intro, "HSM_1_Match:  Sibling : MatchStates.Fight"),
        (wave_1_done, "HSM_1_Match:  Sibling : MatchStates.Cleared"),
        (wave_1_done + config.CLEARED_FRAMES, "HSM_1_Match:  Sibling : MatchStates.Intro"),
        (wave_2, "HSM_1_Match:  Sibling : MatchStates.Fight"),
        # Two at a time in a wave of 20: ten summons.
        (wave_2 + summons + 2, "HSM_1_Match: Sibling : MatchStates.Over"),
    ]
    # 10 kills in wave 1 at 10 points, 20 in wave 2 at 20; 100 and 200 for the waves; 250
    # for each of the 3 lives left.
    assert world.match.score == 10 * 10 + 20 * 20 + 100 + 200 + 3 * 250 == 1550
    assert world.heroes[0].kills == world.crowd.kills == 30
    assert world.summary().lines()[0] == (
        f"frame {world.frame} ({world.frame / config.FPS:.1f} s): victory, all 2 waves "
        "cleared, score 1550, 30 enemies defeated"
    )


def test_an_enemy_two_heroes_fell_in_one_frame_counts_once() -> None:
    world = World(2, 3)
    bring_in(world, 0, *config.SHRINE)
    for hero in world.heroes:
        world.strike(hero, EVERYWHERE)
    assert world.crowd.kills == 1 and world.match.score == config.KILL_POINTS
    assert [hero.kills for hero in world.heroes] == [1, 0]


def test_a_match_is_lost_when_every_hero_is_out_of_lives_and_then_stands_still() -> None:
    world = World(2, 10, rules=Rules(lives=1))
    first, second = world.heroes
    first.hurt(config.HERO_HEALTH)
    idle(world, 1)
    assert first.out and not world.over  # the other hero plays on
    idle(world, config.RESPAWN_FRAMES)
    assert first.out and first.machine.active_names == ("HeroStates.Dead",)
    second.hurt(config.HERO_HEALTH)
    idle(world, 1)
    view = world.match.view()
    assert (view.phase, view.result, view.wave) == ("Over", Result.LOST, 1)
    frame, fingerprint = world.frame, world.fingerprint()
    idle(world, 30)
    assert (world.frame, world.fingerprint()) == (frame, fingerprint)
    assert world.summary().lines()[:3] == [
        f"frame {frame} ({frame / config.FPS:.1f} s): defeated in wave 1 of 5, score 0, "
        "0 enemies defeated",
        "  Hero1: out, health 0, 0 kills, in Dead, status -",
        "  Hero2: out, health 0, 0 kills, in Dead, status -",
    ]


def test_a_respawn_is_at_the_spot_farthest_from_the_enemies_and_no_enemy_hunts_it() -> None:
    world = World(1, 4)
    hero = world.heroes[0]
    for enemy in range(4):
        bring_in(world, enemy, 0.0, 0.0)
    hero.hurt(config.HERO_HEALTH)
    idle(world, config.RESPAWN_FRAMES)  # dead, back on the next frame
    crowd = world.crowd
    for enemy, spot in enumerate((0, 1, 3, 0)):  # around the top left corner
        crowd.x[enemy], crowd.y[enemy] = RESPAWN_SPOTS[spot]
    idle(world, 1)
    assert hero.machine.is_in_state(HeroStates.Alive) and hero.lives == config.LIVES - 1
    assert (hero.x, hero.y) == RESPAWN_SPOTS[-1]  # bottom right: the farthest
    assert hero.status.active_states == ("Alive", "Protected")
    crowd.x[:], crowd.y[:] = hero.x + 20, hero.y  # in reach: still no one hunts it
    idle(world, 1)
    assert list(crowd.target) == [-1] * 4 and hero.health == config.HERO_HEALTH


def test_a_new_match_starts_from_the_beginning_and_the_best_score_is_kept() -> None:
    session = Session(lambda chart: World(1, 10, chart=chart, rules=Rules(waves=(1.0,), lives=1)))
    world = session.world
    bring_in(world, 0, world.heroes[0].x + 30, world.heroes[0].y)
    world.strike(world.heroes[0], EVERYWHERE)
    world.heroes[0].hurt(config.HERO_HEALTH)
    idle(world, 1)
    assert world.over and world.match.score == 10
    assert session.restart() == ""
    again = session.world
    assert again is not world and session.best == 10
    assert (again.frame, again.match.score, again.match.view().phase) == (0, 0, "Intro")
    assert again.fingerprint() == World(1, 10, rules=Rules(waves=(1.0,), lives=1)).fingerprint()


@pytest.fixture(scope="module")
def reference() -> Summary:
    """The whole match, played by the bot in this process."""
    return play_headless(World(), 10**6)


def test_the_bot_plays_a_whole_match_to_its_result(reference: Summary) -> None:
    assert reference.match.result is not None and reference.frame > 60 * config.FPS
    assert reference.kills > 0 and reference.heroes[0].kills == reference.kills
    assert reference.match.score > 10 * reference.kills


def test_the_command_line_match_prints_that_result_in_another_process(
    reference: Summary,
) -> None:
    environment = {**os.environ, "PYTHONHASHSEED": "1", "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "game"), "--headless"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=True,
    )
    assert done.stdout.splitlines() == reference.lines(), done.stderr


def test_a_match_uses_only_the_operations_every_cpu_rounds_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # NumPy picks sines, cosines and arc tangents by instruction set, and they differ in
    # the last bits from one CPU to another: neither the simulation nor the bot uses any.
    for module, names in (
        (np, ("sin", "cos", "tan", "arctan2", "hypot", "exp")),
        (math, ("sin", "cos", "atan2", "hypot")),
    ):
        for name in names:
            monkeypatch.setattr(module, name, _forbidden(f"{module.__name__}.{name}"))
    world = play(World(2, 30), 900)
    assert world.crowd.kills > 0


def _forbidden(name: str) -> Callable[..., None]:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the match called {name}")

    return refuse
