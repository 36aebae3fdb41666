"""Restarting states (HSM book, chapter 4, "Restarting States").

An attack combo: while Attack runs, pressing attack again chains the next attack by returning
a sibling transition to Attack itself with the next combo index. The running Attack exits and
a new instance is entered with the new argument.

Notice the three ``Sibling : CharacterStates.Attack`` lines, one per (re)start, and that a
fourth attack input does nothing once the combo has reached its last attack.
"""

from __future__ import annotations

import statetree as st

ATTACK_ANIMS = ("Attack_1", "Attack_2", "Attack_3")


class AnimComponent:
    """Stands in for an animation system whose animations never end."""

    def play_anim(self, name: str) -> None:
        print(f">>> PlayAnim: {name}")

    def is_finished(self) -> bool:
        return False

    def poll_event(self, name: str) -> bool:
        """Whether the playing animation has passed event ``name`` (always, here)."""
        return True


class Character:
    """Owner of the machine; ``move`` and ``attack`` are its inputs."""

    def __init__(self) -> None:
        self.move = False
        self.attack = False
        self.anim = AnimComponent()
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
            return st.inner_entry(CharacterStates.Locomotion)

    class Locomotion(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.attack:
                # Start the attack sequence with combo index 0.
                return st.sibling(CharacterStates.Attack, 0)
            return st.inner_entry(CharacterStates.Stand)

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.move:
                return st.sibling(CharacterStates.Move)
            return None

    class Move(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if not self.owner.move:
                return st.sibling(CharacterStates.Stand)
            return None

    class Attack(st.State[Character]):
        def on_enter(self, combo_index: int) -> None:
            self.owner.attack = False
            self.combo_index = combo_index
            self.owner.anim.play_anim(ATTACK_ANIMS[combo_index])

        def transition(self) -> st.Transition | None:
            owner = self.owner
            if (
                owner.attack
                and self.combo_index < len(ATTACK_ANIMS) - 1
                and owner.anim.poll_event("CanChainCombo")
            ):
                # Restart this state with the next combo index.
                return st.sibling(CharacterStates.Attack, self.combo_index + 1)
            if owner.anim.is_finished():
                return st.sibling(CharacterStates.Locomotion)
            return None

        def update(self) -> None:
            print(f">>> Attacking: {self.combo_index}")


def main() -> None:
    character = Character()
    character.update()

    character.move = True
    character.update()

    for _attack in ATTACK_ANIMS:
        # Each attack input chains the next attack of the combo.
        character.attack = True
        for _frame in range(3):
            character.update()

    # A fourth attack has no effect: the combo has reached its last attack.
    character.attack = True
    character.update()


if __name__ == "__main__":
    main()
