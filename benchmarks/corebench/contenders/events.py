"""The hand-written event-driven baseline: one ``handle(event)`` call per event, if/elif.

This is what a game writes when it knows which event happened: each event is dispatched
once, to one function that switches on the event with ``if``/``elif`` and then tests the
current state in small int fields, changing it and counting every enter and exit as the
states do. It never re-checks levels that the event cannot change, which is the work a
polling machine (and the polling baseline) does every frame and an event-driven program
skips.
"""

from __future__ import annotations

from corebench.api import Contender
from corebench.script import EVENTS, Counters

__all__ = ["CONTENDER", "Character", "Switch"]

from corebench.contenders.baseline import (
    ALIVE,
    DEAD,
    JUMP,
    LOCOMOTION,
    MOVE,
    OFF,
    ON,
    STAND,
    Levels,
)

# The events, numbered in the order the dispatch tests them.
ON_MOVE, ON_STOP, ON_JUMP, ON_LAND, ON_DIE, ON_REVIVE, ON_TICK, ON_TOGGLE = range(8)
_BY_NAME = dict(zip(("move", "stop", "jump", "land", "die", "revive"), range(6), strict=True))
SCRIPT_EVENTS = tuple(_BY_NAME[event] for event in EVENTS)


class Switch:
    """Off and On, flipped by the ``toggle`` event."""

    __slots__ = ("state",)

    def __init__(self) -> None:
        self.state = OFF

    def handle(self, event: int) -> None:
        """Dispatch ``event``."""
        if event == ON_TOGGLE:
            if self.state == OFF:
                self.state = ON
            else:
                self.state = OFF

    def play(self, toggles: int) -> None:
        """Send ``toggle`` ``toggles`` times."""
        handle = self.handle
        for _ in range(toggles):
            handle(ON_TOGGLE)

    def is_on(self) -> bool:
        """Whether the switch is on."""
        return self.state == ON


class Character(Levels):
    """The character controller: one ``handle(event)``, ``if``/``elif`` on the event."""

    __slots__ = ()

    def __init__(self, counters: Counters) -> None:
        super().__init__(counters)
        self._enter_alive()

    def handle(self, event: int) -> None:
        """Dispatch ``event`` to what it does in the current state."""
        if event == ON_MOVE:
            self.on_move()
        elif event == ON_STOP:
            self.on_stop()
        elif event == ON_JUMP:
            self.on_jump()
        elif event == ON_LAND:
            self.on_land()
        elif event == ON_DIE:
            self.on_die()
        elif event == ON_REVIVE:
            self.on_revive()
        elif event == ON_TICK:
            self.on_tick()

    # -- what each event does --------------------------------------------------------------

    def on_move(self) -> None:
        """Stand -> Move."""
        if self.legs == STAND:
            self.exited["Stand"] += 1
            self.legs = MOVE
            self.entered["Move"] += 1

    def on_stop(self) -> None:
        """Move -> Stand."""
        if self.legs == MOVE:
            self.exited["Move"] += 1
            self.legs = STAND
            self.entered["Stand"] += 1

    def on_jump(self) -> None:
        """Locomotion -> Jump."""
        if self.body == LOCOMOTION:
            self._leave_legs()
            self.exited["Locomotion"] += 1
            self.body = JUMP
            self.entered["Jump"] += 1

    def on_land(self) -> None:
        """Jump -> Locomotion (and its initial Stand)."""
        if self.body == JUMP:
            self.exited["Jump"] += 1
            self._enter_locomotion()

    def on_die(self) -> None:
        """Alive (and whatever is inside) -> Dead."""
        if self.life == ALIVE:
            self._leave_body()
            self.exited["Alive"] += 1
            self.life = DEAD
            self.entered["Dead"] += 1

    def on_revive(self) -> None:
        """Dead -> Alive (and its initial Locomotion, Stand)."""
        if self.life == DEAD:
            self.exited["Dead"] += 1
            self._enter_alive()

    def on_tick(self) -> None:
        """A frame: one guarded transition per level, all failing when nothing changed."""
        if self.life == ALIVE and self.dead:
            self.on_die()
        if self.body == LOCOMOTION and self.jump:
            self.on_jump()
        if self.legs == STAND and self.move:
            self.on_move()

    # -- entering and leaving --------------------------------------------------------------

    def _enter_alive(self) -> None:
        self.life = ALIVE
        self.entered["Alive"] += 1
        self._enter_locomotion()

    def _enter_locomotion(self) -> None:
        self.body = LOCOMOTION
        self.entered["Locomotion"] += 1
        self.legs = STAND
        self.entered["Stand"] += 1

    # -- the benchmark's interface ---------------------------------------------------------

    def play(self, cycles: int) -> None:
        """Send the script's events ``cycles`` times, each dispatched once."""
        handle = self.handle
        for _ in range(cycles):
            for event in SCRIPT_EVENTS:
                handle(event)

    def idle(self, frames: int) -> None:
        """Send ``tick`` ``frames`` times with unchanged inputs."""
        handle = self.handle
        for _ in range(frames):
            handle(ON_TICK)


CONTENDER = Contender("baseline (events, if/elif)", Switch, Character)
