"""Storing data on the cluster root state, first version (HSM book, chapter 4).

Jump is the root of a cluster of states (Jump_Up, Jump_Down, Jump_Done). Data that the whole
cluster shares lives on Jump itself, so it exists exactly as long as the cluster is active;
the inner states reach it with ``get_outer_state(Jump)``.

Jump_Down finds what Jump_Up left on the root although Jump_Up has exited, and Jump still
holds what Jump_Down wrote when the cluster exits (the two prints are not in the book).
Notice also that each inner state looks the root up on the stack before using it; the next
versions (``cluster_root_state_data_2`` and ``_3``) keep that lookup in one place.
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
            # Not in the book, like the print in Jump_Down: shows the shared data at work.
            print(f">>> Jump exits with {self.value1}, {self.value2}, {self.value3}")

        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(CharacterStates.Jump_Done):
                return st.sibling(CharacterStates.Stand)
            return st.inner_entry(CharacterStates.Jump_Up)

    class Jump_Up(st.State[Character]):
        def on_enter(self) -> None:
            jump = self.get_outer_state(CharacterStates.Jump)
            assert jump is not None, "Jump_Up only runs inside Jump"
            jump.value1 = 1
            jump.value2 = 2.0
            jump.value3 = True

        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Jump_Down)

    class Jump_Down(st.State[Character]):
        def on_enter(self) -> None:
            jump = self.get_outer_state(CharacterStates.Jump)
            assert jump is not None, "Jump_Down only runs inside Jump"
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
