"""The hand-written baseline: plain if/elif code on small state fields, no library.

It does all that the statetree machine does: each level of the hierarchy is checked outermost
first, any change starts the checks again from the outermost level, inner states are entered
one level at a time (so an outer state can leave before its default inner is entered), and
every enter and exit is counted.
"""

from __future__ import annotations

from corebench.api import Contender
from corebench.script import INPUTS, Counters

__all__ = ["CONTENDER", "Character", "Levels", "Switch"]

# One small int field per level of the hierarchy; NONE means "no state at this level".
NONE = 0
ALIVE, DEAD = 1, 2
LOCOMOTION, JUMP = 1, 2
STAND, MOVE = 1, 2
OFF, ON = 0, 1


class Switch:
    """Off and On, following the ``on`` input."""

    __slots__ = ("on", "state")

    def __init__(self) -> None:
        self.on = False
        self.state = OFF

    def react(self) -> None:
        """Follow the input."""
        if self.state == OFF:
            if self.on:
                self.state = ON
        elif not self.on:
            self.state = OFF

    def play(self, toggles: int) -> None:
        """Flip the input and react, ``toggles`` times."""
        react = self.react
        for _ in range(toggles):
            self.on = not self.on
            react()

    def is_on(self) -> bool:
        """Whether the switch is on."""
        return self.state == ON


class Levels:
    """The character's state in three fields (life, body, legs), its inputs and counters.

    Shared by both hand-written baselines: leaving a level, and naming the active states.
    """

    __slots__ = ("body", "dead", "entered", "exited", "jump", "legs", "life", "move")

    def __init__(self, counters: Counters) -> None:
        self.entered = counters.entered
        self.exited = counters.exited
        self.move = self.jump = self.dead = False
        self.life = self.body = self.legs = NONE

    def _leave_body(self) -> None:
        if self.body == LOCOMOTION:
            self._leave_legs()
            self.exited["Locomotion"] += 1
        elif self.body == JUMP:
            self.exited["Jump"] += 1
        self.body = NONE

    def _leave_legs(self) -> None:
        if self.legs == STAND:
            self.exited["Stand"] += 1
        elif self.legs == MOVE:
            self.exited["Move"] += 1
        self.legs = NONE

    def active(self) -> tuple[str, ...]:
        """The active states, outermost first."""
        names = (
            {ALIVE: "Alive", DEAD: "Dead"}.get(self.life),
            {LOCOMOTION: "Locomotion", JUMP: "Jump"}.get(self.body),
            {STAND: "Stand", MOVE: "Move"}.get(self.legs),
        )
        return tuple(name for name in names if name is not None)


class Character(Levels):
    """The polling controller: every reaction checks each level, outermost first."""

    __slots__ = ()

    def __init__(self, counters: Counters) -> None:
        super().__init__(counters)
        self.react()

    def react(self) -> None:
        """Apply the controls until nothing changes."""
        # Each check returns True when it changed something; the `or` chain then starts
        # again from the outermost level, so an inner level only runs under settled outers.
        while self._life_changed() or self._body_changed() or self._legs_changed():
            pass

    def _life_changed(self) -> bool:
        life = self.life
        if life == ALIVE:
            if not self.dead:
                return False
            self._leave_body()
            self.exited["Alive"] += 1
            self.life = DEAD
            self.entered["Dead"] += 1
            return True
        if life == DEAD:
            if self.dead:
                return False
            self.exited["Dead"] += 1
        self.life = ALIVE
        self.entered["Alive"] += 1
        return True

    def _body_changed(self) -> bool:
        body = self.body
        if body == LOCOMOTION:
            if not self.jump:
                return False
            self._leave_legs()
            self.exited["Locomotion"] += 1
            self.body = JUMP
            self.entered["Jump"] += 1
            return True
        if body == JUMP:
            if self.jump:
                return False
            self.exited["Jump"] += 1
        elif self.life != ALIVE:
            return False
        self.body = LOCOMOTION
        self.entered["Locomotion"] += 1
        return True

    def _legs_changed(self) -> bool:
        legs = self.legs
        if legs == STAND:
            if not self.move:
                return False
            self.exited["Stand"] += 1
            self.legs = MOVE
            self.entered["Move"] += 1
            return True
        if legs == MOVE:
            if self.move:
                return False
            self.exited["Move"] += 1
        elif self.body != LOCOMOTION:
            return False
        self.legs = STAND
        self.entered["Stand"] += 1
        return True

    def control(self, move: bool, jump: bool, dead: bool) -> None:
        """Set the controls, then react (one step with any controls, for the tests)."""
        self.move = move
        self.jump = jump
        self.dead = dead
        self.react()

    def play(self, cycles: int) -> None:
        """Run the script ``cycles`` times: set the controls, then react."""
        react = self.react
        for _ in range(cycles):
            for move, jump, dead in INPUTS:
                self.move = move
                self.jump = jump
                self.dead = dead
                react()

    def idle(self, frames: int) -> None:
        """React ``frames`` times with unchanged controls."""
        react = self.react
        for _ in range(frames):
            react()


CONTENDER = Contender("baseline (polling, if/elif)", Switch, Character)
