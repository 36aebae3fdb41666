"""Storing data on the cluster root state, third version (HSM book, chapter 4).

The book turns the second version's JumpBaseState into a C++ template, ClusterBaseState, that
any cluster can use. Here it is a small generic base class: ``ClusterBaseState[Owner, Root]``
types ``cluster_root_state`` for type checkers, and the ``root=`` class keyword names the root
for the lookup at run time (Python type parameters are not kept at run time).

Notice that the root is looked up on first use and then kept while the inner state lives, so
subclasses need not remember to call ``super().on_enter()`` as in the second version.
The two prints are not in the book; they show the data shared through the root.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar, cast

import statetree as st

OwnerT = TypeVar("OwnerT")
RootT = TypeVar("RootT", bound="st.State[Any]")


class ClusterBaseState(st.State[OwnerT], Generic[OwnerT, RootT]):
    """An inner state of a cluster, with typed access to the cluster's root state."""

    root_class: ClassVar[type[st.State[Any]]]

    def __init_subclass__(cls, root: type[st.State[Any]] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if root is not None:
            cls.root_class = root

    @cached_property
    def cluster_root_state(self) -> RootT:
        """The nearest outer instance of ``root_class``.

        Raises:
            LookupError: this state was pushed outside its cluster.
        """
        root = self.get_outer_state(self.root_class)
        if root is None:
            raise LookupError(
                f"{type(self).__qualname__} must be an inner state of "
                f"{self.root_class.__qualname__}"
            )
        return cast(RootT, root)


class Character:
    """Owner of the machine; ``jump`` is its input."""

    def __init__(self) -> None:
        self.jump = False
        self.machine = st.StateMachine(
            CharacterStates.Alive,
            owner=self,
            name="TestHsm",
            trace=st.TraceLevel.BASIC,
            trace_sink=print,
        )

    def update(self) -> None:
        self.machine.process_state_transitions()
        self.machine.update_states()


class CharacterStates:
    """The character's states."""

    class Alive(st.State[Character]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Stand)

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.jump:
                self.owner.jump = False
                return st.sibling(CharacterStates.Jump)
            return None

    class Jump(st.State[Character]):
        """Root of the jump cluster, holding the data its inner states share."""

        def __init__(self) -> None:
            self.value1 = 0
            self.value2 = 0.0
            self.value3 = False

        def on_exit(self) -> None:
            print(f">>> Jump exits with {self.value1}, {self.value2}, {self.value3}")

        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(CharacterStates.Jump_Done):
                return st.sibling(CharacterStates.Stand)
            return st.inner_entry(CharacterStates.Jump_Up)

    class JumpBaseState(ClusterBaseState[Character, Jump], root=Jump):
        """Base of the jump cluster's inner states."""

    class Jump_Up(JumpBaseState):
        def on_enter(self) -> None:
            self.cluster_root_state.value1 = 1
            self.cluster_root_state.value2 = 2.0
            self.cluster_root_state.value3 = True

        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Jump_Down)

    class Jump_Down(JumpBaseState):
        def on_enter(self) -> None:
            jump = self.cluster_root_state
            print(f">>> Jump_Down finds {jump.value1}, {jump.value2}, {jump.value3}")
            jump.value1 = 2
            jump.value2 = 4.0
            jump.value3 = False

        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Jump_Done)

    class Jump_Done(st.State[Character]):
        """Tells Jump that the sequence is over."""


def main() -> None:
    character = Character()
    character.update()
    character.jump = True
    character.update()


if __name__ == "__main__":
    main()
