"""Sibling states routed through a selector state (HSM book, chapter 4, "Selector States").

The same character as ``selector_states_without``, but Locomotion always enters Selector, and
Stand, Move and Jump each sibling to Selector as soon as they should no longer be active.
Selector picks the right state from the inputs, so adding a state means adding one line to
Selector instead of a transition in every sibling.

Notice in the trace that Selector never stays on the stack: it is entered and replaced within
the same ``process_state_transitions`` call.
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
            return st.inner_entry(CharacterStates.Selector)

    class Selector(LocomotionBaseState):
        """Routes to the state the inputs call for; never remains on a settled stack."""

        def transition(self) -> st.Transition | None:
            if self.should_jump():
                return st.sibling(CharacterStates.Jump)
            if self.should_move():
                return st.sibling(CharacterStates.Move)
            return st.sibling(CharacterStates.Stand)

    class Stand(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if not self.should_stand():
                return st.sibling(CharacterStates.Selector)
            return None

    class Move(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if not self.should_move():
                return st.sibling(CharacterStates.Selector)
            return None

    class Jump(LocomotionBaseState):
        def transition(self) -> st.Transition | None:
            if not self.should_jump():
                return st.sibling(CharacterStates.Selector)
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
