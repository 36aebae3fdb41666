"""What the screen shows, taken from a world or from a network snapshot: no pygame here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from game.enemies import ANIMATIONS
from game.hero import Hero
from game.match import MatchView
from game.world import World

if TYPE_CHECKING:
    from game.netplay import Player


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
    lives: int = 0
    phase: float = 0.0
    """Seconds in the innermost state (for animations)."""


@dataclass(frozen=True)
class Scene:
    """Everything drawn in one frame."""

    frame: int
    match: MatchView
    heroes: tuple[HeroView, ...]
    enemy_x: NDArray[np.float64]
    enemy_y: NDArray[np.float64]
    enemy_anim: NDArray[np.int8]
    kills: int
    notes: tuple[str, ...] = ()
    """Lines under the controls: a reload, the network's state."""
    best: int = 0
    """The best score of this session (shown when the match is over)."""
    prompt: str = "R: play again    Esc: quit"
    """What the keys do once the match is over."""

    def enemy_counts(self) -> dict[str, int]:
        counts = np.bincount(self.enemy_anim.astype(np.intp), minlength=len(ANIMATIONS))
        return {name: int(count) for name, count in zip(ANIMATIONS, counts, strict=True)}


def hero_view(hero: Hero) -> HeroView:
    return HeroView(
        hero.name,
        hero.x,
        hero.y,
        hero.facing,
        hero.animation.value,
        hero.health,
        tuple(name.rsplit(".", 1)[-1] for name in hero.machine.active_names),
        hero.status.active_states,
        hero.kills,
        hero.lives,
        hero.machine.stack[-1].time_in_state,
    )


def scene_of(world: World, notes: tuple[str, ...] = (), best: int = 0) -> Scene:
    """The scene of a world the program runs itself."""
    heroes = tuple(hero_view(hero) for hero in world.heroes)
    crowd = world.crowd
    return Scene(
        world.frame,
        world.match.view(),
        heroes,
        crowd.x.copy(),
        crowd.y.copy(),
        crowd.anim.copy(),
        crowd.kills,
        notes,
        max(best, world.match.score) if world.over else best,
    )


def scene_of_player(player: Player, notes: tuple[str, ...] = ()) -> Scene | None:
    """A client's scene: its own hero as predicted (as the server saw it once the match
    is over), the rest as the last snapshot shows."""
    view = player.view
    if view is None or player.match is None:
        return None
    heroes = dict(player.mirrors)
    if player.hero is not None and not player.over:
        heroes[player.slot] = player.hero
    shown = tuple(hero_view(heroes[slot]) for slot in sorted(heroes))
    enemies = view.enemies
    frame = player.rollback.frame if player.rollback and not player.over else view.frame
    match = player.match.view()
    return Scene(
        frame, match, shown, enemies.x, enemies.y, enemies.anim, view.kills, notes,
        match.score, "Esc: quit",
    )  # fmt: skip
