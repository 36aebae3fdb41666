"""Processing until the stack settles (book chapter 2, "ProcessStateTransitions").

``process_state_transitions()`` keeps applying transitions until no state asks for one. The
second call finds nothing to do; after ``start_over`` is set, the third call runs the whole
loop ``Third -> First -> Second -> Third`` and stops because ``First.on_enter`` clears the
flag. Without that reset the stack would never settle, and the call would raise
``st.TransitionLoopError`` naming the cycle instead of looping forever.
"""

from __future__ import annotations

from dataclasses import dataclass

import statetree as st


@dataclass
class World:
    """Data the states read; the book keeps it in a global variable until owners appear."""

    start_over: bool = False


world = World()


class MyStates:
    """A loop of three states that only restarts when asked to."""

    class First(st.State[None]):
        def on_enter(self) -> None:
            world.start_over = False

        def transition(self) -> st.Transition | None:
            return st.sibling(MyStates.Second)

    class Second(st.State[None]):
        def transition(self) -> st.Transition | None:
            return st.sibling(MyStates.Third)

    class Third(st.State[None]):
        def transition(self) -> st.Transition | None:
            if world.start_over:
                return st.sibling(MyStates.First)
            return None


def main() -> None:
    """Process four times, asking for a restart before the third."""
    machine = st.StateMachine(
        MyStates.First, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
    )

    print(">>> First ProcessStateTransitions")
    machine.process_state_transitions()

    print(">>> Second ProcessStateTransitions")
    machine.process_state_transitions()

    world.start_over = True

    print(">>> Third ProcessStateTransitions")
    machine.process_state_transitions()

    print(">>> Fourth ProcessStateTransitions")
    machine.process_state_transitions()


if __name__ == "__main__":
    main()
