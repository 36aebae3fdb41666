"""transitions: the machines as a ``HierarchicalMachine`` per object, driven by events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from transitions.extensions import HierarchicalMachine

from corebench.api import Contender
from corebench.script import EVENTS, Counters

__all__ = ["CONTENDER", "Character", "Switch"]


class Switch:
    """The model of a flat Off/On machine toggled by the ``toggle`` event."""

    state: str
    toggle: Callable[[], bool]

    def __init__(self) -> None:
        self.machine = HierarchicalMachine(
            model=self,
            states=["Off", "On"],
            transitions=[["toggle", "Off", "On"], ["toggle", "On", "Off"]],
            initial="Off",
            auto_transitions=False,
        )

    def play(self, toggles: int) -> None:
        """Send ``toggle`` ``toggles`` times."""
        toggle = self.toggle
        for _ in range(toggles):
            toggle()

    def is_on(self) -> bool:
        """Whether the machine is in On."""
        return self.state == "On"


def _counted(name: str, *children: dict[str, Any]) -> dict[str, Any]:
    """A state definition whose callbacks count into the model's counters."""

    def on_enter(event: Any) -> None:
        event.model.entered[name] += 1

    def on_exit(event: Any) -> None:
        event.model.exited[name] += 1

    state: dict[str, Any] = {"name": name, "on_enter": on_enter, "on_exit": on_exit}
    if children:
        state["children"] = list(children)
        state["initial"] = children[0]["name"]
    return state


STATES = [
    _counted(
        "Alive",
        _counted("Locomotion", _counted("Stand"), _counted("Move")),
        _counted("Jump"),
    ),
    _counted("Dead"),
]

# The script's events, then ``tick``: its guarded transitions all fail in an idle frame.
TRANSITIONS = [
    ["move", "Alive_Locomotion_Stand", "Alive_Locomotion_Move"],
    ["stop", "Alive_Locomotion_Move", "Alive_Locomotion_Stand"],
    ["jump", "Alive_Locomotion", "Alive_Jump"],
    ["land", "Alive_Jump", "Alive_Locomotion"],
    ["die", "Alive", "Dead"],
    ["revive", "Dead", "Alive"],
    ["tick", "Alive_Locomotion_Stand", "Alive_Locomotion_Move", "input_move"],
    ["tick", "Alive_Locomotion", "Alive_Jump", "input_jump"],
    ["tick", "Alive", "Dead", "input_dead"],
]


class Character:
    """The model of the character controller; the machine adds one method per event."""

    state: str
    tick: Callable[[], bool]

    def __init__(self, counters: Counters) -> None:
        self.entered = counters.entered
        self.exited = counters.exited
        self.input_move = self.input_jump = self.input_dead = False
        # send_event passes the event to the callbacks, which reach the counters through it.
        self.machine = HierarchicalMachine(
            model=self,
            states=STATES,
            transitions=TRANSITIONS,
            initial="Alive",
            auto_transitions=False,
            send_event=True,
        )

    def play(self, cycles: int) -> None:
        """Send the script's events, ``cycles`` times."""
        triggers = [getattr(self, event) for event in EVENTS]
        for _ in range(cycles):
            for trigger in triggers:
                trigger()

    def idle(self, frames: int) -> None:
        """Send ``tick`` ``frames`` times; every guard fails."""
        tick = self.tick
        for _ in range(frames):
            tick()

    def active(self) -> tuple[str, ...]:
        """The active states, outermost first."""
        return tuple(self.state.split("_"))


CONTENDER = Contender("transitions (HSM)", Switch, Character)
