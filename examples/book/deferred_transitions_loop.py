"""Deferred transitions, the failing first attempt (HSM book, chapter 4, "Deferred Transitions").

One input toggles between Stand and Crouch. Both states test the same input in
``transition()``, so once it is pressed Stand siblings to Crouch, Crouch at once back to Stand,
and so on: the stack never settles. The book's debug build stops on an assertion; here the
machine raises :class:`statetree.TransitionLoopError`, which names the repeating cycle.

Notice the alternating Sibling lines. The machine is built with a small ``max_transitions`` so
that the demonstration stays short (the default bound is 1000). ``deferred_transitions`` fixes
the loop.
"""

from __future__ import annotations

import statetree as st


class Character:
    """Owner of the machine; ``crouch_input_pressed`` is its input."""

    def __init__(self) -> None:
        self.crouch_input_pressed = False
        self.machine = st.StateMachine(
            CharacterStates.Alive,
            owner=self,
            name="TestHsm",
            trace=st.TraceLevel.BASIC,
            trace_sink=print,
            max_transitions=32,
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
            if self.owner.crouch_input_pressed:
                return st.sibling(CharacterStates.Crouch)
            return None

    class Crouch(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.crouch_input_pressed:
                return st.sibling(CharacterStates.Stand)
            return None


def press_crouch_three_times(character: Character) -> None:
    """The book's ``main``: press and release the crouch input three times."""
    character.update()
    for label in ("Crouch!", "Stand!", "Crouch!"):
        print(f">>> {label}")
        character.crouch_input_pressed = True
        character.update()
        character.crouch_input_pressed = False
        character.update()


def main() -> None:
    try:
        press_crouch_three_times(Character())
    except st.TransitionLoopError as error:
        print(f"TransitionLoopError: {error}")


if __name__ == "__main__":
    main()
