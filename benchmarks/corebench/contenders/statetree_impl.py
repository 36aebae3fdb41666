"""statetree: the machines as the book writes them, one class per state."""

from __future__ import annotations

from collections.abc import Callable

import statetree as st
from corebench.api import Contender
from corebench.script import INPUTS, Counters

__all__ = ["CONTENDER", "Character", "Switch", "direct_transition_calls"]


class Switch:
    """The owner of a flat Off/On machine that follows the ``on`` input."""

    __slots__ = ("machine", "on")

    def __init__(self) -> None:
        self.on = False
        self.machine = st.StateMachine(Off, owner=self)
        self.machine.process_state_transitions()

    def play(self, toggles: int) -> None:
        """Flip the input and process, ``toggles`` times."""
        process = self.machine.process_state_transitions
        for _ in range(toggles):
            self.on = not self.on
            process()

    def is_on(self) -> bool:
        """Whether the machine is in On."""
        return self.machine.is_in_state(On)


class Off(st.State[Switch]):
    def transition(self) -> st.Transition | None:
        return st.sibling(On) if self.owner.on else None


class On(st.State[Switch]):
    def transition(self) -> st.Transition | None:
        return None if self.owner.on else st.sibling(Off)


class Character:
    """The owner of the character controller: its controls and its machine.

    Args:
        counters: where the states count their enters and exits.
        start: build and settle the machine now; otherwise call :meth:`start` later.
    """

    __slots__ = ("dead", "entered", "exited", "jump", "machine", "move")

    def __init__(self, counters: Counters, *, start: bool = True) -> None:
        self.entered = counters.entered
        self.exited = counters.exited
        self.move = self.jump = self.dead = False
        self.machine: st.StateMachine[Character] | None = None
        if start:
            self.start()

    def start(self) -> None:
        """Build the machine and settle it (in Alive, Locomotion, Stand)."""
        machine = st.StateMachine(Alive, owner=self)
        machine.process_state_transitions()
        self.machine = machine

    def _machine(self) -> st.StateMachine[Character]:
        if self.machine is None:
            raise RuntimeError("the character's machine was not started")
        return self.machine

    def control(self, move: bool, jump: bool, dead: bool) -> None:
        """Set the controls, then process (one step with any controls, for the tests)."""
        self.move = move
        self.jump = jump
        self.dead = dead
        self._machine().process_state_transitions()

    def play(self, cycles: int) -> None:
        """Run the script ``cycles`` times: set the controls, then process."""
        process = self._machine().process_state_transitions
        for _ in range(cycles):
            for move, jump, dead in INPUTS:
                self.move = move
                self.jump = jump
                self.dead = dead
                process()

    def idle(self, frames: int) -> None:
        """Process ``frames`` times on the settled stack."""
        process = self._machine().process_state_transitions
        for _ in range(frames):
            process()

    def active(self) -> tuple[str, ...]:
        """The active states, outermost first."""
        return tuple(type(state).__name__ for state in self._machine().stack)


class Counted(st.State[Character]):
    """Counts its enters and exits under its class name."""

    def on_enter(self) -> None:
        self.owner.entered[type(self).__name__] += 1

    def on_exit(self) -> None:
        self.owner.exited[type(self).__name__] += 1


class Alive(Counted):
    def transition(self) -> st.Transition | None:
        if self.owner.dead:
            return st.sibling(Dead)
        return st.inner_entry(Locomotion)


class Locomotion(Counted):
    def transition(self) -> st.Transition | None:
        if self.owner.jump:
            return st.sibling(Jump)
        return st.inner_entry(Stand)


class Stand(Counted):
    def transition(self) -> st.Transition | None:
        return st.sibling(Move) if self.owner.move else None


class Move(Counted):
    def transition(self) -> st.Transition | None:
        return None if self.owner.move else st.sibling(Stand)


class Jump(Counted):
    def transition(self) -> st.Transition | None:
        return None if self.owner.jump else st.sibling(Locomotion)


class Dead(Counted):
    def transition(self) -> st.Transition | None:
        return None if self.owner.dead else st.sibling(Alive)


def direct_transition_calls(character: Character) -> Callable[[int], None]:
    """The reference for a settled frame: call each active state's ``transition`` directly.

    Returns:
        ``run(frames)``, which makes the three calls ``frames`` times on the settled stack.
    """
    alive, locomotion, stand = character._machine().stack
    first, second, third = alive.transition, locomotion.transition, stand.transition

    def run(frames: int) -> None:
        for _ in range(frames):
            first()
            second()
            third()

    return run


CONTENDER = Contender("statetree", Switch, Character)
