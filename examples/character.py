"""A character controller in the style of the book's chapters 3 and 4.

Alive holds Locomotion (Stand / Move, with Move_Walk / Move_Crawl inside Move) and Jump;
Dead is its sibling. Speed is a state value: each state sets it while it is active and it
returns to what it was as the state exits, so no state ever has to undo another state's
work. The jump is a small sequence ending in a done state that its outer state
watches. ``Prefix_`` names (``Move_Walk``, ``Jump_Rise``) group states into clusters in
plots, as in the book.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import statetree as st
from statetree import net
from statetree.structure import children, outermost

MAX_SPEED = 6.0
GRAVITY = -9.8
JUMP_VELOCITY = 5.0


@dataclass
class Inputs:
    """What the player holds this frame."""

    move: bool = False
    crawl: bool = False
    jump: bool = False


@dataclass
class Character:
    """The owner: the data states read and the values they drive."""

    name: str = "Hero"
    inputs: Inputs = field(default_factory=Inputs)
    health: int = 100
    height: float = 0.0
    speed_scale: st.StateValue[float] = field(default_factory=lambda: st.StateValue(0.0))
    machine: st.StateMachine[Character] = field(init=False)
    trace: Callable[[str], None] = print

    def __post_init__(self) -> None:
        self.machine = st.StateMachine(
            CharacterStates.Alive,
            self,
            name=self.name,
            trace=st.TraceLevel.BASIC,
            trace_sink=self.trace,
        )

    def tick(self, dt: float) -> None:
        """One frame: settle the machine on this frame's data, then update it."""
        self.machine.process_state_transitions()
        self.machine.update_states(dt)

    @property
    def speed(self) -> float:
        return self.speed_scale.value * MAX_SPEED


class CharacterStates:
    """The states, nested so their names read ``CharacterStates.Move`` in traces.

    The machine is replicated (``Jump_Rise`` declares ``net_fields``), and the order of the
    states inside each parent numbers them on the wire: declared with ``@outermost`` and
    ``@children``, it stays put when the code is refactored.
    """

    class Base(st.State[Character]):
        pass

    @outermost("Alive", "Dead")
    @children("Locomotion", "Jump")
    class Alive(Base):
        def transition(self) -> st.Transition | None:
            if self.owner.health <= 0:
                return st.sibling(CharacterStates.Dead)
            return st.inner_entry(CharacterStates.Locomotion)

    class Dead(Base):
        def on_enter(self) -> None:
            self.owner.trace(f">>> {self.owner.name} died")

    @children("Stand", "Move")
    class Locomotion(Base):
        def transition(self) -> st.Transition | None:
            if self.owner.inputs.jump:
                return st.sibling(CharacterStates.Jump)
            return st.inner_entry(CharacterStates.Stand)

    class Stand(Base):
        def transition(self) -> st.Transition | None:
            if self.owner.inputs.move:
                return st.sibling(CharacterStates.Move)
            return None

    @children("Move_Walk", "Move_Crawl")
    class Move(Base):
        def transition(self) -> st.Transition | None:
            if not self.owner.inputs.move:
                return st.sibling(CharacterStates.Stand)
            return st.inner_entry(CharacterStates.Move_Walk)

    class Move_Walk(Base):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.speed_scale, 1.0)

        def transition(self) -> st.Transition | None:
            if self.owner.inputs.crawl:
                return st.sibling(CharacterStates.Move_Crawl)
            return None

    class Move_Crawl(Base):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.speed_scale, 0.5)

        def transition(self) -> st.Transition | None:
            if not self.owner.inputs.crawl:
                return st.sibling(CharacterStates.Move_Walk)
            return None

    @children("Jump_Rise", "Jump_Done")
    class Jump(Base):
        """Cluster root of the jump sequence: ends when its inner reaches Jump_Done."""

        def on_enter(self) -> None:
            self.owner.inputs.jump = False  # the press is consumed: no transition loop
            self.set_state_value(self.owner.speed_scale, 0.8)

        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(CharacterStates.Jump_Done):
                return st.sibling(CharacterStates.Locomotion)
            return st.inner_entry(CharacterStates.Jump_Rise, JUMP_VELOCITY)

        def on_exit(self) -> None:
            self.owner.height = 0.0

    class Jump_Rise(Base):
        net_fields = (net.Float32(),)  # a replicated jump rises at the velocity it began with

        def on_enter(self, velocity: float) -> None:
            self.launch = self.velocity = velocity

        def net_payload(self) -> tuple[float]:
            return (self.launch,)

        def update(self, dt: float) -> None:
            self.velocity += GRAVITY * dt
            self.owner.height = max(0.0, self.owner.height + self.velocity * dt)

        def transition(self) -> st.Transition | None:
            if self.owner.height <= 0.0 and self.velocity < 0:
                return st.sibling(CharacterStates.Jump_Done)
            return None

    class Jump_Done(Base):
        pass
