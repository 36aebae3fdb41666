"""Sharing states with related owners (HSM book, chapter 4, "Sharing HSMs").

Hero and Enemy now derive from Character, which holds what both need: the animation
component, the machine and ``update``. The shared states are ordinary states of Character
(SharedStates.BaseState), so they work on any Character's machine. Each owner's own BaseState
derives from SharedStates.BaseState and narrows ``owner`` to its class, so functions added to
SharedStates.BaseState would reach every state of both machines.

Notice that both traces name the same SharedStates.PlayAnim, as with unrelated owners.
"""

from __future__ import annotations

from typing import Any

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


# ------------------------------------------------------------------------------ Character


class Character:
    """Base of every character: owns the machine and the animation component."""

    def __init__(self, initial: type[st.State[Any]]) -> None:
        self.anim = AnimComponent()
        self.machine = st.StateMachine(
            initial, owner=self, name="TestHsm", trace=st.TraceLevel.BASIC, trace_sink=print
        )

    def update(self) -> None:
        self.machine.process_state_transitions()
        self.machine.update_states()


class SharedStates:
    """States that the machine of any Character may push."""

    class BaseState(st.State[Character]):
        """Base of the shared states, and of every state of Character-derived owners."""

    class PlayAnim_Done(BaseState):
        """PlayAnim's default ``done`` target."""

    # ``done`` comes from whoever pushes PlayAnim, so the code does not show where it leads;
    # declaring the targets lets ``statetree check`` and plots know it.
    @targets(sibling=("PlayAnim", "PlayAnim_Done"))
    class PlayAnim(BaseState):
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


class Hero(Character):
    """A character; ``attack`` is its input."""

    def __init__(self) -> None:
        self.attack = False
        super().__init__(HeroStates.Alive)


class HeroStates:
    """The hero's states."""

    class BaseState(SharedStates.BaseState):
        owner: Hero

    class Alive(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(HeroStates.Stand)

    class Stand(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner.attack:
                self.owner.attack = False
                return st.sibling(HeroStates.Attack)
            return None

    class Attack(BaseState):
        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(SharedStates.PlayAnim_Done):
                return st.sibling(HeroStates.Stand)
            return st.inner_entry(SharedStates.PlayAnim, "Attack_1", loop=False)


# ---------------------------------------------------------------------------------- Enemy


class Enemy(Character):
    """A character; ``attack`` is its input."""

    def __init__(self) -> None:
        self.attack = False
        super().__init__(EnemyStates.Alive)


class EnemyStates:
    """An enemy's states."""

    class BaseState(SharedStates.BaseState):
        owner: Enemy

    class Alive(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(EnemyStates.Stand)

    class Stand(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner.attack:
                self.owner.attack = False
                return st.sibling(EnemyStates.Attack)
            return None

    class Attack(BaseState):
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
