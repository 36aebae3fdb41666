"""Data stored on a state (book chapter 2, "Storing Data").

A state is an ordinary object, so it can hold its own data. A state instance lives exactly
as long as it is on the stack: ``First`` creates its ``Foo`` when it is created (just before
its ``Init`` trace line), and once ``First`` has exited and the machine has dropped it,
nothing refers to the ``Foo`` any more and it is freed. Keep data in the narrowest scope that
needs it: on the state when only that state uses it, on the owner when every state does.
"""

from __future__ import annotations

import weakref

import statetree as st


class MyOwner:
    """Owns the machine; here the states need nothing from it."""

    def __init__(self) -> None:
        self._machine = st.StateMachine(
            MyStates.First, owner=self, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
        )

    def update_state_machine(self) -> None:
        """One frame: settle the machine, then update its states."""
        self._machine.process_state_transitions()
        self._machine.update_states()


class Foo:
    """Reports its creation, and its destruction once nothing refers to it."""

    def __init__(self) -> None:
        print(">>> Foo created")
        weakref.finalize(self, print, ">>>Foo destroyed")


class MyStates:
    """Two states; the first one holds a ``Foo``."""

    class BaseState(st.State["MyOwner"]):
        """The base of every state of ``MyOwner``'s machine."""

    class First(BaseState):
        def __init__(self) -> None:
            super().__init__()
            self.foo = Foo()

        def transition(self) -> st.Transition | None:
            return st.sibling(MyStates.Second)

    class Second(BaseState):
        pass


def main() -> None:
    """Run one frame."""
    my_owner = MyOwner()
    my_owner.update_state_machine()


if __name__ == "__main__":
    main()
