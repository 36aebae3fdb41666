"""Entering and exiting states (book chapter 2, "State OnEnter and OnExit").

``on_enter`` runs when a state is pushed and ``on_exit`` when it is popped. Notice in the
output that a sibling transition exits the source state before the trace line of the target
appears, and that the target is entered right after its trace line. Use ``on_enter`` rather
than ``__init__`` to set a state up: ``owner``, ``machine`` and ``depth`` are only set by then.
"""

from __future__ import annotations

import statetree as st


class MyStates:
    """Three states that report when they are entered and exited."""

    class First(st.State[None]):
        def on_enter(self) -> None:
            print("First.on_enter")

        def on_exit(self) -> None:
            print("First.on_exit")

        def transition(self) -> st.Transition | None:
            return st.sibling(MyStates.Second)

    class Second(st.State[None]):
        def on_enter(self) -> None:
            print("Second.on_enter")

        def on_exit(self) -> None:
            print("Second.on_exit")

        def transition(self) -> st.Transition | None:
            return st.sibling(MyStates.Third)

    class Third(st.State[None]):
        def on_enter(self) -> None:
            print("Third.on_enter")

        def on_exit(self) -> None:
            print("Third.on_exit")


def main() -> None:
    """Settle the machine once with Basic tracing."""
    machine = st.StateMachine(
        MyStates.First, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
    )
    machine.process_state_transitions()


if __name__ == "__main__":
    main()
