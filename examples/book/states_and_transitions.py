"""States and transitions (book chapter 2, "States and Transitions").

Each state's ``transition()`` returns the transition it wants: ``st.sibling(Second)`` leaves
``First`` for ``Second`` at the same depth, and ``None`` (the book's ``NoTransition()``)
keeps the current state. One ``process_state_transitions()`` call follows the transitions
until a state returns ``None``, so the trace shows the initial state and two siblings.

The book defines the states in reverse order because C++ needs a type declared before it is
used; Python looks names up when ``transition()`` runs, so any order works. The machine is
named and traced with ``set_debug_info``, as in the book.
"""

from __future__ import annotations

import statetree as st


class First(st.State[None]):
    def transition(self) -> st.Transition | None:
        return st.sibling(Second)


class Second(st.State[None]):
    def transition(self) -> st.Transition | None:
        return st.sibling(Third)


class Third(st.State[None]):
    def transition(self) -> st.Transition | None:
        return None


def main() -> None:
    """Settle the machine once with Basic tracing."""
    machine = st.StateMachine(First, trace_sink=print)
    machine.set_debug_info("TestHsm", st.TraceLevel.BASIC)
    machine.process_state_transitions()


if __name__ == "__main__":
    main()
