"""Entering inner states (book chapter 3, "InnerEntry Transitions").

``st.inner_entry(Locomotion)`` pushes ``Locomotion`` inside ``Alive`` only while ``Alive`` has
no inner state; once one is there, ``Alive`` may keep returning the same transition and
nothing happens, so ``Stand`` and ``Move`` are free to replace each other. The trace indents
each line by the depth of the state. When the owner dies, ``Alive``, the outermost state,
decides first: its sibling to ``Dead`` pops ``Stand``, ``Locomotion`` and ``Alive``. Those
pops appear in the trace at Diagnostic level (see ``inner_entry_transition_diagnostic.py``).
"""

from __future__ import annotations

import statetree as st


class MyOwner:
    """A character that can die; it has no input yet, so it never moves."""

    def __init__(self, trace: st.TraceLevel = st.TraceLevel.BASIC) -> None:
        self._dead = False
        self._machine = st.StateMachine(
            MyStates.Alive, owner=self, name="TestHsm", trace=trace, trace_sink=print
        )

    def update_state_machine(self) -> None:
        """One frame: settle the machine, then update its states."""
        self._machine.process_state_transitions()
        self._machine.update_states()

    def die(self) -> None:
        """Kill the character; its machine goes to ``Dead`` on the next frame."""
        self._dead = True

    def _pressed_move(self) -> bool:
        # A stub: this sample has no input device, so the move input is never pressed.
        return False


class MyStates:
    """Alive (with Locomotion, then Stand or Move, inside) or Dead."""

    class BaseState(st.State["MyOwner"]):
        """The base of every state of ``MyOwner``'s machine."""

    class Alive(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner._dead:
                return st.sibling(MyStates.Dead)
            return st.inner_entry(MyStates.Locomotion)

    class Dead(BaseState):
        pass

    class Locomotion(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(MyStates.Stand)

    class Stand(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner._pressed_move():
                return st.sibling(MyStates.Move)
            return None

    class Move(BaseState):
        def transition(self) -> st.Transition | None:
            if not self.owner._pressed_move():
                return st.sibling(MyStates.Stand)
            return None


def main(trace: st.TraceLevel = st.TraceLevel.BASIC) -> None:
    """Run one frame alive and one after dying, tracing at level ``trace``."""
    my_owner = MyOwner(trace)
    my_owner.update_state_machine()
    my_owner.die()
    my_owner.update_state_machine()


if __name__ == "__main__":
    main()
