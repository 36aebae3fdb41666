"""Done states (HSM book, chapter 4, "Done States").

An inner state cannot make its outer state transition; it can only say that it is finished.
Opening a door is a sequence of inner states of OpenDoor (get into position, play the open
animation); the last one siblings to OpenDoor_Done, and OpenDoor, seeing that done state among
its inner states, siblings back to Stand.

Notice that OpenDoor_Done is transient: it is entered and left within the same
``process_state_transitions`` call, so it is never on a settled stack.
"""

from __future__ import annotations

import statetree as st


class Character:
    """Owner of the machine; ``open_door`` is its input."""

    def __init__(self) -> None:
        self.open_door = False
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
            return st.inner_entry(CharacterStates.Stand)

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.open_door:
                self.owner.open_door = False
                return st.sibling(CharacterStates.OpenDoor)
            return None

    class OpenDoor(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(CharacterStates.OpenDoor_Done):
                return st.sibling(CharacterStates.Stand)
            return st.inner_entry(CharacterStates.OpenDoor_GetIntoPosition)

    class OpenDoor_GetIntoPosition(st.State[Character]):
        def is_in_position(self) -> bool:
            return True

        def transition(self) -> st.Transition | None:
            if self.is_in_position():
                return st.sibling(CharacterStates.OpenDoor_PlayOpenAnim)
            return None

    class OpenDoor_PlayOpenAnim(st.State[Character]):
        def is_anim_done(self) -> bool:
            return True

        def transition(self) -> st.Transition | None:
            if self.is_anim_done():
                return st.sibling(CharacterStates.OpenDoor_Done)
            return None

    class OpenDoor_Done(st.State[Character]):
        """Tells OpenDoor that the door is open."""


def main() -> None:
    character = Character()
    character.update()

    character.open_door = True
    character.update()


if __name__ == "__main__":
    main()
