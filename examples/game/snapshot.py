"""A snapshot of the whole arena in one packed bit stream, as the server sends it each frame.

First the match: its machine (``MATCH_CODEC``), its number of waves, its score and the size
of the crowd. For each hero: its machine (``HERO_CODEC``), its status effects (a
``BitmaskCodec``) and its body; then, for each enemy, its chart configuration and its
position to the unit. Machines and fields follow each other with no rounding in between, so
the arena's few hundred actors fit in one datagram. Reading is all or nothing: a bad packet
raises ``PacketError`` before anything is used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game import config
from game.enemies import ANIMATIONS
from game.hero import HERO_CODEC, Hero
from game.match import MATCH_CODEC
from game.status import STATUS
from game.world import World
from statetree import net
from statetree.bitmask import BitCause
from statetree.chart import CompiledChart, chart_structure
from statetree.chart.model import StateDef
from statetree.core.state import State

STATUS_CODEC = net.BitmaskCodec(STATUS)
TIMED = ("Stunned", "Poisoned", "Shielded", "InDialogue", "Protected", "Steady")
LEFT_BITS = 9  # frames an effect has left (all last under 512 frames)
HEALTH_BITS, HEALTH_OFFSET = 9, 256  # health from -256 to 255
LIVES_BITS = 4
WAVES_BITS, SCORE_BITS, KILLS_BITS = 4, 24, 20
COUNT_BITS = 10  # enemies, up to 1023 (the most a coordinate's 10 bits suit anyway)


@dataclass(frozen=True)
class Body:
    """A hero's data outside its states, as exact as the simulation needs it."""

    frame: int
    x: float
    y: float
    facing: tuple[float, float]
    health: int
    dodge_in: int
    kills: int
    lives: int
    status: int
    left: tuple[int, ...]
    """Frames left for each of TIMED (0 when it is not running)."""

    @classmethod
    def of(cls, hero: Hero) -> Body:
        left = tuple(max(0, hero.status_until.get(name, hero.frame) - hero.frame) for name in TIMED)
        dodge_in = max(0, hero.dodge_ready_at - hero.frame)
        return cls(
            hero.frame, hero.x, hero.y, hero.facing, hero.health, dodge_in, hero.kills,
            hero.lives, hero.status.mask, left,
        )  # fmt: skip

    def restore(self, hero: Hero) -> None:
        """Put this body back on ``hero`` (after its machine was restored)."""
        hero.frame = self.frame
        hero.x, hero.y, hero.facing = self.x, self.y, self.facing
        hero.health, hero.kills, hero.lives = self.health, self.kills, self.lives
        hero.dodge_ready_at = self.frame + self.dodge_in
        hero.status.apply_mask(self.status, cause=BitCause.ROLLBACK)
        hero.status_until = {
            name: self.frame + left
            for name, left in zip(TIMED, self.left, strict=True)
            if left and hero.status.is_active(name)
        }

    def write(self, writer: net.BitWriter) -> None:
        for value in (self.x, self.y, *self.facing):
            writer.write_float64(value)
        writer.write_uint(self.health + HEALTH_OFFSET, HEALTH_BITS)
        writer.write_uint(self.dodge_in, 6)
        writer.write_uint(self.kills, 16)
        writer.write_uint(self.lives, LIVES_BITS)
        for left in self.left:
            writer.write_uint(left, LEFT_BITS)

    @classmethod
    def read(cls, reader: net.BitReader, frame: int, status: int) -> Body:
        """Raises ``PacketError`` for a body no hero can have (off the arena, say)."""
        at = reader.position
        x, y, fx, fy = (reader.read_float64() for _ in range(4))
        if not (0 <= x <= config.WIDTH and 0 <= y <= config.HEIGHT and _unit(fx, fy)):
            raise net.PacketError(f"a hero at ({x}, {y}) facing ({fx}, {fy})", bit=at)
        health = reader.read_uint(HEALTH_BITS) - HEALTH_OFFSET
        dodge_in, kills = reader.read_uint(6), reader.read_uint(16)
        lives = reader.read_uint(LIVES_BITS)
        left = tuple(reader.read_uint(LEFT_BITS) for _ in TIMED)
        return cls(frame, x, y, (fx, fy), health, dodge_in, kills, lives, status, left)


