"""Nesting states in a class (book chapter 2, "Improving Readability").

The book nests its states in ``struct MyStates`` so that C++ accepts them in reading order.
Python never needed that, but the nesting still pays off: the states of one machine sit
together, and their qualified names (``MyStates.First``) make the trace say which machine
they belong to. Later samples make ``MyStates`` the one place that reads an owner's internals.
"""

from __future__ import annotations

import statetree as st


class MyStates:
    """The states of this sample's machine."""

    class First(st.State[None]):
        def transition(self) -> st.Transition | None:
            return st.sibling(MyStates.Second)

    class Second(st.State[None]):
        def transition(self) -> st.Transition | None:
            return st.sibling(MyStates.Third)

    class Third(st.State[None]):
        pass


def main() -> None:
    """Settle the machine once with Basic tracing."""
    machine = st.StateMachine(
        MyStates.First, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
    )
    machine.process_state_transitions()


if __name__ == "__main__":
    main()
