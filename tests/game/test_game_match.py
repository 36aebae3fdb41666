"""The scripted match: the same start and inputs give the same final state, every run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from game.world import World
from game_support import play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FRAMES = 600


def test_a_match_ends_in_the_same_state_in_every_run() -> None:
    first = play(World(1, 300), FRAMES).summary()
    again = play(World(1, 300), FRAMES).summary()
    assert first == again
    # Something happened: the hero fought, the enemies died and changed what they do.
    assert first.kills > 0 and first.heroes[0].kills == first.kills
    assert sum(first.enemies.values()) == 300
    assert first.enemies["Roam"] < 300


def test_the_command_line_match_prints_that_state_whatever_the_hash_seed() -> None:
    expected = play(World(1, 300), FRAMES).summary().lines()
    for hash_seed in ("1", "2"):
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed, "SDL_VIDEODRIVER": "dummy"}
        done = subprocess.run(
            [sys.executable, str(EXAMPLES / "game"), "--headless", "--frames", str(FRAMES)],
            capture_output=True,
            text=True,
            env=environment,
            timeout=120,
            check=True,
        )
        assert done.stdout.splitlines() == expected, done.stderr