@dataclass(frozen=True)
class HeroState:
    """A hero as a snapshot carries it: its configuration, its effects and its body."""

    configuration: net.Configuration
    body: Body


@dataclass(frozen=True)
class Enemies:
    """The enemies as a client sees them: where they are and the pose they show."""

    x: NDArray[np.float64]
    y: NDArray[np.float64]
    anim: NDArray[np.int8]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Enemies):
            return NotImplemented
        return (
            np.array_equal(self.x, other.x)
            and np.array_equal(self.y, other.y)
            and np.array_equal(self.anim, other.anim)
        )

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Snapshot:
    """The arena at one frame, as a client receives it."""

    frame: int
    match: net.Configuration
    waves: int
    score: int
    heroes: tuple[HeroState, ...]
    enemies: Enemies
    kills: int


def _bits(codec: net.Codec, machine: Any) -> int:
    """The bits ``codec`` writes for ``machine`` now."""
    writer = net.BitWriter()
    codec.write(writer, machine)
    return writer.size


def _most_bits(codec: net.Codec) -> int:
    """The most bits ``codec`` writes for one machine: its header and every payload field
    of its states, as if all were active at once (a bound, never too small)."""
    fields = codec.schema().get("payloads", {}).values()
    return codec.header_bits + sum(field["bits"] for payload in fields for field in payload)


