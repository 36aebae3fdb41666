"""Machines the CLI tests name on the command line."""

from __future__ import annotations

import statetree as st
from statetree.bitmask import BitmaskDefinition


class Good:
    class Alive(st.State[None]):
        def transition(self) -> st.Transition:
            return st.inner_entry(Good.Stand)

    class Stand(st.State[None]):
        pass


class Lost:
    class Root(st.State[None]):
        pass

    class Orphan(st.State[None]):
        pass


class Broken:
    class Root(st.State[None]):
        def transition(self) -> st.Transition:
            return st.sibling(Broken.Missing)  # type: ignore[attr-defined]


def helper() -> None:
    """Not a state."""


NEVER = BitmaskDefinition.from_data(
    {
        "Aiming": {"blocked_by": ["Sprinting"]},
        "Sprinting": {"terminates": ["Aiming"]},
        "Walking": {"blocked_by": ["Sprinting"]},
        "Aimed": {"requires": ["Aiming", "Sprinting"]},
    },
    name="Stances",
)
"""A bitmask whose Aimed state needs two states that exclude each other."""
