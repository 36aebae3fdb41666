"""Shared helpers of the game's tests: a world in a known place, an enemy chart in a file."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the tests never open a window

from game import bot
from game.world import World


def play(world: World, frames: int) -> World:
    """Let the bot play every hero of ``world`` for ``frames`` frames."""
    for _ in range(frames):
        world.step([bot.decide(hero, world.crowd) for hero in world.heroes])
    return world
