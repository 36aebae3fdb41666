"""Sharing states with unrelated owners (HSM book, chapter 4, "Sharing HSMs").

A Hero and an Enemy have unrelated classes and separate machines, yet both push the same
SharedStates.PlayAnim. The book makes the shared states C++ templates over each machine's base
state. In Python a state class works with any owner that provides what it uses, so the shared
states are plain classes typed with a Protocol, AnimOwner: "an owner with an ``anim``".

Notice that both traces name the very same SharedStates.PlayAnim and PlayAnim_Done classes.
"""

from __future__ import annotations

from typing import Protocol

import statetree as st
from statetree.structure import targets


class AnimComponent:
    """Stands in for an animation system: a non-looping animation finishes at once."""

    def __init__(self) -> None:
        self._loop = False

    def play_anim(self, name: str, loop: bool) -> None:
        print(f">>> PlayAnim: {name}, looping: {'true' if loop else 'false'}")
        self._loop = loop

    def is_finished(self) -> bool:
        return not self._loop


class AnimOwner(Protocol):
    """What the shared states need from the owner of any machine that pushes them."""

    @property
    def anim(self) -> AnimComponent: ...


class SharedStates:
    """States that any machine may push, whatever its owner's class."""

    class PlayAnim_Done(st.State[AnimOwner]):
        """PlayAnim's default ``done`` target."""

    # ``done`` comes from whoever pushes PlayAnim, so the code does not show where it leads;
    # declaring the targets lets ``statetree check`` and plots know it.
    @targets(sibling=("PlayAnim", "PlayAnim_Done"))
    class PlayAnim(st.State[AnimOwner]):
        def on_enter(
            self, anim_name: str, loop: bool = True, done: st.Transition | None = None
        ) -> None:
            """Play ``anim_name``; once it finishes, take ``done`` (default: PlayAnim_Done)."""
            self.owner.anim.play_anim(anim_name, loop)
            self.done = done or st.sibling(SharedStates.PlayAnim_Done)

        def transition(self) -> st.Transition | None:
            if self.owner.anim.is_finished():
                return self.done
            return None


# ----------------------------------------------------------------------------------- Hero


class Hero:
    """Owner of the hero's machine; ``attack`` is its input."""

    def __init__(self) -> None:
        self.attack = False
        self.anim = AnimComponent()
        self.machine = st.StateMachine(
            HeroStates.Alive,
            owner=self,
            name="TestHsm",
            trace=st.TraceLevel.BASIC,
            trace_sink=print,
        )

    def update(self) -> None:
        self.machine.process_state_transitions()
        self.machine.update_states()


class HeroStates:
    """The hero's states."""

    class Alive(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(HeroStates.Stand)

    class Stand(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            if self.owner.attack:
                self.owner.attack = False
                return st.sibling(HeroStates.Attack)
            return None

    class Attack(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(SharedStates.PlayAnim_Done):
                return st.sibling(HeroStates.Stand)
            return st.inner_entry(SharedStates.PlayAnim, "Attack_1", loop=False)


# ---------------------------------------------------------------------------------- Enemy


class Enemy:
    """Owner of an enemy's machine; ``attack`` is its input. Unrelated to Hero."""

    def __init__(self) -> None:
        self.attack = False
        self.anim = AnimComponent()
        self.machine = st.StateMachine(
            EnemyStates.Alive,
            owner=self,
            name="TestHsm",
            trace=st.TraceLevel.BASIC,
            trace_sink=print,
        )

    def update(self) -> None:
        self.machine.process_state_transitions()
        self.machine.update_states()


class EnemyStates:
    """An enemy's states."""

    class Alive(st.State[Enemy]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(EnemyStates.Stand)

    class Stand(st.State[Enemy]):
        def transition(self) -> st.Transition | None:
            if self.owner.attack:
                self.owner.attack = False
                return st.sibling(EnemyStates.Attack)
            return None

    class Attack(st.State[Enemy]):
        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(SharedStates.PlayAnim_Done):
                return st.sibling(EnemyStates.Stand)
            return st.inner_entry(SharedStates.PlayAnim, "Attack_1", loop=False)


def main() -> None:
    hero = Hero()
    hero.update()
    hero.attack = True
    hero.update()

    enemy = Enemy()
    enemy.update()
    enemy.attack = True
    enemy.update()


if __name__ == "__main__":
    main()
