"""The hero: a class-based machine in the style of the HSM book.

``Alive`` holds ``Locomotion`` (``Idle`` / ``Walk``), ``Dodge``, ``Attack``, ``Stunned``,
``Talk`` and ``Flinch``; ``Dead`` is its sibling. Outer states decide first: dying interrupts
anything, a stun anything alive, and a hard hit (a one-shot ``Hurt`` event posted to the
machine) makes the hero flinch out of whatever it was doing. A death costs a life; the hero
comes back after two seconds, protected for three, until its lives run out.

The states drive four state values, set while a state is active and restored as it exits:
the speed scale, the animation the renderer plays, whether the hero can be hurt and the
heading a dodge locks. Timings are counted in frames from a stamp each state carries as its
``on_enter`` argument, and those arguments are the states' network payloads, so a received
or rolled-back state resumes exactly where it was.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass

import statetree as st
from game import config
from game.inputs import IDLE, Input
from game.status import STATUS, expire
from statetree import net
from statetree.bitmask import BitmaskMachine
from statetree.structure import children, derive, outermost


def since(frame: int, stamp: int) -> int:
    """Frames from the 16-bit ``stamp`` to ``frame``."""
    return (frame - stamp) % config.WRAP


class AttackKind(enum.Enum):
    """The hero's attacks: a slash from standing or walking, a lunge out of a dodge."""

    SLASH = 0
    LUNGE = 1


@dataclass(frozen=True)
class AttackMove:
    """How an attack plays: its length, the frame it hits on, its reach, arc and damage."""

    frames: int
    hit_frame: int
    reach: float
    arc: float
    """The cosine of the half-angle of the arc it hits in."""
    damage: int
    speed: float


@dataclass(frozen=True)
class Hurt:
    """A hit that landed: a one-shot event posted to the hero's machine."""

    damage: int


ATTACKS = {
    AttackKind.SLASH: AttackMove(22, 7, 44.0, 0.25, 12, 0.35),
    AttackKind.LUNGE: AttackMove(26, 9, 62.0, 0.6, 20, 1.3),
}


class Hero:
    """The owner: inputs, body, status effects, the values the states drive, the machine.

    Args:
        name: the hero's name (the machine's name in traces).
        x, y: where it starts (and respawns, unless ``respawn_spot`` says otherwise).
        lives: how many times it can die before it is out of the match.
        trace, trace_sink: the machine's tracing (``TraceLevel.BASIC`` prints every change).
    """

    def __init__(
        self,
        name: str,
        x: float,
        y: float,
        *,
        lives: int = config.LIVES,
        trace: st.TraceLevel = st.TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
    ) -> None:
        self.name = name
        self.home = (x, y)
        self.x, self.y = x, y
        self.facing = (1.0, 0.0)
        self.frame = 0
        self.input = IDLE
        self.health = config.HERO_HEALTH
        self.dodge_ready_at = 0
        self.kills = 0
        self.lives = self.max_lives = lives
        self.status_until: dict[str, int] = {}
        self.status = BitmaskMachine(STATUS, self, name=f"{name}.status", history_size=16)
        self.speed_scale = st.StateValue(0.0)
        self.animation = st.StateValue("idle")
        self.invulnerable = st.StateValue(False)
        self.heading: st.StateValue[tuple[int, int] | None] = st.StateValue(None)
        self.on_strike: Callable[[Hero, AttackMove], None] | None = None
        """Set by the world that resolves hits (the server's); a client predicts without."""
        self.respawn_spot: Callable[[Hero], tuple[float, float]] | None = None
        """Set by the world: where a respawn is safest (the home spot without one)."""
        self.machine = st.StateMachine(
            HeroStates.Alive,
            self,
            name=name,
            trace=trace,
            trace_sink=trace_sink,
            time_in_state=True,  # the renderer animates from each state's time
        )

    def step(self, frame: int, value: Input) -> None:
        """One frame: effects run out or bite, the machine settles on the input, the states act."""
        self.frame = frame
        self.input = value
        expire(self)
        if self.status.is_active("Poisoned") and frame % config.POISON_PERIOD == 0:
            self.health -= config.POISON_DAMAGE
        self.machine.process_state_transitions()
        self.machine.update_states(config.DT)

    def hurt(self, damage: int, effect: str | None = None) -> bool:
        """Take a hit from an enemy; returns whether it landed (not in a dodge, not while
        protected after a respawn)."""
        status = self.status
        if (
            self.invulnerable.value
            or not status.is_active("Alive")
            or status.is_active("Protected")
        ):
            return False
        self.health -= damage
        self.machine.post(Hurt(damage))  # seen by the next frame's transitions
        if effect is not None:
            self.status.try_activate(effect)
        return True

    @property
    def hunted(self) -> bool:
        """Whether enemies go for this hero: alive, not protected (a respawn's grace), not
        in a dialogue (talking at the shrine)."""
        status = self.status
        return status.is_active("Alive") and not (
            status.is_active("Protected") or status.is_active("InDialogue")
        )

    @property
    def out(self) -> bool:
        """Dead with no life left: out of the match."""
        return self.lives <= 0 and self.machine.is_in_state(HeroStates.Dead)

    @property
    def near_shrine(self) -> bool:
        sx, sy = config.SHRINE
        return math.sqrt((self.x - sx) ** 2 + (self.y - sy) ** 2) <= config.TALK_REACH

    def move(self, dx: float, dy: float, dt: float) -> None:
        """Move along (dx, dy) at the current speed, staying inside the arena."""
        length = math.sqrt(dx * dx + dy * dy)
        if not length:
            return
        self.facing = (dx / length, dy / length)
        step = config.HERO_SPEED * self.speed_scale.value * dt / length
        r = config.HERO_RADIUS
        self.x = min(max(self.x + dx * step, r), config.WIDTH - r)
        self.y = min(max(self.y + dy * step, r), config.HEIGHT - r)


