"""Machines that can be saved: every class at the top level of this module, so that pickle
finds them by name.

``Hero`` is a scenario machine (state values, regions, events, time in state, arguments,
an override, tracing); ``SpecWorld`` runs a random :class:`strategies.MachineSpec` on the
fixed classes ``S0`` to ``S6``, which read their rules from the owner.
"""

from __future__ import annotations

from typing import Any

from strategies import KINDS, MachineSpec

import statetree as st

# -- a scenario machine -------------------------------------------------------------------


class Hero:
    """A character whose machine uses everything a save must keep."""

    def __init__(self, *, trace: st.TraceLevel = st.TraceLevel.BASIC) -> None:
        self.hooks: list[str] = []
        self.lines: list[str] = []
        self.dead = False
        self.moving = False
        self.speed = st.StateValue(0.0)
        self.armed = st.StateValue(False)
        self.machine = st.StateMachine(
            st.sibling(Alive, lives=3),
            self,
            name="Hero",
            trace=trace,
            trace_sink=self.lines.append,
            time_in_state=True,
        )

    def frame(self, dt: float) -> None:
        self.machine.process_state_transitions()
        self.machine.update_states(dt)


class Alive(st.State[Hero]):
    def on_enter(self, lives: int = 1) -> None:
        self.lives = lives
        self.owner.hooks.append(f"Alive.enter({lives})")
        self.set_state_value(self.owner.armed, True)

    def on_exit(self) -> None:
        self.owner.hooks.append("Alive.exit")

    def transition(self) -> st.Transition | None:
        if self.owner.dead:
            return st.sibling(Dead)
        return st.concurrent(Legs, Arms)


class Legs(st.State[Hero]):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Stand)


class Arms(st.State[Hero]):
    def on_enter(self) -> None:
        self.owner.hooks.append("Arms.enter")

    def transition(self) -> st.Transition | None:
        if self.take("reload") is not None:
            return st.inner(Reload)
        return None


class Reload(st.State[Hero]):
    def on_enter(self) -> None:
        self.owner.hooks.append("Reload.enter")

    def on_exit(self) -> None:
        self.owner.hooks.append("Reload.exit")


class Stand(st.State[Hero]):
    def on_enter(self) -> None:
        self.owner.hooks.append("Stand.enter")

    def on_exit(self) -> None:
        self.owner.hooks.append("Stand.exit")

    def transition(self) -> st.Transition | None:
        if self.owner.moving:
            return st.sibling(self.get_state_override(Walk), 2.0)
        return None


class Walk(st.State[Hero]):
    def on_enter(self, speed: float) -> None:
        self.steps = 0
        self.owner.hooks.append(f"{type(self).__name__}.enter({speed})")
        self.set_state_value(self.owner.speed, speed)

    def on_exit(self) -> None:
        self.owner.hooks.append(f"{type(self).__name__}.exit({self.steps})")

    def transition(self) -> st.Transition | None:
        if not self.owner.moving:
            return st.sibling(Stand)
        return None

    def update(self, dt: float) -> None:
        self.steps += 1


class Sprint(Walk):
    """Registered as Walk's override by the scenario."""


class Dead(st.State[Hero]):
    def on_enter(self) -> None:
        self.owner.hooks.append("Dead.enter")


# -- random machines on fixed classes ------------------------------------------------------

Frame = tuple[list[bool], int | None, float]
"""A random machine's frame: its variables' values, the event posted, the time step."""

MAX_STATES = 30
"""A random machine with more active states than this stops (and starts again)."""


class SpecWorld:
    """The owner of a random machine: its rules, the variables they read, and journals."""

    def __init__(self, spec: MachineSpec) -> None:
        self.spec = spec
        self.values = [False] * spec.variables
        self.journal: list[tuple[Any, ...]] = []
        self.lines: list[str] = []
        self.value = st.StateValue(-1)
        self.machine = st.StateMachine(
            st.sibling(SPEC_CLASSES[0], "start"),
            self,
            name="Spec",
            trace=st.TraceLevel.DIAGNOSTIC,
            trace_sink=self.lines.append,
            max_transitions=30,
            time_in_state=True,
        )

    def play(self, frame: Frame) -> None:
        """One frame: the variables set, an event posted, processing, then updates."""
        values, event, dt = frame
        self.values = list(values)
        if event is not None:
            self.machine.post(event)
        try:
            self.machine.process_state_transitions()
        except st.TransitionLoopError as error:
            self.journal.append(("loop", error.cycle))
        if len(self.machine.walk()) > MAX_STATES:
            # Regions entering regions nest deeper each frame: start again before the
            # nesting is deeper than the interpreter lets the runtime's walks recurse.
            self.machine.stop()
        if self.machine.started:
            self.machine.update_states(dt)

    def outcome(self) -> tuple[Any, ...]:
        """Everything the run did and the machine is: hook calls, trace lines, stack, time
        in state, the state value and the pending events."""
        machine = self.machine
        stack = [(type(s).__name__, s.depth, s.time_in_state, s.updates) for s in machine.stack]
        return self.journal, self.lines, stack, self.value.value, machine.events


class SpecState(st.State[SpecWorld]):
    """Takes its rules from the owner's spec: the first whose variable has the expected
    value chooses the transition; else the event ``index % 3`` moves it to the next class."""

    index = 0

    def on_enter(self, *args: Any) -> None:
        self.updates = 0
        found = self.owner.value.value  # what the states that exited gave back
        self.owner.journal.append(("enter", self.index, args, self.depth, found))
        self.set_state_value(self.owner.value, self.index)

    def on_exit(self) -> None:
        self.owner.journal.append(("exit", self.index, self.updates))

    def transition(self) -> st.Transition | None:
        world = self.owner
        for rule in world.spec.rules[self.index]:
            if world.values[rule.var] == rule.expected:
                if rule.kind == 3:
                    return st.concurrent(*(SPEC_CLASSES[root] for root in rule.roots()))
                return KINDS[rule.kind](SPEC_CLASSES[rule.target])
        if self.take(self.index % 3) is not None:
            count = len(world.spec.rules)
            return st.sibling(SPEC_CLASSES[(self.index + 1) % count], self.index)
        return None

    def update(self, dt: float) -> None:
        self.updates += 1
        self.owner.journal.append(("update", self.index, round(self.time_in_state, 9)))


class S0(SpecState):
    index = 0


class S1(SpecState):
    index = 1


class S2(SpecState):
    index = 2


class S3(SpecState):
    index = 3


class S4(SpecState):
    index = 4


class S5(SpecState):
    index = 5


class S6(SpecState):
    index = 6


SPEC_CLASSES: tuple[type[SpecState], ...] = (S0, S1, S2, S3, S4, S5, S6)
