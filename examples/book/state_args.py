"""State arguments (HSM book, chapter 4, "State Arguments").

PlayAnim is a reusable state: Stand, Move and Jump all push it, each with its own animation.
The arguments of a transition arrive as the parameters of the target's ``on_enter``, defaults
included, so ``st.inner_entry(PlayAnim, "Anim_Jump", loop=False)`` reads like a function call.

Notice how Jump learns that its animation finished: PlayAnim siblings to PlayAnim_Done, and
Jump, seeing that done state among its inner states, siblings back to Move, all within one
``process_state_transitions`` call.
"""

from __future__ import annotations

import statetree as st


class AnimComponent:
    """Stands in for an animation system: a non-looping animation finishes at once."""

    def __init__(self) -> None:
        self._loop = False

    def play_anim(self, name: str, loop: bool, blend_time: float, rate: float) -> None:
        print(f">>> PlayAnim: {name}, looping: {'true' if loop else 'false'}")
        self._loop = loop

    def is_finished(self) -> bool:
        return not self._loop


class Character:
    """Owner of the machine; ``move`` and ``jump`` are its inputs."""

    def __init__(self) -> None:
        self.move = False
        self.jump = False
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

    class PlayAnim(st.State[Character]):
        def on_enter(
            self, anim_name: str, loop: bool = True, blend_time: float = 0.2, rate: float = 1.0
        ) -> None:
            self.owner.anim.play_anim(anim_name, loop, blend_time, rate)

        def transition(self) -> st.Transition | None:
            if self.owner.anim.is_finished():
                return st.sibling(CharacterStates.PlayAnim_Done)
            return None

    class PlayAnim_Done(st.State[Character]):
        """Part of PlayAnim's contract: entered when the animation has finished."""

    class Alive(st.State[Character]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Stand)

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.move:
                return st.sibling(CharacterStates.Move)
            return st.inner_entry(CharacterStates.PlayAnim, "Anim_Stand")

    class Move(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if not self.owner.move:
                return st.sibling(CharacterStates.Stand)
            if self.owner.jump:
                # The jump input is consumed here; left set, Move and Jump would loop.
                self.owner.jump = False
                return st.sibling(CharacterStates.Jump)
            return st.inner_entry(CharacterStates.PlayAnim, "Anim_Move")

    class Jump(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(CharacterStates.PlayAnim_Done):
                return st.sibling(CharacterStates.Move)
            return st.inner_entry(CharacterStates.PlayAnim, "Anim_Jump", loop=False)


def main() -> None:
    character = Character()
    character.update()

    character.move = True
    character.update()

    character.jump = True
    character.update()


if __name__ == "__main__":
    main()
