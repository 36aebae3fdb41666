"""Updating a stack of states (book chapter 3, "UpdateStates Revisited").

``update_states()`` calls ``update`` on every state on the settled stack, outermost first, so
each level of the hierarchy does its own part of the frame's work. Only states still on the
stack after ``process_state_transitions()`` are updated; a state passed through on the way
is entered and exited but never updated.
"""

from __future__ import annotations

import statetree as st


class MyOwner:
    """Owns the machine; here the states need nothing from it."""

    def __init__(self) -> None:
        self._machine = st.StateMachine(
            MyStates.A, owner=self, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
        )

    def update_state_machine(self) -> None:
        """One frame: settle the machine, then update its states."""
        self._machine.process_state_transitions()
        self._machine.update_states()


class MyStates:
    """Four states, each the inner of the one before."""

    class BaseState(st.State["MyOwner"]):
        """The base of every state of ``MyOwner``'s machine."""

    class A(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(MyStates.B)

        def update(self) -> None:
            print("A.update")

    class B(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(MyStates.C)

        def update(self) -> None:
            print("B.update")

    class C(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(MyStates.D)

        def update(self) -> None:
            print("C.update")

    class D(BaseState):
        def update(self) -> None:
            print("D.update")


def main() -> None:
    """Run one frame."""
    my_owner = MyOwner()
    my_owner.update_state_machine()


if __name__ == "__main__":
    main()
