"""What every contender must do: the character controller, its script and its counters.

The controller is Alive{Locomotion{Stand, Move}, Jump}, Dead. Each state counts how often it
is entered and exited; all contenders must end with the same counts and the same states.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EVENTS", "INPUTS", "SCRIPT", "STATE_NAMES", "Counters", "Step"]

STATE_NAMES = ("Alive", "Locomotion", "Stand", "Move", "Jump", "Dead")


@dataclass(frozen=True)
class Step:
    """One scripted step: the event for event-driven contenders, the controls for the others.

    The controls are the whole input snapshot of the step, so a step's meaning never depends
    on what earlier steps left behind.
    """

    event: str
    move: bool = False
    jump: bool = False
    dead: bool = False


# The stick is released on the jump step, so landing ends in Stand for every contender: an
# event-driven ``land`` enters Locomotion's initial state, and a polling machine sees no move.
SCRIPT = (
    Step("move", move=True),
    Step("stop"),
    Step("move", move=True),
    Step("jump", jump=True),
    Step("land"),
    Step("die", dead=True),
    Step("revive"),
)

EVENTS = tuple(step.event for step in SCRIPT)
INPUTS = tuple((step.move, step.jump, step.dead) for step in SCRIPT)


class Counters:
    """How often each state was entered and exited, by state name."""

    __slots__ = ("entered", "exited")

    def __init__(self) -> None:
        self.entered = dict.fromkeys(STATE_NAMES, 0)
        self.exited = dict.fromkeys(STATE_NAMES, 0)

    def reset(self) -> None:
        """Start counting again from zero."""
        for name in STATE_NAMES:
            self.entered[name] = 0
            self.exited[name] = 0

    def totals(self) -> dict[str, tuple[int, int]]:
        """``{state name: (entered, exited)}``."""
        return {name: (self.entered[name], self.exited[name]) for name in STATE_NAMES}
