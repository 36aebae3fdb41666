"""Reusable states (HSM book, chapter 4, "Reusable States").

PlayAnim combines state arguments with a deferred transition: besides the animation to play,
it takes ``done``, the transition to make when the animation finishes (by default a sibling to
PlayAnim_Done). Attack uses that to queue three animations: the first PlayAnim's ``done`` is a
sibling to a second PlayAnim, whose ``done`` is a sibling to a third.

Notice that transitions are plain immutable values, so they nest as arguments, and that
PlayAnim siblings to a new instance of itself twice before the default done state ends the
sequence.
"""

from __future__ import annotations

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


class Character:
    """Owner of the machine; ``attack`` is its input."""

    def __init__(self) -> None:
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

    class PlayAnim_Done(st.State[Character]):
        """PlayAnim's default ``done`` target."""

    # ``done`` comes from whoever pushes PlayAnim, so the code does not show where it leads;
    # declaring the targets lets ``statetree check`` and plots know it.
    @targets(sibling=("PlayAnim", "PlayAnim_Done"))
    class PlayAnim(st.State[Character]):
        def on_enter(
            self, anim_name: str, loop: bool = True, done: st.Transition | None = None
        ) -> None:
            """Play ``anim_name``; once it finishes, take ``done`` (default: PlayAnim_Done)."""
            self.owner.anim.play_anim(anim_name, loop)
            self.done = done or st.sibling(CharacterStates.PlayAnim_Done)

        def transition(self) -> st.Transition | None:
            if self.owner.anim.is_finished():
                return self.done
            return None

    class Alive(st.State[Character]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.Stand)

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.attack:
                self.owner.attack = False
                return st.sibling(CharacterStates.Attack)
            return None

    class Attack(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(CharacterStates.PlayAnim_Done):
                return st.sibling(CharacterStates.Stand)
            return ATTACK_SEQUENCE


# Transitions are immutable values, so this one is built once and returned on every call.
ATTACK_SEQUENCE = st.inner_entry(
    CharacterStates.PlayAnim,
    "Attack_1",
    loop=False,
    done=st.sibling(
        CharacterStates.PlayAnim,
        "Attack_2",
        loop=False,
        done=st.sibling(CharacterStates.PlayAnim, "Attack_3", loop=False),
    ),
)


def main() -> None:
    character = Character()
    character.update()

    character.attack = True
    character.update()


if __name__ == "__main__":
    main()
