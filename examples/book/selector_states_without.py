"""Sibling states without a selector state (HSM book, chapter 4, "Selector States").

Locomotion chooses its first inner state among Stand, Move and Jump from the inputs, so the
character never passes through Stand when it should already move or jump. Each of the three
siblings then needs a transition to each of the other two: six transitions for three states,
and the count grows quickly with every state added. ``selector_states_with`` routes them
through one selector state instead.

The ``should_*`` input queries are shared through the LocomotionBaseState base class.
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
        print(">>> Character.update")
        self.machine.process_state_transitions()
        self.machine.update_states()


class CharacterStates:
    """The character's states."""

    class Alive(st.State[Character]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Locomotion)

    class LocomotionBaseState(st.State[Character]):
        """Input queries shared by the locomotion states, in priority order."""

        def should_jump(self) -> bool:
            return self.owner.jump

        def should_move(self) -> bool:
            # Jumping has priority over moving.
            return not self.should_jump() and self.owner.move

        def should_stand(self) -> bool:
            return not self.should_jump() and not self.should_move()

    class Locomotion(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if self.should_jump():
                return st.inner_entry(CharacterStates.Jump)
            if self.should_move():
                return st.inner_entry(CharacterStates.Move)
            return st.inner_entry(CharacterStates.Stand)

    class Stand(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if self.should_jump():
                return st.sibling(CharacterStates.Jump)
            if self.should_move():
                return st.sibling(CharacterStates.Move)
            return None

    class Move(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if self.should_jump():
                return st.sibling(CharacterStates.Jump)
            if self.should_stand():
                return st.sibling(CharacterStates.Stand)
            return None

    class Jump(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if self.should_move():
                return st.sibling(CharacterStates.Move)
            if self.should_stand():
                return st.sibling(CharacterStates.Stand)
            return None


def main() -> None:
    character = Character()
    character.update()

    character.move = True
    character.update()

    character.jump = True
    character.update()

    character.jump = False
    character.update()

    character.move = False
    character.update()


if __name__ == "__main__":
    main()
