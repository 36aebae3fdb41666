"""Storing data on the cluster root state, second version (HSM book, chapter 4).

Same machine as ``cluster_root_state_data_1``, but the inner states of the jump cluster derive
from JumpBaseState, which looks the root state Jump up once, in ``on_enter``, and keeps it as
``jump_state``. Any hook of an inner state can then use the root without searching the stack.

Notice that Jump_Up and Jump_Down call ``super().on_enter()`` before using ``jump_state``: a
subclass that forgets to would find no root. ``cluster_root_state_data_3`` removes that trap.
The two prints are not in the book; they show the data shared through the root.
"""

from __future__ import annotations

import statetree as st


class Character:
    """Owner of the machine; ``jump`` is its input."""

    def __init__(self) -> None:
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
    """The character's states."""

    class Alive(st.State[Character]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Stand)

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.jump:
                self.owner.jump = False
                return st.sibling(CharacterStates.Jump)
            return None

    class Jump(st.State[Character]):
        """Root of the jump cluster, holding the data its inner states share."""

        def __init__(self) -> None:
            self.value1 = 0
            self.value2 = 0.0
            self.value3 = False

        def on_exit(self) -> None:
            print(f">>> Jump exits with {self.value1}, {self.value2}, {self.value3}")

        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(CharacterStates.Jump_Done):
                return st.sibling(CharacterStates.Stand)
            return st.inner_entry(CharacterStates.Jump_Up)

    class JumpBaseState(st.State[Character]):
        """Base of the jump cluster's inner states: finds the root once, on entry."""

        jump_state: CharacterStates.Jump

        def on_enter(self) -> None:
            jump = self.get_outer_state(CharacterStates.Jump)
            assert jump is not None, f"{type(self).__qualname__} only runs inside Jump"
            self.jump_state = jump

    class Jump_Up(JumpBaseState):
        def on_enter(self) -> None:
            super().on_enter()
            self.jump_state.value1 = 1
            self.jump_state.value2 = 2.0
            self.jump_state.value3 = True

        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Jump_Down)

    class Jump_Down(JumpBaseState):
        def on_enter(self) -> None:
            super().on_enter()
            jump = self.jump_state
            print(f">>> Jump_Down finds {jump.value1}, {jump.value2}, {jump.value3}")
            jump.value1 = 2
            jump.value2 = 4.0
            jump.value3 = False

        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Jump_Done)

    class Jump_Done(st.State[Character]):
        """Tells Jump that the sequence is over."""


def main() -> None:
    character = Character()
    character.update()
    character.jump = True
    character.update()


if __name__ == "__main__":
    main()
