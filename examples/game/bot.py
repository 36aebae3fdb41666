"""A scripted player: what the headless match and the demo press, decided from the world.

It reads only the world it is given and keeps no randomness of its own, so a match it plays
is the same every run.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from game import config
from game.enemies import in_play
from game.hero import Hero
from game.inputs import IDLE, Input


class Seen(Protocol):
    """What the bot sees of the enemies: a crowd, or a network snapshot's enemies."""

    @property
    def x(self) -> NDArray[np.float64]: ...
    @property
    def y(self) -> NDArray[np.float64]: ...
    @property
    def anim(self) -> NDArray[np.int8]: ...


def decide(hero: Hero, crowd: Seen) -> Input:
    """The buttons a fair player would press now."""
    if not hero.status.is_active("Alive") or hero.status.is_active("InDialogue"):
        return IDLE
    if hero.health < 60 and not hero.status.is_active("Shielded"):
        return _seek_blessing(hero)
    return _fight(hero, crowd)


def _seek_blessing(hero: Hero) -> Input:
    """Walk to the shrine and talk there: a dialogue heard to the end gives a shield."""
    if hero.near_shrine:
        return Input(talk=True)
    return Input(*_toward(hero, *config.SHRINE))


def _fight(hero: Hero, crowd: Seen) -> Input:
    """Go for the nearest enemy on its side of the arena (two bots split the work) and
    strike it; roll away from a crowd."""
    alive = in_play(crowd.anim)
    distance = np.where(alive, _distance(crowd, hero.x, hero.y), np.inf)
    preference = distance + HOME_PULL * _distance(crowd, *hero.home)
    chosen = int(np.argmin(preference))
    if not math.isfinite(preference[chosen]):
        return _seek_blessing(hero)
    dx, dy = _toward(hero, float(crowd.x[chosen]), float(crowd.y[chosen]))
    nearest = int(np.argmin(distance))
    crowded = int(np.count_nonzero(distance < 45.0))
    if crowded >= 6 and hero.frame >= hero.dodge_ready_at:
        return Input(-dx or 1, -dy, dodge=True)
    return Input(dx, dy, attack=distance[nearest] < 38.0)


HOME_PULL = 0.5
"""How much an enemy far from the hero's start counts as farther away."""


def _distance(crowd: Seen, x: float, y: float) -> NDArray[np.float64]:
    off_x, off_y = crowd.x - x, crowd.y - y
    found: NDArray[np.float64] = np.sqrt(off_x * off_x + off_y * off_y)
    return found


def _toward(hero: Hero, x: float, y: float) -> tuple[int, int]:
    """The eight-way direction from the hero to (x, y): an axis counts when the other is
    less than 2.414 times as long (tan 67.5 degrees)."""
    dx, dy = x - hero.x, y - hero.y
    step_x = _sign(dx) if abs(dy) < TAN_67_5 * abs(dx) else 0
    step_y = _sign(dy) if abs(dx) < TAN_67_5 * abs(dy) else 0
    return step_x, step_y


TAN_67_5 = 2.414213562373095


def _sign(value: float) -> int:
    return 1 if value > 0 else -1 if value < 0 else 0
