"""A machine with an owner (book chapter 2, "Ownership: Basic Usage").

The machine is a member of ``MyOwner``, which passes itself as ``owner``; every state reaches
it as ``self.owner``. These states are declared ``st.State[object]``: they do not say what
their owner is, so each must ``cast`` it before using it, as the book's states
``reinterpret_cast`` the ``void*`` from ``GetStateMachine().GetOwner()``. The next sample
removes the casts. The output is the same as the global-variable version.
"""

from __future__ import annotations

from typing import cast

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
    """States that know their owner only as ``object``."""

    class First(st.State[object]):
        def transition(self) -> st.Transition | None:
            owner = cast(MyOwner, self.owner)
            if owner.sequence_requested:
                return st.sibling(MyStates.Second)
            return None

        def update(self) -> None:
            print("First.update")

    class Second(st.State[object]):
        def transition(self) -> st.Transition | None:
            owner = cast(MyOwner, self.owner)
            if owner.sequence_requested:
                return st.sibling(MyStates.Third)
            return None

        def update(self) -> None:
            print("Second.update")

    class Third(st.State[object]):
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
