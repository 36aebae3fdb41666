"""States that read their owner's internals (book chapter 2, "Accessing Owner's Private Members").

The book makes ``struct MyStates`` a ``friend`` of the owner so that every nested state may
read its private members. Python has no access control: a leading underscore marks a member
as internal to the code that implements the class. The states in ``MyStates`` are part of
``MyOwner``'s implementation, written next to it, so they read ``self.owner._play_sequence``
directly and the owner no longer needs a public getter for it.
"""

from __future__ import annotations

import statetree as st


class MyOwner:
    """Owns the machine; its states read ``_play_sequence`` themselves."""

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


class MyStates:
    """The implementation of ``MyOwner``'s behaviour: free to read its internals."""

    class BaseState(st.State["MyOwner"]):
        """The base of every state of ``MyOwner``'s machine."""

    class First(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner._play_sequence:
                return st.sibling(MyStates.Second)
            return None

        def update(self) -> None:
            print("First.update")

    class Second(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner._play_sequence:
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
