"""The scripted match: the same start and inputs give the same final state, every run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from game.world import Summary, World
from game_support import play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FRAMES = 600


@pytest.fixture(scope="module")
def reference() -> Summary:
    """The match played once in this process."""
    return play(World(1, 300), FRAMES).summary()


def test_a_match_ends_in_the_same_state_in_every_run(reference: Summary) -> None:
    assert play(World(1, 300), FRAMES).summary() == reference
    # Something happened: the hero fought, enemies died and changed what they do.
    assert reference.kills > 0 and reference.heroes[0].kills == reference.kills
    assert sum(reference.enemies.values()) == 300
    assert reference.enemies["Roam"] < 300


def test_the_command_line_match_prints_that_state_in_another_process(
    reference: Summary,
) -> None:
    environment = {**os.environ, "PYTHONHASHSEED": "1", "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "game"), "--headless", "--frames", str(FRAMES)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=True,
    )
    assert done.stdout.splitlines() == reference.lines(), done.stderr
