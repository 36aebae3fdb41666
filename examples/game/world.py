"""The arena: heroes, the enemy crowd and the match's waves, stepped one fixed frame at a time.

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
from game.enemies import Crowd, load_chart
from game.hero import AttackMove, Hero
from game.inputs import Input
from game.match import DEFAULT_RULES, Match, MatchView, Rules
from statetree.chart import CompiledChart

STARTS = ((config.WIDTH * 0.4, config.HEIGHT / 2), (config.WIDTH * 0.6, config.HEIGHT / 2))
RESPAWN_SPOTS = tuple(
    (config.WIDTH * fx, config.HEIGHT * fy) for fy in (0.25, 0.5, 0.75) for fx in (0.2, 0.5, 0.8)
)
"""Where a hero may come back: the one farthest from every enemy in play."""


class World:
    """Heroes (one or two), a crowd of enemies and the match that sends them in waves.

    Args:
        players: how many heroes.
        enemies: how many enemies (the last wave brings them all).
        brains: the enemies' chart engine, ``"batch"`` or ``"machines"``.
        chart: the compiled enemy chart (default: ``enemy.yaml``).
        rules: the waves and the heroes' lives.
        trace: trace level of the heroes' and the match's machines; their lines go to
            ``trace_sink``.
    """

    def __init__(
        self,
        players: int = 1,
        enemies: int = config.ENEMIES,
        *,
        brains: str = "batch",
        chart: CompiledChart | None = None,
        rules: Rules = DEFAULT_RULES,
        trace: st.TraceLevel = st.TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
    ) -> None:
        self.frame = 0
        self.heroes = [
            Hero(
                f"Hero{i + 1}" if players > 1 else "Hero",
                *STARTS[i],
                lives=rules.lives,
                trace=trace,
                trace_sink=trace_sink,
            )
            for i in range(players)
        ]
        for hero in self.heroes:
            hero.on_strike = self.strike
            hero.respawn_spot = self.respawn_spot
            hero.machine.process_state_transitions()
        self.crowd = Crowd(chart or load_chart(), enemies, self.heroes, brains)
        self.match = Match(self.heroes, self.crowd, rules, trace=trace, trace_sink=trace_sink)
        self.match.step(self.frame)

    @property
    def over(self) -> bool:
        """Whether the match is won or lost: the world stands still from then on."""
        return self.match.over

    def step(self, inputs: Sequence[Input]) -> None:
        """One frame: the heroes act on their inputs, the enemies on the world, and the
        match keeps count. A match that is over stands still."""
        if self.over:
            return
        self.frame += 1
        for hero, value in zip(self.heroes, inputs, strict=True):
            hero.step(self.frame, value)
        self.crowd.step(self.frame, config.DT)
        self.match.step(self.frame)

    def strike(self, hero: Hero, move: AttackMove) -> None:
        """A hero's attack lands on every living enemy in its reach and arc."""
        crowd = self.crowd
        dx, dy = crowd.x - hero.x, crowd.y - hero.y
        distance = np.sqrt(dx * dx + dy * dy)
        facing_x, facing_y = hero.facing
        ahead = (dx * facing_x + dy * facing_y) >= move.arc * distance
        near = distance - config.ENEMY_RADIUS <= move.reach
        hit = np.flatnonzero(ahead & near & crowd.in_play)
        before = crowd.kills
        crowd.damage(hit, move.damage, hero)
        hero.kills += crowd.kills - before
        self.match.scored(crowd.kills - before)

    def respawn_spot(self, hero: Hero) -> tuple[float, float]:
        """The spot of ``RESPAWN_SPOTS`` farthest from every enemy in play."""
        crowd = self.crowd
        xs, ys = crowd.x[crowd.in_play], crowd.y[crowd.in_play]
        if not len(xs):
            return hero.home
        room = [float(np.min((xs - x) ** 2 + (ys - y) ** 2)) for x, y in RESPAWN_SPOTS]
        return RESPAWN_SPOTS[room.index(max(room))]

    def summary(self) -> Summary:
        """What the match looks like now."""
        heroes = tuple(
            HeroSummary(
                hero.name,
                hero.lives,
                max(hero.health, 0),
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
        top["Waiting"] = counts.get("Enemy.Waiting", 0)
        match = self.match.view()
        return Summary(self.frame, match, heroes, self.crowd.kills, top, self.fingerprint())

    def fingerprint(self) -> str:
        """A digest of every actor's state and body: equal digests, equal worlds."""
        digest = hashlib.sha256()
        digest.update(repr((self.match.machine.active_names, self.match.score)).encode())
        for hero in self.heroes:
            parts = (
                hero.machine.active_names, hero.status.mask, hero.lives, hero.health, hero.x,
                hero.y,
            )  # fmt: skip
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
    lives: int
    health: int
    kills: int
    states: tuple[str, ...]
    status: tuple[str, ...]
    position: tuple[float, float]


@dataclass(frozen=True)
class Summary:
    """A match at one frame: the heroes, the enemies by what they do, a digest of it all."""

    frame: int
    match: MatchView
    heroes: tuple[HeroSummary, ...]
    kills: int
    enemies: dict[str, int]
    fingerprint: str

    def lines(self) -> list[str]:
        seconds = self.frame / config.FPS
        lines = [
            f"frame {self.frame} ({seconds:.1f} s): {self.match.headline()}, "
            f"score {self.match.score}, {self.kills} enemies defeated"
        ]
        for hero in self.heroes:
            lines.append(
                f"  {hero.name}: {_lives(hero.lives)}, health {hero.health}, "
                f"{plural(hero.kills, 'kill')}, "
                f"in {' > '.join(hero.states)}, status {', '.join(hero.status) or '-'}"
            )
        doing = ", ".join(
            f"{count} {_MODE_WORDS.get(mode, mode.lower())}" for mode, count in self.enemies.items()
        )
        lines.append(f"  enemies: {doing}")
        lines.append(f"  world fingerprint {self.fingerprint}")
        return lines


_MODE_WORDS = {"Waiting": "off the arena"}
"""How the summary says a chart state where the word alone would mislead (waiting for what?)."""


def _lives(count: int) -> str:
    return "out" if count <= 0 else plural(count, "life", "lives")


def plural(count: int, noun: str, nouns: str = "") -> str:
    """``1 kill``, ``2 kills``."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
