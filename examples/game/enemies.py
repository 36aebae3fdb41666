"""The enemy crowd: positions and health in NumPy arrays, behaviour in ``enemy.yaml``.

The chart decides *what* each enemy does (wait off the arena for its wave, roam, chase,
strike in a combo, flee, reel from a hit, lie dead); its host actions tell the crowd how:
``move`` sets a movement style and speed, ``play_animation`` the pose drawn, ``strike`` hurts
a hero in reach and ``spawn`` places the enemy at the arena's edge. Each frame the crowd
turns the world into the chart's inputs: three levels held while true (``SeesHero``,
``InReach``, ``Wounded``) and one-off events (``Summon``, ``Hit``, ``Died``).

Bodies move with additions, products, quotients and square roots only: IEEE 754 rounds
those the same on every CPU, where NumPy's sines and cosines differ with the instruction
set, so a match is the same, bit for bit, on every machine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from game import config
from game.brains import ArrayHandler, Brains, Entities, MachineBrains
from game.hero import Hero
from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionType,
    Chart,
    CompiledChart,
    Event,
    Param,
    Reloaded,
    compile_chart,
    load,
)
from statetree.chart.model import ParamValue

CHART_PATH = Path(__file__).resolve().parent / "enemy.yaml"

ANIMATIONS = ("Wander", "Rest", "Chase", "Windup", "Strike", "Stunned", "Flee", "Dead", "Waiting")
STYLES = ("hold", "wander", "chase", "flee", "knockback")
EFFECTS = ("", "Stunned", "Poisoned")
LEVELS = ("SeesHero", "InReach", "Wounded")
CHASE, FLEE = (STYLES.index(name) for name in ("chase", "flee"))
DEAD, WAITING = ANIMATIONS.index("Dead"), ANIMATIONS.index("Waiting")
HIT, DIED, SUMMON = 0, 1, 2
EDGE_EVENTS = [Event("input", "Hit"), Event("event", "Died"), Event("input", "Summon")]
WANDER_SPREAD = 0.4
"""How far a wandering enemy's goal is from the hero it hunts, as a share of the arena."""
SAFE_SPAWN = 200.0
"""An enemy comes in at least this far from every hero (the far side of the arena if not)."""

REGISTRY = DEFAULT_REGISTRY.with_actions(
    ActionType("play_animation", (Param("name", choices=ANIMATIONS),)),
    ActionType("move", (Param("style", choices=STYLES), Param("speed", float))),
    ActionType("strike", (Param("damage", int), Param("effect", str, "", choices=EFFECTS))),
    ActionType("spawn", ()),
)
"""The enemy chart's host actions, beside the built-in timers, history and events: a chart
naming an animation, movement style or effect the game does not have does not load."""


def load_chart(path: Path = CHART_PATH) -> CompiledChart:
    """Load, check and compile the enemy chart.

    Raises:
        ChartError: the file does not load, or names an animation, style or effect the
            game does not have.
    """
    return compile_chart(load(path, REGISTRY))


