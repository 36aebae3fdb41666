"""Per-frame work in ``update`` (book chapter 2, "UpdateStates").

``update_states()`` calls ``update`` on the states left on the stack once it has settled, so
pair it with ``process_state_transitions()`` once per frame. ``Second`` is passed through
within one processing call and never updated: work a state must always do belongs in
``on_enter``. ``update_states`` forwards its arguments to every ``update``, which is how a
frame's delta time reaches the states (the book does this with macros).
"""

from __future__ import annotations

from dataclasses import dataclass

import statetree as st


@dataclass
class World:
    """Data the states read; the book keeps it in a global variable until owners appear."""

    play_sequence: bool = False


world = World()


class MyStates:
    """A sequence of three states that advances once asked to."""

    class First(st.State[None]):
        def transition(self) -> st.Transition | None:
            if world.play_sequence:
                return st.sibling(MyStates.Second)
            return None

        def update(self) -> None:
            print("First.update")

    class Second(st.State[None]):
        def transition(self) -> st.Transition | None:
            if world.play_sequence:
                return st.sibling(MyStates.Third)
            return None

        def update(self) -> None:
            print("Second.update")

    class Third(st.State[None]):
        def update(self) -> None:
            print("Third.update")


def main() -> None:
    """Run four frames, starting the sequence after the second."""
    machine = st.StateMachine(
        MyStates.First, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
    )

    machine.process_state_transitions()
    machine.update_states()

    machine.process_state_transitions()
    machine.update_states()

    world.play_sequence = True

    machine.process_state_transitions()
    machine.update_states()

    machine.process_state_transitions()
    machine.update_states()


if __name__ == "__main__":
    main()
