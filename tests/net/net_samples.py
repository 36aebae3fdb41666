"""Sample machines for the net tests: the book's character with payloads, a reusable state
reached from two outers, and a machine with concurrent regions. Every hook logs itself with
the cause it sees, so tests can assert exact hook orders."""

from __future__ import annotations

import enum
from typing import Any

import statetree as st
from statetree import net
from statetree.net import ActiveState, Configuration
from statetree.structure import StateInfo, Structure, derive


class Direction(enum.Enum):
    LEFT = -1
    RIGHT = 1


class Owner:
    """Flags the states read, the frame, and a log of hook calls with their causes."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.flags: dict[str, Any] = {}
        self.frame = 0

    def __getitem__(self, key: str) -> Any:
        return self.flags.get(key)


class Logged(st.State[Owner]):
    def on_enter(self, *args: Any) -> None:
        shown = ", ".join(a.name if isinstance(a, enum.Enum) else repr(a) for a in args)
        shown = f"({shown})" if args else ""
        self.owner.log.append(f"{type(self).__name__}.enter{shown} {self.cause.name}")

    def on_exit(self) -> None:
        self.owner.log.append(f"{type(self).__name__}.exit {self.cause.name}")


class Hero:
    """The book's character: Alive{Locomotion{Stand, Move}, Jump}, Dead."""

    class Alive(Logged):
        def transition(self) -> st.Transition | None:
            if self.owner["dead"]:
                return st.sibling(Hero.Dead, self.owner.frame + 20)
            return st.inner_entry(Hero.Locomotion)

    class Dead(Logged):
        net_fields = (net.UInt(16),)

        def on_enter(self, respawn_at: int) -> None:
            super().on_enter(respawn_at)
            self.respawn_at = respawn_at

        def net_payload(self) -> tuple[int]:
            return (self.respawn_at,)

    class Locomotion(Logged):
        def transition(self) -> st.Transition | None:
            if self.owner["jump"]:
                return st.sibling(Hero.Jump, self.owner.frame)
            return st.inner_entry(Hero.Stand)

    class Stand(Logged):
        def transition(self) -> st.Transition | None:
            direction = self.owner["move"]
            return st.sibling(Hero.Move, direction) if direction else None

    class Move(Logged):
        net_fields = (net.Enum(Direction),)

        def on_enter(self, direction: Direction) -> None:
            super().on_enter(direction)
            self.direction = direction

        def net_payload(self) -> tuple[Direction]:
            return (self.direction,)

        def transition(self) -> st.Transition | None:
            direction = self.owner["move"]
            if direction is None:
                return st.sibling(Hero.Stand)
            return None if direction is self.direction else st.sibling(Hero.Move, direction)

    class Jump(Logged):
        net_fields = (net.UInt(16),)

        def on_enter(self, started: int) -> None:
            super().on_enter(started)
            self.started = started

        def net_payload(self) -> tuple[int]:
            return (self.started,)

        @classmethod
        def net_validate(cls, started: int) -> str | None:
            return "jumps start on even frames" if started % 2 else None

        def transition(self) -> st.Transition | None:
            return None if self.owner["jump"] else st.sibling(Hero.Locomotion)


class Reuse:
    """PlayAnim is reached from Attack and from Emote: a state with two outers."""

    class Alive(Logged):
        def transition(self) -> st.Transition | None:
            if self.owner["emote"]:
                return st.inner(Reuse.Emote)
            return st.inner(Reuse.Attack) if self.owner["attack"] else None

    class Attack(Logged):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Reuse.PlayAnim, self.owner["anim"] or 1)

    class Emote(Logged):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Reuse.PlayAnim, self.owner["anim"] or 2)

    class PlayAnim(Logged):
        net_fields = (net.Int(1, 5),)

        def on_enter(self, anim: int) -> None:
            super().on_enter(anim)
            self.anim = anim

        def net_payload(self) -> tuple[int]:
            return (self.anim,)

        def transition(self) -> st.Transition | None:
            return st.sibling(Reuse.Done) if self.owner["done"] else None

    class Done(Logged):
        pass


class Body:
    """Alive hosts two regions, Upper{Idle, Aim} and Lower{Stand, Run}; Dead is its sibling."""

    class Alive(Logged):
        def transition(self) -> st.Transition | None:
            if self.owner["dead"]:
                return st.sibling(Body.Dead)
            return st.concurrent(Body.Upper, Body.Lower)

    class Dead(Logged):
        pass

    class Upper(Logged):
        def transition(self) -> st.Transition | None:
            if self.owner["aim"]:
                return st.inner(Body.Aim, self.owner["target"] or 0)
            return st.inner(Body.Idle)

    class Idle(Logged):
        pass

    class Aim(Logged):
        net_fields = (net.UInt(8),)

        def on_enter(self, target: int) -> None:
            super().on_enter(target)
            self.target = target

        def net_payload(self) -> tuple[int]:
            return (self.target,)

    class Lower(Logged):
        def transition(self) -> st.Transition | None:
            return st.inner(Body.Run) if self.owner["run"] else st.inner(Body.Stand)

    class Stand(Logged):
        pass

    class Run(Logged):
        pass


HERO = derive(Hero.Alive)
REUSE = derive(Reuse.Alive)
BODY = derive(Body.Alive)


def machine(initial: type[st.State[Owner]], **flags: Any) -> st.StateMachine[Owner]:
    """A settled machine whose owner has ``flags``, with an empty log."""
    owner = Owner()
    owner.flags.update(flags)
    built = st.StateMachine(initial, owner, name="test")
    built.process_state_transitions()
    owner.log.clear()
    return built


def chain(*states: type[st.State[Any]] | tuple[Any, ...]) -> Configuration:
    """A configuration without regions: each state a class, or ``(class, *payload)``."""
    active: ActiveState | None = None
    for state in reversed(states):
        cls, *payload = state if isinstance(state, tuple) else (state,)
        active = ActiveState(cls, tuple(payload), active)
    assert active is not None
    return Configuration(active)


class Plain(st.State[None]):
    """Base of the classes :func:`declared` makes."""


def declared(initial: str, edges: list[tuple[str, str, st.TransitionKind]]) -> Structure:
    """A structure of fresh payload-free state classes named after the strings."""
    bare = Structure.from_names(initial, edges)
    classes = {name: type(name, (Plain,), {}) for name in bare.names}
    return Structure(initial, tuple(StateInfo(n, classes[n]) for n in bare.names), bare.edges)


def bits(data: bytes) -> str:
    """``data`` as a string of 0 and 1."""
    return "".join(format(byte, "08b") for byte in data)
