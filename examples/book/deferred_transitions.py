"""Deferred transitions, the fix (HSM book, chapter 4, "Deferred Transitions").

The same Stand / Crouch toggle as ``deferred_transitions_loop``, without the infinite loop:
each state now decides in ``update()`` and keeps the decision as a stored ``st.Transition``,
which its ``transition()`` returns on the next ``process_state_transitions`` call. By then
the input has been read again, so one press toggles exactly once.

Notice that each toggle shows up one update after its input is pressed. Deferring like this
is the exception: prefer deciding in ``transition()`` unless a loop forces you to wait.
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
        )

    def update(self) -> None:
        self.machine.process_state_transitions()
        self.machine.update_states()


class CharacterStates:
    """The character's states."""

    class Alive(st.State[Character]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Stand)

    class DeferringState(st.State[Character]):
        """Returns the transition that ``update()`` chose during the previous frame."""

        deferred: st.Transition | None = None

        def transition(self) -> st.Transition | None:
            return self.deferred

    class Stand(DeferringState):
        def update(self) -> None:
            if self.owner.crouch_input_pressed:
                self.deferred = st.sibling(CharacterStates.Crouch)

    class Crouch(DeferringState):
        def update(self) -> None:
            if self.owner.crouch_input_pressed:
                self.deferred = st.sibling(CharacterStates.Stand)


def main() -> None:
    character = Character()
    character.update()
    for label in ("Crouch!", "Stand!", "Crouch!"):
        print(f">>> {label}")
        character.crouch_input_pressed = True
        character.update()
        character.crouch_input_pressed = False
        character.update()


if __name__ == "__main__":
    main()
