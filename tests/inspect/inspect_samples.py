"""Small machines the inspector tests drive frame by frame."""

from __future__ import annotations

import statetree as st
from statetree.bitmask import BitmaskDefinition, BitmaskMachine, BitState


class Lamp:
    """A lamp whose machine follows ``on``: Power holds Off or On; Broken is its sibling."""

    def __init__(self, name: str = "Lamp") -> None:
        self.on = False
        self.broken = False
        self.brightness = st.StateValue(0.0)
        self.machine = st.StateMachine(LampStates.Power, self, name=name)

    def tick(self) -> None:
        self.machine.process_state_transitions()


class LampStates:
    class Power(st.State[Lamp]):
        def transition(self) -> st.Transition | None:
            if self.owner.broken:
                return st.sibling(LampStates.Broken)
            return st.inner_entry(LampStates.Off)

    class Broken(st.State[Lamp]):
        pass

    class Off(st.State[Lamp]):
        def transition(self) -> st.Transition | None:
            return st.sibling(LampStates.On) if self.owner.on else None

    class On(st.State[Lamp]):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.brightness, 1.0)

        def transition(self) -> st.Transition | None:
            return None if self.owner.on else st.sibling(LampStates.Off)


class Alive(BitState[None]):
    pass


class Armed(BitState[None]):
    requires = (Alive,)


class Firing(BitState[None]):
    requires = (Alive, Armed)
    blocked_by = ("Stunned",)


class Stunned(BitState[None]):
    requires = (Alive,)
    terminates = (Firing,)


SOLDIER = BitmaskDefinition.from_classes([Alive, Armed, Firing, Stunned], name="soldier")


def soldier(name: str = "Soldier", history: int = 64) -> BitmaskMachine[None]:
    """A bitmask machine with requirements, a blocker and a termination."""
    return BitmaskMachine(SOLDIER, name=name, history_size=history)


class LampWorld:
    """A simulation: two lamps switching every few frames."""

    def __init__(self) -> None:
        self.lamps = [Lamp("Desk lamp"), Lamp("Porch lamp")]
        self.frames = 0
        self.attached: object = None

    def machines(self) -> list[object]:
        return [lamp.machine for lamp in self.lamps]

    def attach(self, inspector: object) -> None:
        self.attached = inspector

    def tick(self, dt: float) -> None:
        self.frames += 1
        for number, lamp in enumerate(self.lamps):
            lamp.on = (self.frames + number) % 4 < 2
            lamp.tick()


def lamp_world() -> LampWorld:
    return LampWorld()


LAST_WORLD: list[LampWorld] = []


def recorded_world() -> LampWorld:
    """A world the tests can look at after the command ran it."""
    world = LampWorld()
    LAST_WORLD.append(world)
    return world
