"""State overrides (HSM book, chapter 4, "Sharing State Machines (State Overrides)").

Hero and Enemy share one machine, CharacterStates, and each replaces chosen states with its
own. Stand does not sibling to Attack or Jump directly: it asks
``self.get_state_override(...)``, which returns the class registered for this machine with
``machine.add_state_override`` or, without one, the class itself. The explicit call marks the
places where a machine can be customised, much as a virtual method does.

Notice that the hero's machine enters HeroStates.Attack and HeroStates.Jump, while the enemy,
which overrides only Attack, still enters CharacterStates.Jump.
"""

from __future__ import annotations

import statetree as st

# ------------------------------------------------------------------------------ Character


class Character:
    """Owner of the shared machine; ``attack`` and ``jump`` are its inputs."""

    def __init__(self) -> None:
        self.attack = False
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
    """The machine every character shares."""

    class BaseState(st.State[Character]):
        """Base of every state of a character's machine."""

    class Alive(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Stand)

    class Stand(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner.attack:
                self.owner.attack = False
                return st.sibling(self.get_state_override(CharacterStates.Attack))
            if self.owner.jump:
                self.owner.jump = False
                return st.sibling(self.get_state_override(CharacterStates.Jump))
            return None

    class Attack(BaseState):
        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Stand)

    class Jump(BaseState):
        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Stand)


# ----------------------------------------------------------------------------------- Hero


class Hero(Character):
    """A character that overrides both Attack and Jump."""

    def __init__(self) -> None:
        super().__init__()
        self.machine.add_state_override(CharacterStates.Attack, HeroStates.Attack)
        self.machine.add_state_override(CharacterStates.Jump, HeroStates.Jump)


class HeroStates:
    """The hero's versions of overridable states."""

    class BaseState(CharacterStates.BaseState):
        owner: Hero

    class Attack(BaseState):
        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Stand)

    class Jump(BaseState):
        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Stand)


# ---------------------------------------------------------------------------------- Enemy


class Enemy(Character):
    """A character that overrides only Attack."""

    def __init__(self) -> None:
        super().__init__()
        self.machine.add_state_override(CharacterStates.Attack, EnemyStates.Attack)


class EnemyStates:
    """The enemy's versions of overridable states."""

    class BaseState(CharacterStates.BaseState):
        owner: Enemy

    class Attack(BaseState):
        def transition(self) -> st.Transition | None:
            return st.sibling(CharacterStates.Stand)


def play(character: Character) -> None:
    """The book's input sequence: start, attack, then jump."""
    character.update()
    character.attack = True
    character.update()
    character.jump = True
    character.update()


def main() -> None:
    play(Hero())
    print()
    play(Enemy())


if __name__ == "__main__":
    main()