class Crowd:
    """Every enemy's body, in arrays, and the brains that run the chart for all of them.

    Args:
        chart: the compiled enemy chart.
        count: how many enemies.
        heroes: the heroes they hunt and hurt.
        brains: ``"batch"`` for one ``ChartBatch``, ``"machines"`` for a ``ChartMachine``
            each.
    """

    def __init__(
        self, chart: CompiledChart, count: int, heroes: Sequence[Hero], brains: str = "batch"
    ) -> None:
        self.count = count
        self.heroes = heroes
        self.frame = 0
        self.x = np.zeros(count)
        self.y = np.zeros(count)
        self.heading_x = np.zeros(count)
        self.heading_y = np.zeros(count)
        """Each enemy's direction of travel, a unit vector."""
        self.speed = np.zeros(count)
        self.style = np.zeros(count, np.int8)
        self.anim = np.zeros(count, np.int8)
        self.health = np.full(count, float(config.ENEMY_HEALTH))
        self.spawns = np.zeros(count, np.int64)
        self.target = np.full(count, -1, np.intp)
        self.distance = np.full(count, np.inf)
        self.levels = {name: np.zeros(count, bool) for name in LEVELS}
        self.pending = np.full(count, -1, np.intp)
        """The one-off event each enemy gets this frame (HIT, DIED, SUMMON or -1)."""
        # Each enemy comes at a hero at its own slight angle, so a pack surrounds rather
        # than queues: a rotation of up to 30 degrees either way, from t = tan(angle / 2).
        t = (np.arange(count) * 0.381966) % 1.0 * 0.54 - 0.27
        self.slant = ((1 - t * t) / (1 + t * t), 2 * t / (1 + t * t))
        self.kills = 0
        self.brains = make_brains(brains, chart, count, self.handlers())
        self.brains.start()

    def handlers(self) -> Mapping[str, ArrayHandler]:
        return {
            "play_animation": self._play_animation,
            "move": self._move,
            "strike": self._strike,
            "spawn": self._spawn,
        }

    # -- host actions ----------------------------------------------------------------------

    def _play_animation(self, entities: Entities, params: Mapping[str, ParamValue]) -> None:
        self.anim[entities] = ANIMATIONS.index(str(params["name"]))

    def _move(self, entities: Entities, params: Mapping[str, ParamValue]) -> None:
        style = STYLES.index(str(params["style"]))
        self.style[entities] = style
        self.speed[entities] = float(params["speed"])
        if STYLES[style] == "wander":
            self._wander(entities)

    def _wander(self, entities: Entities) -> None:
        """Head for a place of its own (the same in every run), drawn toward the hero it
        hunts: a wave closes in, loosely."""
        x, y = _scattered(entities * 31 + self.frame)
        target = self.target[entities]
        hunting = target >= 0
        if hunting.any():
            hx = np.array([hero.x for hero in self.heroes] + [0.0])[target]
            hy = np.array([hero.y for hero in self.heroes] + [0.0])[target]
            x = np.where(hunting, hx + (x - hx) * WANDER_SPREAD, x)
            y = np.where(hunting, hy + (y - hy) * WANDER_SPREAD, y)
        self._head(entities, x - self.x[entities], y - self.y[entities])

    def _strike(self, entities: Entities, params: Mapping[str, ParamValue]) -> None:
        effect = str(params["effect"]) or None
        reach = config.REACH * 1.25
        for i in entities.tolist():
            if self.distance[i] <= reach:
                self.heroes[self.target[i]].hurt(int(params["damage"]), effect)

    def _spawn(self, entities: Entities, params: Mapping[str, ParamValue]) -> None:
        # On the arena's edge, at a place that depends only on who and how often (the same
        # in every run): the first of four places around the edge far enough from every
        # hero, or the one farthest from them when none is.
        turn = (entities * 0.618 + self.spawns[entities] * 0.273) % 1.0
        places = [_on_edge((turn + shift) % 1.0) for shift in (0.0, 0.5, 0.25, 0.75)]
        room = np.array([self._room(x, y) for x, y in places])  # (place, enemy)
        safe = room >= SAFE_SPAWN**2
        chosen = np.where(safe.any(axis=0), safe.argmax(axis=0), room.argmax(axis=0))
        self.x[entities] = np.choose(chosen, [x for x, _ in places])
        self.y[entities] = np.choose(chosen, [y for _, y in places])
        self.health[entities] = config.ENEMY_HEALTH
        self.spawns[entities] += 1

    def _room(self, x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
        """The squared distance from each point to the nearest hero."""
        room = np.full(len(x), np.inf)
        for hero in self.heroes:
            room = np.minimum(room, (x - hero.x) ** 2 + (y - hero.y) ** 2)
        return room

    def _head(self, entities: Entities, dx: NDArray[np.float64], dy: NDArray[np.float64]) -> None:
        length = np.sqrt(dx * dx + dy * dy)
        length[length == 0] = 1.0
        self.heading_x[entities], self.heading_y[entities] = dx / length, dy / length

    # -- a frame ---------------------------------------------------------------------------

    @property
    def in_play(self) -> NDArray[np.bool_]:
        """The enemies on the arena and alive (not dead, not waiting for a wave)."""
        return in_play(self.anim)

    def summon(self, entities: Entities) -> None:
        """Bring waiting enemies into the arena on the next frame."""
        self.pending[entities] = SUMMON

    def damage(self, entities: Entities, amount: int, source: Hero) -> None:
        """Hit enemies: each is stunned and knocked back away from ``source``, or dies if its
        health runs out (once: two heroes striking it in one frame fell it once)."""
        alive = entities[self.in_play[entities] & (self.health[entities] > 0)]
        self._head(alive, self.x[alive] - source.x, self.y[alive] - source.y)
        self.health[alive] -= amount
        dead = alive[self.health[alive] <= 0]
        self.pending[alive] = HIT
        self.pending[dead] = DIED
        self.kills += len(dead)

    def step(self, frame: int, dt: float) -> None:
        """One frame: the chart's inputs from the world, its timers, then the bodies move."""
        self.frame = frame
        self._find_targets()
        self.brains.send_each(EDGE_EVENTS, self.pending)
        self.pending.fill(-1)
        # Only an enemy in play is wounded: one summoned again comes back whole, not fleeing.
        wounded = (self.health <= config.WOUNDED) & self.in_play
        healed = (self.health >= 2 * config.WOUNDED) | ~self.in_play
        self.levels = {
            "Wounded": wounded | (self.levels["Wounded"] & ~healed),
            "SeesHero": self.distance <= config.SIGHT,
            "InReach": self.distance <= config.REACH,
        }
        # One call for the three levels: each enemy whose levels changed processes once.
        self.brains.set_levels({Event("held", name): on for name, on in self.levels.items()})
        self.brains.tick(dt)
        self._move_bodies(dt)

    def _find_targets(self) -> None:
        """The nearest hunted hero of each enemy in play (see ``Hero.hunted``)."""
        self.distance.fill(np.inf)
        self.target.fill(-1)
        in_play = self.in_play
        for index, hero in enumerate(self.heroes):
            if not hero.hunted:
                continue
            dx, dy = self.x - hero.x, self.y - hero.y
            distance = np.sqrt(dx * dx + dy * dy) - config.HERO_RADIUS
            closer = in_play & (distance < self.distance)
            self.distance[closer] = distance[closer]
            self.target[closer] = index

    def _move_bodies(self, dt: float) -> None:
        hunted = np.flatnonzero(self.target >= 0)
        if len(hunted):
            targets = self.target[hunted]
            hx = np.array([hero.x for hero in self.heroes])[targets]
            hy = np.array([hero.y for hero in self.heroes])[targets]
            style = self.style[hunted]
            chase = hunted[style == CHASE]
            cos, sin = self.slant[0][chase], self.slant[1][chase]
            tx, ty = hx[style == CHASE] - self.x[chase], hy[style == CHASE] - self.y[chase]
            self._head(chase, cos * tx - sin * ty, sin * tx + cos * ty)
            # A knock-back keeps the heading its hit gave it: away from the hero who struck.
            run = style == FLEE
            self._head(hunted[run], self.x[hunted[run]] - hx[run], self.y[hunted[run]] - hy[run])
        step = np.where(self.distance < config.REACH * 0.6, 0.0, self.speed * dt)
        r = config.ENEMY_RADIUS
        self.x = np.clip(self.x + self.heading_x * step, r, config.WIDTH - r)
        self.y = np.clip(self.y + self.heading_y * step, r, config.HEIGHT - r)
        healing = self.style == FLEE
        healed = self.health[healing] + config.HEAL_PER_SECOND * dt
        self.health[healing] = np.minimum(healed, config.ENEMY_HEALTH)

    # -- reading ---------------------------------------------------------------------------

    @property
    def chart(self) -> CompiledChart:
        """The chart the enemies run now (the last one reloaded, if any)."""
        return self.brains.compiled

    def reload(self, chart: Chart | CompiledChart) -> Reloaded:
        """Give every enemy the new chart (see ``ChartMachine.reload``)."""
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        return self.brains.reload(compiled)


def in_play(anim: NDArray[np.int8]) -> NDArray[np.bool_]:
    """Which enemies, by the pose they show, are on the arena and alive."""
    found: NDArray[np.bool_] = (anim != DEAD) & (anim != WAITING)
    return found


def make_brains(
    kind: str, chart: CompiledChart, count: int, handlers: Mapping[str, ArrayHandler]
) -> Brains:
    """The chart engine for ``count`` enemies: ``"batch"`` or ``"machines"``."""
    if kind == "batch":
        from game.batch_brains import BatchBrains

        return BatchBrains(chart, count, handlers)
    return MachineBrains(chart, count, handlers)


def _scattered(seq: NDArray[np.int64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Points spread evenly over the arena (an R2 sequence)."""
    x = np.asarray((0.5 + seq * 0.7548776662) % 1.0 * (config.WIDTH - 40) + 20, np.float64)
    y = np.asarray((0.5 + seq * 0.5698402910) % 1.0 * (config.HEIGHT - 40) + 20, np.float64)
    return x, y


def _on_edge(turn: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Points on the arena's border, ``turn`` (0 to 1) of the way around it."""
    w, h = config.WIDTH - 20.0, config.HEIGHT - 20.0
    along = turn * 2 * (w + h)
    side = np.searchsorted([w, w + h, 2 * w + h], along, side="right")
    x = np.choose(side, [along, w, 2 * w + h - along, 0.0])
    y = np.choose(side, [0.0, along - w, h, 2 * (w + h) - along])
    return x + 10.0, y + 10.0
