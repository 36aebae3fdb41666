"""Saving and restoring a shared value by hand (book chapter 4, "StateValue: Without StateValue").

The character's speed scale depends on its innermost states: ``Move_Walk``, ``Move_Crawl``
and ``Swim`` each set it on entry and must put back the value they found on exit, so that
leaving them restores whatever the states around them chose. The book repeats those three
steps in each state; here they live once in ``ScaledSpeed``, but every state still keeps a
copy of the old value and relies on ``on_exit`` to restore it. ``state_value_with.py`` does
the same with ``st.StateValue``, and prints the same output.
"""

from __future__ import annotations

import statetree as st

MAX_SPEED = 100.0


class PhysicsComponent:
    """Stands in for the physics body that moves the character."""

    def __init__(self) -> None:
        self.speed = 0.0

    def move(self) -> None:
        """Move the body at ``speed`` (outside the scope of this sample)."""


class Character:
    """A character whose states scale its speed."""

    def __init__(self) -> None:
        self.in_water = False
        self.move = False
        self.crawl = False
        self._physics = PhysicsComponent()
        self._speed_scale = 0.0  # In [0, 1]; the character stands still by default.
        self._machine = st.StateMachine(
            CharacterStates.Alive,
            owner=self,
            name="TestHsm",
            trace=st.TraceLevel.BASIC,
            trace_sink=print,
        )

    def update(self) -> None:
        """One frame: settle the machine, update its states, then move at the scaled speed."""
        self._machine.process_state_transitions()
        self._machine.update_states()

        speed = self._speed_scale * MAX_SPEED
        self._physics.speed = speed
        self._physics.move()
        print(f"Current speed: {speed:f}")


class CharacterStates:
    """Alive on the ground (standing, walking or crawling) or swimming."""

    class BaseState(st.State["Character"]):
        """The base of every state of ``Character``'s machine."""

    class ScaledSpeed(BaseState):
        """Sets the owner's speed scale to ``speed_scale`` while active."""

        speed_scale = 0.0

        def on_enter(self) -> None:
            self._last_speed_scale = self.owner._speed_scale
            self.owner._speed_scale = self.speed_scale

        def on_exit(self) -> None:
            self.owner._speed_scale = self._last_speed_scale

    class Alive(BaseState):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(CharacterStates.OnGround)

    class OnGround(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner.in_water:
                return st.sibling(CharacterStates.Swim)
            return st.inner_entry(CharacterStates.Stand)

    class Stand(BaseState):
        def transition(self) -> st.Transition | None:
            if self.owner.move:
                return st.sibling(CharacterStates.Move)
            return None

    class Move(BaseState):
        def transition(self) -> st.Transition | None:
            if not self.owner.move:
                return st.sibling(CharacterStates.Stand)
            return st.inner_entry(CharacterStates.Move_Walk)

    class Move_Walk(ScaledSpeed):
        speed_scale = 1.0  # Full speed when moving normally.

        def transition(self) -> st.Transition | None:
            if self.owner.crawl:
                return st.sibling(CharacterStates.Move_Crawl)
            return None

    class Move_Crawl(ScaledSpeed):
        speed_scale = 0.5  # Half speed when crawling.

        def transition(self) -> st.Transition | None:
            if not self.owner.crawl:
                return st.sibling(CharacterStates.Move_Walk)
            return None

    class Swim(ScaledSpeed):
        speed_scale = 0.3  # About a third of full speed when swimming.

        def transition(self) -> st.Transition | None:
            if not self.owner.in_water:
                return st.sibling(CharacterStates.OnGround)
            return None


def main() -> None:
    """Run five frames: stand, walk, crawl, swim, then back to standing on the ground."""
    character = Character()
    character.update()

    character.move = True
    character.update()

    character.crawl = True
    character.update()

    character.in_water = True
    character.update()

    character.in_water = False
    character.move = False
    character.crawl = False
    character.update()


if __name__ == "__main__":
    main()
