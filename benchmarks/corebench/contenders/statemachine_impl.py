"""python-statemachine: the machines as ``StateChart`` classes with compound states."""

from __future__ import annotations

from statemachine import State, StateChart

from corebench.api import Contender
from corebench.script import EVENTS, Counters

__all__ = ["CONTENDER", "Character", "Switch"]


class SwitchChart(StateChart):
    """A flat Off/On chart toggled by the ``toggle`` event."""

    # Errors in callbacks would otherwise become events: a broken benchmark must fail.
    catch_errors_as_events = False

    off = State("Off", initial=True)
    on = State("On")
    toggle = off.to(on) | on.to(off)


class Switch:
    """Owns a :class:`SwitchChart`."""

    def __init__(self) -> None:
        self.chart = SwitchChart()

    def play(self, toggles: int) -> None:
        """Send ``toggle`` ``toggles`` times."""
        send = self.chart.send
        for _ in range(toggles):
            send("toggle")

    def is_on(self) -> bool:
        """Whether the chart is in On."""
        return bool(self.chart.on.is_active)


class CharacterChart(StateChart):
    """The character controller; ``tick`` has guarded transitions that fail when idle."""

    catch_errors_as_events = False

    class alive(State.Compound, name="Alive"):
        class locomotion(State.Compound, name="Locomotion"):
            standing = State("Stand", initial=True)
            moving = State("Move")
            move = standing.to(moving)
            stop = moving.to(standing)
            tick = standing.to(moving, cond="input_move")

        jumping = State("Jump")
        jump = locomotion.to(jumping)
        land = jumping.to(locomotion)
        tick = locomotion.to(jumping, cond="input_jump")

    dead = State("Dead")
    die = alive.to(dead)
    revive = dead.to(alive)
    tick = alive.to(dead, cond="input_dead")

    def __init__(self, counters: Counters) -> None:
        self.entered = counters.entered
        self.exited = counters.exited
        self.input_move = self.input_jump = self.input_dead = False
        super().__init__()

    # One callback per state and direction, found by name: faster than the generic
    # on_enter_state / on_exit_state, which receive the state as an argument.
    def on_enter_alive(self) -> None:
        self.entered["Alive"] += 1

    def on_exit_alive(self) -> None:
        self.exited["Alive"] += 1

    def on_enter_locomotion(self) -> None:
        self.entered["Locomotion"] += 1

    def on_exit_locomotion(self) -> None:
        self.exited["Locomotion"] += 1

    def on_enter_standing(self) -> None:
        self.entered["Stand"] += 1

    def on_exit_standing(self) -> None:
        self.exited["Stand"] += 1

    def on_enter_moving(self) -> None:
        self.entered["Move"] += 1

    def on_exit_moving(self) -> None:
        self.exited["Move"] += 1

    def on_enter_jumping(self) -> None:
        self.entered["Jump"] += 1

    def on_exit_jumping(self) -> None:
        self.exited["Jump"] += 1

    def on_enter_dead(self) -> None:
        self.entered["Dead"] += 1

    def on_exit_dead(self) -> None:
        self.exited["Dead"] += 1


class Character:
    """Owns a :class:`CharacterChart`."""

    def __init__(self, counters: Counters) -> None:
        self.chart = CharacterChart(counters)

    def play(self, cycles: int) -> None:
        """Send the script's events, ``cycles`` times."""
        send = self.chart.send
        for _ in range(cycles):
            for event in EVENTS:
                send(event)

    def idle(self, frames: int) -> None:
        """Send ``tick`` ``frames`` times; every guard fails."""
        send = self.chart.send
        for _ in range(frames):
            send("tick")

    def active(self) -> tuple[str, ...]:
        """The active states, outermost first."""
        return tuple(state.name for state in self.chart.configuration)


CONTENDER = Contender("python-statemachine", Switch, Character)