class Snapshots:
    """Writes and reads the snapshots of worlds of one enemy chart and number of heroes
    (of any size of crowd: a snapshot says how many enemies it carries)."""

    def __init__(self, chart: CompiledChart, heroes: int) -> None:
        self.heroes = heroes
        self.enemy_codec = net.Codec.auto(
            chart_structure(chart.chart),
            classes=chart.by_path,
            settles_empty={"Enemy.Alive": False},  # the ground state Roam is always there
        )
        self.fingerprint = net.stream_fingerprint(
            [MATCH_CODEC, HERO_CODEC, STATUS_CODEC, self.enemy_codec]
        )
        self.leaves = tuple(path for path in chart.by_path if not _children(chart, path))
        self._leaf_bits = [self._bits_of(chart, path) for path in self.leaves]
        # Leaf headers have one width: a value read back names its leaf (and its animation).
        (self._width,) = {width for _, width in self._leaf_bits}
        animations = _animations(chart)
        shown = (animations[chart.by_path[path]] for path in self.leaves)
        self._anim_of_value = {
            value: ANIMATIONS.index(anim)
            for (value, _), anim in zip(self._leaf_bits, shown, strict=True)
            if anim  # states left as soon as entered (Next, Over) show nothing and never settle
        }

    def most_enemies(self, world: World) -> int:
        """The most enemies a snapshot of a world like ``world`` (its heroes, its match)
        carries in one state message, whatever states its heroes and match are in."""
        fixed = self._written(world).size - world.crowd.count * (self._width + 20)
        machines = [(MATCH_CODEC, world.match.machine)]
        machines += [(HERO_CODEC, hero.machine) for hero in world.heroes]
        for codec, machine in machines:  # later states may carry bigger payloads than now
            fixed += _most_bits(codec) - _bits(codec, machine)
        room = (net.MAX_STATE * 8 - fixed) // (self._width + 20)
        return int(min(room, (1 << COUNT_BITS) - 1))

    def write(self, world: World) -> bytes:
        """The snapshot of ``world`` now.

        Raises:
            UsageError: it does not fit in one state message (too many enemies).
        """
        return self._written(world).to_bytes()

    def _written(self, world: World) -> net.BitWriter:
        writer = net.BitWriter()
        match = world.match
        MATCH_CODEC.write(writer, match.machine)
        writer.write_uint(match.waves, WAVES_BITS)
        writer.write_uint(match.score, SCORE_BITS)
        writer.write_uint(world.crowd.count, COUNT_BITS)
        for hero in world.heroes:
            HERO_CODEC.write(writer, hero.machine)
            STATUS_CODEC.write(writer, hero.status)
            Body.of(hero).write(writer)
        crowd = world.crowd
        leaf_bits = self._leaf_bits
        leaves = crowd.brains.leaves(self.leaves).tolist()
        xs, ys = _quantised(crowd.x).tolist(), _quantised(crowd.y).tolist()
        for leaf, x, y in zip(leaves, xs, ys, strict=True):
            writer.write_uint(*leaf_bits[leaf])
            writer.write_uint(x, 10)
            writer.write_uint(y, 10)
        writer.write_uint(crowd.kills, KILLS_BITS)
        return writer

    def read(self, frame: int, data: bytes) -> Snapshot:
        """The snapshot in ``data``, for ``frame``.

        Raises:
            PacketError: ``data`` is not such a snapshot.
        """
        reader = net.BitReader(data)
        match = MATCH_CODEC.read(reader)
        waves, score = reader.read_uint(WAVES_BITS), reader.read_uint(SCORE_BITS)
        at = reader.position
        count = reader.read_uint(COUNT_BITS)
        if not waves or not count:
            raise net.PacketError(f"a match of {waves} waves and {count} enemies", bit=at)
        heroes = tuple(self._read_hero(reader, frame) for _ in range(self.heroes))
        anim = np.zeros(count, np.int8)
        xs, ys = np.zeros(count), np.zeros(count)
        for i in range(count):
            anim[i] = self._enemy_anim(reader)
            xs[i], ys[i] = reader.read_uint(10), reader.read_uint(10)
        kills = reader.read_uint(KILLS_BITS)
        reader.finish()
        return Snapshot(frame, match, waves, score, heroes, Enemies(xs, ys, anim), kills)

    def of_world(self, world: World) -> Snapshot:
        """What a client reads from the snapshot of ``world`` (for comparisons)."""
        return self.read(world.frame, self.write(world))

    def _read_hero(self, reader: net.BitReader, frame: int) -> HeroState:
        configuration = HERO_CODEC.read(reader)
        status = STATUS_CODEC.read(reader)
        return HeroState(configuration, Body.read(reader, frame, status))

    def _enemy_anim(self, reader: net.BitReader) -> int:
        at = reader.position
        value = reader.read_uint(self._width)
        anim = self._anim_of_value.get(value)
        if anim is None:
            raise net.PacketError(f"enemy configuration {value} is not a settled one", bit=at)
        return anim

    def _bits_of(self, chart: CompiledChart, leaf: str) -> tuple[int, int]:
        """The bits of the configuration whose innermost state is ``leaf``."""
        names = leaf.split(".")
        root: net.ActiveState | None = None
        for end in range(len(names), 0, -1):
            root = net.ActiveState(chart.by_path[".".join(names[:end])], (), root)
        assert root is not None
        return self.enemy_codec.bits_of(net.Configuration(root))


def _children(chart: CompiledChart, path: str) -> bool:
    prefix = path + "."
    return any(other.startswith(prefix) for other in chart.by_path)


def _unit(fx: float, fy: float) -> bool:
    """Whether (fx, fy) is a direction (NaN is not)."""
    return abs(math.hypot(fx, fy) - 1.0) < 1e-6


def _quantised(values: NDArray[np.float64]) -> NDArray[np.int64]:
    return np.clip(np.rint(values), 0, 1023).astype(np.int64)


def _animations(chart: CompiledChart) -> dict[type[State[Any]], str]:
    """The animation each state shows: its own ``play_animation``, or its outer state's."""
    found: dict[type[State[Any]], str] = {}

    def visit(state: StateDef, path: str, inherited: str) -> None:
        own = [a.arguments["name"] for a in state.enter if a.type == "play_animation"]
        anim = str(own[-1]) if own else inherited
        found[chart.by_path[path]] = anim
        for child in state.states:
            visit(child, f"{path}.{child.name}", anim)

    visit(chart.chart.root, chart.chart.root.name, "")
    return found
