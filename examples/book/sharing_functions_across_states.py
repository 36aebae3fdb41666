"""Sharing functions across states (HSM book, chapter 4, "Sharing Functions Across States").

Functions that several states need live on base state classes: LocomotionBaseState holds the
input queries of Stand and Move, JumpBaseState and MoveBaseState each hold a function that
clears one input. JumpAndMove needs both of the latter, so it simply derives from both.

The book cannot do that in C++ (a state may not inherit twice from its ``State`` base) and
chains templates instead, ``JumpBaseState<MoveBaseState<>>``. Python's method resolution order
builds the same chain from plain multiple inheritance, as the last line printed shows. The
book gives only fragments of this sample; the machine and ``main`` here are minimal additions
that use every shared function.
"""

from __future__ import annotations

import statetree as st


class Character:
    """Owner of the machine; ``move`` and ``jump`` are its inputs."""

    def __init__(self) -> None:
        self.move = False
        self.jump = False
        self.machine = st.StateMachine(
            CharacterStates.Alive,
            owner=self,
            name="TestHsm",
            trace=st.TraceLevel.BASIC,
            trace_sink=print,
        )

    def update(self) -> None:
        self.machine.process_state_transitions()
        self.machine.update_states()


class CharacterStates:
    """The character's states and the base classes that share functions between them."""

    class BaseState(st.State[Character]):
        """Base of every state of this machine: the place for functions they all share."""

    class LocomotionBaseState(BaseState):
        """Input queries shared by the locomotion states, in priority order."""

        def should_jump(self) -> bool:
            return self.owner.jump

        def should_move(self) -> bool:
            # Jumping has priority over moving.
            return not self.should_jump() and self.owner.move

        def should_stand(self) -> bool:
            return not self.should_jump() and not self.should_move()

    class JumpBaseState(BaseState):
        def clear_jump(self) -> None:
            self.owner.jump = False

    class MoveBaseState(BaseState):
        def clear_move(self) -> None:
            self.owner.move = False

    class Alive(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Stand)

    class Stand(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if self.should_jump():
                return st.sibling(CharacterStates.JumpAndMove)
            if self.should_move():
                return st.sibling(CharacterStates.Move)
            return None

    class Move(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if self.should_jump():
                return st.sibling(CharacterStates.JumpAndMove)
            if self.should_stand():
                return st.sibling(CharacterStates.Stand)
            return None

    class JumpAndMove(JumpBaseState, MoveBaseState):
        """A jump that consumes both inputs, then lands standing."""

        def on_enter(self) -> None:
            self.clear_jump()
            self.clear_move()

        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Stand)


def main() -> None:
    character = Character()
    character.update()

    character.move = True
    character.update()

    character.jump = True
    character.update()
    print(f">>> Inputs after the jump: jump={character.jump}, move={character.move}")

    chain = CharacterStates.JumpAndMove.__mro__
    print(">>> " + " : ".join(cls.__qualname__ for cls in chain[: chain.index(st.State) + 1]))


if __name__ == "__main__":
    main()