class HeroStates:
    """The states, nested so their names read ``HeroStates.Walk`` in traces and plots."""

    @outermost("Alive", "Dead")  # the order of states on the wire, whatever the code's order
    @children("Locomotion", "Dodge", "Attack", "Stunned", "Talk", "Flinch")
    class Alive(st.State[Hero]):
        def on_enter(self) -> None:
            if self.cause is st.Cause.DESERIALIZATION:
                return  # received: the body that follows brings health, place and effects
            hero = self.owner
            hero.health = config.HERO_HEALTH
            hero.status.try_activate("Alive")
            if hero.lives == hero.max_lives:  # the start of the match
                hero.x, hero.y = hero.home
                return
            spot = hero.respawn_spot
            hero.x, hero.y = spot(hero) if spot is not None else hero.home
            hero.status.try_activate("Protected")

        def on_exit(self) -> None:
            # What on_enter turned on, on_exit turns off: every effect requires Alive, so
            # they all end with it, in one cascade.
            self.owner.status.deactivate("Alive")

        def transition(self) -> st.Transition | None:
            hero = self.owner
            if hero.health <= 0:
                return st.sibling(
                    HeroStates.Dead, (hero.frame + config.RESPAWN_FRAMES) % config.WRAP
                )
            if hero.status.is_active("Stunned"):
                return st.inner(HeroStates.Stunned)
            if hardest_hit(self) >= config.FLINCH_DAMAGE:
                return st.inner(HeroStates.Flinch, hero.frame % config.WRAP)
            return st.inner_entry(HeroStates.Locomotion)

        def update(self, dt: float) -> None:
            hero = self.owner
            heading = hero.heading.value
            dx, dy = heading if heading is not None else (hero.input.dx, hero.input.dy)
            hero.move(dx, dy, dt)

    class Dead(st.State[Hero]):
        net_fields = (net.UInt(16),)

        def on_enter(self, respawn_at: int) -> None:
            self.respawn_at = respawn_at
            hero = self.owner
            self.set_state_value(hero.animation, "dead")
            if self.cause is not st.Cause.DESERIALIZATION:  # received: its body sets lives
                hero.lives -= 1

        def net_payload(self) -> tuple[int]:
            return (self.respawn_at,)

        def transition(self) -> st.Transition | None:
            hero = self.owner
            if hero.lives > 0 and since(hero.frame, self.respawn_at) < config.WRAP // 2:
                return st.sibling(HeroStates.Alive)
            return None

    @children("Idle", "Walk")
    class Locomotion(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            hero = self.owner
            pressed = hero.input
            if pressed.dodge and pressed.moving and hero.frame >= hero.dodge_ready_at:
                return st.sibling(
                    HeroStates.Dodge, hero.frame % config.WRAP, pressed.dx, pressed.dy
                )
            if pressed.attack:
                return st.sibling(HeroStates.Attack, AttackKind.SLASH, hero.frame % config.WRAP)
            if pressed.talk and hero.near_shrine and hero.status.can_activate("InDialogue"):
                return st.sibling(HeroStates.Talk)
            return st.inner_entry(HeroStates.Idle)

    class Idle(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            return st.sibling(HeroStates.Walk) if self.owner.input.moving else None

    class Walk(st.State[Hero]):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.speed_scale, 1.0)
            self.set_state_value(self.owner.animation, "walk")

        def transition(self) -> st.Transition | None:
            return None if self.owner.input.moving else st.sibling(HeroStates.Idle)

    class Dodge(st.State[Hero]):
        """A quick roll along the direction held when it began; nothing hurts meanwhile."""

        net_fields = (net.UInt(16), net.Int(-1, 1), net.Int(-1, 1))

        def on_enter(self, started: int, dx: int, dy: int) -> None:
            self.started, self.direction = started, (dx, dy)
            hero = self.owner
            hero.dodge_ready_at = hero.frame + config.DODGE_COOLDOWN
            self.set_state_value(hero.speed_scale, 2.6)
            self.set_state_value(hero.animation, "dodge")
            self.set_state_value(hero.invulnerable, True)
            self.set_state_value(hero.heading, self.direction)

        def net_payload(self) -> tuple[int, int, int]:
            return (self.started, *self.direction)

        def transition(self) -> st.Transition | None:
            hero = self.owner
            elapsed = since(hero.frame, self.started)
            if hero.input.attack and elapsed >= config.DODGE_FRAMES // 2:
                return st.sibling(HeroStates.Attack, AttackKind.LUNGE, hero.frame % config.WRAP)
            if elapsed >= config.DODGE_FRAMES:
                return st.sibling(HeroStates.Locomotion)
            return None

    class Attack(st.State[Hero]):
        """A slash, or a lunge out of a dodge: it hits once, on its hit frame."""

        net_fields = (net.Enum(AttackKind), net.UInt(16))

        def on_enter(self, kind: AttackKind, started: int) -> None:
            self.kind, self.started = kind, started
            self.move = ATTACKS[kind]
            hero = self.owner
            self.set_state_value(hero.speed_scale, self.move.speed)
            self.set_state_value(hero.animation, kind.name.lower())
            if kind is AttackKind.LUNGE:
                self.set_state_value(hero.heading, _rounded(hero.facing))

        def net_payload(self) -> tuple[AttackKind, int]:
            return (self.kind, self.started)

        def transition(self) -> st.Transition | None:
            if since(self.owner.frame, self.started) >= self.move.frames:
                return st.sibling(HeroStates.Locomotion)
            return None

        def update(self, dt: float) -> None:
            hero = self.owner
            if since(hero.frame, self.started) == self.move.hit_frame and hero.on_strike:
                hero.on_strike(hero, self.move)

    class Stunned(st.State[Hero]):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.animation, "stunned")

        def transition(self) -> st.Transition | None:
            if self.owner.status.is_active("Stunned"):
                return None
            return st.sibling(HeroStates.Locomotion)

    class Flinch(st.State[Hero]):
        """Thrown off balance by a hard hit, for a moment."""

        net_fields = (net.UInt(16),)

        def on_enter(self, started: int) -> None:
            self.started = started
            self.set_state_value(self.owner.speed_scale, 0.3)
            self.set_state_value(self.owner.animation, "flinch")

        def net_payload(self) -> tuple[int]:
            return (self.started,)

        def transition(self) -> st.Transition | None:
            if since(self.owner.frame, self.started) >= config.FLINCH_FRAMES:
                return st.sibling(HeroStates.Locomotion)
            return None

    class Talk(st.State[Hero]):
        """A word with the shrine: standing still; heard to the end, it grants a shield."""

        def on_enter(self) -> None:
            self.set_state_value(self.owner.animation, "talk")
            if self.cause is not st.Cause.DESERIALIZATION:
                self.owner.status.try_activate("InDialogue")

        def transition(self) -> st.Transition | None:
            if self.owner.status.is_active("InDialogue"):
                return None
            return st.sibling(HeroStates.Locomotion)


def hardest_hit(state: st.State[Hero]) -> int:
    """The damage of the hardest of this frame's hits (0: none), each hit taken: they
    arrive in any order, and only the hardest decides whether the hero flinches."""
    return max((hurt.damage for hurt in iter(lambda: state.take(Hurt), None)), default=0)


def _rounded(facing: tuple[float, float]) -> tuple[int, int]:
    """The eight-way direction closest to ``facing``."""
    return (round(facing[0]), round(facing[1]))


HERO_STRUCTURE = derive(HeroStates.Alive)
HERO_CODEC = net.Codec.auto(HERO_STRUCTURE)
"""The hero's wire format: ``statetree plot examples/game/hero.py`` draws the structure."""
