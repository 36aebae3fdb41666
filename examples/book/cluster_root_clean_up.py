"""Clean up in the cluster root state (HSM book, chapter 5, "Best Practices").

Ladder_GetOn attaches the character to a ladder and Ladder_GetOff detaches it, but an outer
transition (Alive to Hurt) can end the ladder cluster before Ladder_GetOff is ever reached.
The cluster root, Ladder, therefore also detaches in ``on_exit``: however the cluster ends, the
character is never left attached outside Ladder.

The book's ``main`` only climbs on; this one then gets the character hurt while on the
ladder, and prints each attach and detach (the book's stubs print nothing). Notice that the
detach comes from Ladder's ``on_exit``, before the trace shows Hurt.
"""

from __future__ import annotations

import statetree as st


class Character:
    """Owner of the machine; ``hurt`` is its input, ``attached`` its ladder state."""

    def __init__(self) -> None:
        self.hurt = False
        self.attached = False
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

    def should_get_on_ladder(self) -> bool:
        return True

    def should_get_off_ladder(self) -> bool:
        return False

    def attach_to_ladder(self) -> None:
        print(">>> Attach to ladder")
        self.attached = True

    def detach_from_ladder(self) -> None:
        print(">>> Detach from ladder")
        self.attached = False


class CharacterStates:
    """The character's states."""

    class Alive(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.hurt:
                return st.sibling(CharacterStates.Hurt)
            return st.inner_entry(CharacterStates.Stand)

    class Hurt(st.State[Character]):
        pass

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.should_get_on_ladder():
                return st.sibling(CharacterStates.Ladder)
            return None

    class Ladder(st.State[Character]):
        def on_exit(self) -> None:
            # In case an outer transition boots us out, make sure we are no longer attached.
            self.owner.detach_from_ladder()

        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Ladder_GetOn)

    class Ladder_GetOn(st.State[Character]):
        def on_enter(self) -> None:
            self.owner.attach_to_ladder()

        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Ladder_OnLadder)

    class Ladder_OnLadder(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.should_get_off_ladder():
                return st.sibling(CharacterStates.Ladder_GetOff)
            return None

    class Ladder_GetOff(st.State[Character]):
        def on_enter(self) -> None:
            self.owner.detach_from_ladder()


def main() -> None:
    character = Character()
    character.update()
    print(f">>> Attached: {character.attached}")

    character.hurt = True
    character.update()
    print(f">>> Attached: {character.attached}")


if __name__ == "__main__":
    main()
