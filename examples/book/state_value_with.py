"""A shared value that states override (book chapter 4, "StateValue: With StateValue").

The speed scale is now an ``st.StateValue``: code outside the states reads it through
``.value`` and cannot assign it; a state sets it with ``self.set_state_value(...)``, and the
value it found is restored right after that state's ``on_exit``, in reverse order when
several states set it. ``Move_Walk``, ``Move_Crawl`` and ``Swim`` need no saved copy and no
``on_exit``, and the output is the same as in ``state_value_without.py``. To edit one field of
an aggregate value in place, use ``self.modify_state_value(...)`` instead.
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
        # In [0, 1]; the initial value applies while no state overrides it.
        self._speed_scale = st.StateValue(0.0)
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

        speed = self._speed_scale.value * MAX_SPEED
        self._physics.speed = speed
        self._physics.move()
        print(f"Current speed: {speed:f}")


class CharacterStates:
    """Alive on the ground (standing, walking or crawling) or swimming."""

    class BaseState(st.State["Character"]):
        """The base of every state of ``Character``'s machine."""

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

    class Move_Walk(BaseState):
        def on_enter(self) -> None:
            self.set_state_value(self.owner._speed_scale, 1.0)  # Full speed when moving.

        def transition(self) -> st.Transition | None:
            if self.owner.crawl:
                return st.sibling(CharacterStates.Move_Crawl)
            return None

    class Move_Crawl(BaseState):
        def on_enter(self) -> None:
            self.set_state_value(self.owner._speed_scale, 0.5)  # Half speed when crawling.

        def transition(self) -> st.Transition | None:
            if not self.owner.crawl:
                return st.sibling(CharacterStates.Move_Walk)
            return None

    class Swim(BaseState):
        def on_enter(self) -> None:
            self.set_state_value(self.owner._speed_scale, 0.3)  # About a third when swimming.

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
