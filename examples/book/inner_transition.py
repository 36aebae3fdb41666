"""Choosing the inner state (book chapter 3, "Inner Transitions").

``st.inner(T)`` makes ``T`` the immediate inner state whatever is there: it pushes ``T`` when
there is no inner, does nothing when the inner already is a ``T``, and otherwise pops the
current inner (with its own inners) before pushing ``T``. Here ``Locomotion`` alone decides
between ``Stand`` and ``Move`` from the owner's input, so those two states need no
transitions of their own; compare with the inner entry sample, where they sibling to each
other.
"""

from __future__ import annotations

import statetree as st


class MyOwner:
    """A character that can die and move."""

    def __init__(self) -> None:
        self._dead = False
        self._move = False
        self._machine = st.StateMachine(
            MyStates.Alive, owner=self, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
        )

    def update_state_machine(self) -> None:
        """One frame: settle the machine, then update its states."""
        self._machine.process_state_transitions()
        self._machine.update_states()

    def die(self) -> None:
        """Kill the character; its machine goes to ``Dead`` on the next frame."""
        self._dead = True

    def set_move(self, enable: bool) -> None:
        """Press (``True``) or release (``False``) the move input."""
        self._move = enable


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
            if self.owner._move:
                return st.inner(MyStates.Move)
            return st.inner(MyStates.Stand)

    class Stand(BaseState):
        pass

    class Move(BaseState):
        pass


def main() -> None:
    """Run three frames, pressing then releasing the move input."""
    my_owner = MyOwner()
    my_owner.update_state_machine()

    print("Set Move = true")
    my_owner.set_move(True)
    my_owner.update_state_machine()

    print("Set Move = false")
    my_owner.set_move(False)
    my_owner.update_state_machine()


if __name__ == "__main__":
    main()
