"""Typed owner access (book chapter 2, "Ownership: Easier Owner Access").

The book derives its states from ``StateWithOwner<MyOwner>`` to get a typed ``Owner()``. In
statetree the owner type is the type argument of ``st.State``: ``st.State["MyOwner"]`` types
``self.owner`` as ``MyOwner``, so no cast is needed and a type checker verifies every use.
As the book recommends, the states share a ``BaseState`` class, a natural home for helpers
common to all of them.
"""

from __future__ import annotations

import statetree as st


class MyOwner:
    """Owns the machine and the flag its states read."""

    def __init__(self) -> None:
        self._play_sequence = False
        self._machine = st.StateMachine(
            MyStates.First, owner=self, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
        )

    def update_state_machine(self) -> None:
        """One frame: settle the machine, then update its states."""
        self._machine.process_state_transitions()
        self._machine.update_states()

    def play_sequence(self) -> None:
        """Ask the machine to play its sequence."""
        self._play_sequence = True

    @property
    def sequence_requested(self) -> bool:
        """Whether ``play_sequence`` was called."""
        return self._play_sequence


class MyStates:
    """States whose ``self.owner`` is typed ``MyOwner``."""

    class BaseState(st.State["MyOwner"]):
        """The base of every state of ``MyOwner``'s machine."""

    class First(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner.sequence_requested:
                return st.sibling(MyStates.Second)
            return None

        def update(self) -> None:
            print("First.update")

    class Second(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner.sequence_requested:
                return st.sibling(MyStates.Third)
            return None

        def update(self) -> None:
            print("Second.update")

    class Third(BaseState):
        def update(self) -> None:
            print("Third.update")


def main() -> None:
    """Run four frames, starting the sequence after the second."""
    my_owner = MyOwner()

    my_owner.update_state_machine()
    my_owner.update_state_machine()

    my_owner.play_sequence()

    my_owner.update_state_machine()
    my_owner.update_state_machine()


if __name__ == "__main__":
    main()
