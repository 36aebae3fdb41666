"""The simplest state machine (book chapter 2, "The Simplest State Machine").

A state is a class deriving from ``st.State``, and every machine starts from an initial
state. The first ``process_state_transitions()`` pushes ``First``; since ``First`` asks for
no transition, the stack settles at once and nothing is printed.
"""

from __future__ import annotations

import statetree as st


class First(st.State[None]):
    """A state with no hooks: it is entered and stays."""


def main() -> None:
    """Create the machine and settle it once."""
    machine = st.StateMachine(First)
    machine.process_state_transitions()


if __name__ == "__main__":
    main()
