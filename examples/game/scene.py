"""What the screen shows, taken from a world or from a network snapshot: no pygame here."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.enemies import ANIMATIONS
from game.world import World


@dataclass(frozen=True)
class HeroView:
    """One hero as drawn."""

    name: str
    x: float
    y: float
    facing: tuple[float, float]
    animation: str
    health: int
    path: tuple[str, ...]
    status: tuple[str, ...]
    kills: int = 0


@dataclass(frozen=True)
class Scene:
    """Everything drawn in one frame."""

    frame: int
    heroes: tuple[HeroView, ...]
    enemy_x: NDArray[np.float64]
    enemy_y: NDArray[np.float64]
    enemy_anim: NDArray[np.int8]
    kills: int
    notes: tuple[str, ...] = ()

    def enemy_counts(self) -> dict[str, int]:
        counts = np.bincount(self.enemy_anim.astype(np.intp), minlength=len(ANIMATIONS))
        return {name: int(count) for name, count in zip(ANIMATIONS, counts, strict=True)}


def scene_of(world: World, notes: tuple[str, ...] = ()) -> Scene:
    """The scene of a world the program runs itself."""
    heroes = tuple(
        HeroView(
            hero.name,
            hero.x,
            hero.y,
            hero.facing,
            hero.animation.value,
            hero.health,
            tuple(type(state).__name__ for state in hero.machine.stack),
            hero.status.active_states,
            hero.kills,
        )
        for hero in world.heroes
    )
    crowd = world.crowd
    return Scene(
        world.frame, heroes, crowd.x.copy(), crowd.y.copy(), crowd.anim.copy(), crowd.kills, notes
    )
