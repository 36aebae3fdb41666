"""The arena: heroes and the enemy crowd, stepped one fixed frame at a time.

Nothing here reads a clock or draws: the same inputs from the same start give the same
match, frame for frame, which the tests, the network's rollback and the replays rely on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

import statetree as st
from game import config
from game.enemies import DEAD, Crowd, load_chart
from game.hero import AttackMove, Hero
from game.inputs import Input
from statetree.chart import CompiledChart

STARTS = ((config.WIDTH * 0.4, config.HEIGHT / 2), (config.WIDTH * 0.6, config.HEIGHT / 2))


class World:
    """Heroes (one or two) and a crowd of enemies.

    Args:
        players: how many heroes.
        enemies: how many enemies.
        brains: the enemies' chart engine, ``"batch"`` or ``"machines"``.
        chart: the compiled enemy chart (default: ``enemy.yaml``).
        trace: trace level of the heroes' machines; their lines go to ``trace_sink``.
    """

    def __init__(
        self,
        players: int = 1,
        enemies: int = 300,
        *,
        brains: str = "batch",
        chart: CompiledChart | None = None,
        trace: st.TraceLevel = st.TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
    ) -> None:
        self.frame = 0
        self.heroes = [
            Hero(
                f"Hero{i + 1}" if players > 1 else "Hero",
                *STARTS[i],
                trace=trace,
                trace_sink=trace_sink,
            )
            for i in range(players)
        ]
        for hero in self.heroes:
            hero.on_strike = self.strike
            hero.machine.process_state_transitions()
        self.crowd = Crowd(chart or load_chart(), enemies, self.heroes, brains)

    def step(self, inputs: Sequence[Input]) -> None:
        """One frame: the heroes act on their inputs, then the enemies on the world."""
        self.frame += 1
        for hero, value in zip(self.heroes, inputs, strict=True):
            hero.step(self.frame, value)
        self.crowd.step(self.frame, config.DT)

    def strike(self, hero: Hero, move: AttackMove) -> None:
        """A hero's attack lands on every living enemy in its reach and arc."""
        crowd = self.crowd
        dx, dy = crowd.x - hero.x, crowd.y - hero.y
        distance = np.hypot(dx, dy)
        facing_x, facing_y = hero.facing
        ahead = (dx * facing_x + dy * facing_y) >= move.arc * distance
        near = distance - config.ENEMY_RADIUS <= move.reach
        hit = np.flatnonzero(ahead & near & (crowd.anim != DEAD))
        before = crowd.kills
        crowd.damage(hit, move.damage)
        hero.kills += crowd.kills - before

    def summary(self) -> Summary:
        """What the match looks like now."""
        heroes = tuple(
            HeroSummary(
                hero.name,
                hero.health,
                hero.kills,
                tuple(name.rsplit(".", 1)[-1] for name in hero.machine.active_names),
                hero.status.active_states,
                (round(hero.x, 3), round(hero.y, 3)),
            )
            for hero in self.heroes
        )
        counts = self.crowd.brains.counts()
        top = {name: counts.get(f"Enemy.Alive.{name}", 0) for name in _ENEMY_MODES}
        top["Dead"] = counts.get("Enemy.Dead", 0)
        return Summary(self.frame, heroes, self.crowd.kills, top, self.fingerprint())

    def fingerprint(self) -> str:
        """A digest of every actor's state and body: equal digests, equal worlds."""
        digest = hashlib.sha256()
        for hero in self.heroes:
            parts = (hero.machine.active_names, hero.status.mask, hero.health, hero.x, hero.y)
            digest.update(repr(parts).encode())
        crowd = self.crowd
        for array in (crowd.x, crowd.y, crowd.health, crowd.anim, crowd.style):
            digest.update(np.ascontiguousarray(array).tobytes())
        for i in range(crowd.count):
            digest.update("/".join(crowd.brains.active(i)).encode())
        return digest.hexdigest()[:16]


_ENEMY_MODES = ("Roam", "Chase", "Combo", "Flee", "Stunned")


@dataclass(frozen=True)
class HeroSummary:
    name: str
    health: int
    kills: int
    states: tuple[str, ...]
    status: tuple[str, ...]
    position: tuple[float, float]


@dataclass(frozen=True)
class Summary:
    """A match at one frame: the heroes, the enemies by what they do, a digest of it all."""

    frame: int
    heroes: tuple[HeroSummary, ...]
    kills: int
    enemies: dict[str, int]
    fingerprint: str

    def lines(self) -> list[str]:
        seconds = self.frame / config.FPS
        lines = [f"frame {self.frame} ({seconds:.1f} s): {self.kills} enemies defeated"]
        for hero in self.heroes:
            lines.append(
                f"  {hero.name}: health {hero.health}, {hero.kills} kills, "
                f"in {' > '.join(hero.states)}, status {', '.join(hero.status) or '-'}"
            )
        doing = ", ".join(f"{count} {mode.lower()}" for mode, count in self.enemies.items())
        lines.append(f"  enemies: {doing}")
        lines.append(f"  world fingerprint {self.fingerprint}")
        return lines
