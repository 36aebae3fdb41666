"""Shared helpers of the game's tests: a world in a known place, an enemy chart in a file."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the tests never open a window

import numpy as np
from game import bot
from game.inputs import IDLE
from game.world import World


def play(world: World, frames: int) -> World:
    """Let the bot play every hero of ``world`` for ``frames`` frames."""
    for _ in range(frames):
        world.step([bot.decide(hero, world.crowd) for hero in world.heroes])
    return world


def idle(world: World, frames: int) -> World:
    """Every hero stands still for ``frames`` frames."""
    for _ in range(frames):
        world.step([IDLE] * len(world.heroes))
    return world


def bring_in(world: World, enemy: int, x: float, y: float) -> None:
    """Summon ``enemy`` now (whatever the wave) and put it at (x, y)."""
    world.crowd.summon(np.array([enemy]))
    idle(world, 1)
    world.crowd.x[enemy], world.crowd.y[enemy] = x, y
