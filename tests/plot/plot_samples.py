"""Small machines the plot tests draw, and a helper that skips without Graphviz."""

from __future__ import annotations

import importlib.util
import shutil

import pytest

import statetree as st
from statetree.structure import Structure

K = st.TransitionKind

needs_graphviz = pytest.mark.skipif(
    shutil.which("dot") is None or importlib.util.find_spec("graphviz") is None,
    reason="SVG/PNG need Graphviz's dot program and the graphviz package (extra 'plot')",
)


def small() -> Structure:
    """Two roots, a Loco_ cluster, every kind of edge, a state reached only by a sibling."""
    return Structure.from_names(
        "Root",
        [
            ("Root", "Other", K.SIBLING),
            ("Root", "Loco_Stand", K.INNER_ENTRY),
            ("Loco_Stand", "Loco_Move", K.SIBLING),
            ("Loco_Move", "Anim", K.INNER),
        ],
    )


class Owner:
    def __init__(self) -> None:
        self.moving = False


class Hero:
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition:
            return st.inner_entry(Hero.Stand)

    class Stand(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Hero.Move) if self.owner.moving else None

    class Move(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return None if self.owner.moving else st.sibling(Hero.Stand)
