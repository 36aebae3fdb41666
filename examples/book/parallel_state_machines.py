"""Parallel state machines (HSM book, chapter 4, "Parallel State Machines").

A hero runs two machines side by side: FullBody (stand, move, jump) and UpperBody (reload).
Reloading may go on while standing or moving, but a jump cancels it and forbids it until the
jump ends. The machines are kept in step by a StateValue, ``upper_body_enabled``: Alive sets it
to true, Jump sets it to false while it is active, and UpperBody only reads it.

Notice that the first reload completes (WEAPON RELOADED) while the second, interrupted by the
jump, never does; and that FullBody is updated first because it drives UpperBody. The machine
names are padded to the same width, as in the book, so the trace columns line up.
"""

from __future__ import annotations

import itertools

import statetree as st

ANIM_FRAMES = 3
"""Every animation lasts this many updates."""


class Hero:
    """Owner of both machines; ``move``, ``jump`` and ``reload`` are its inputs."""

    def __init__(self) -> None:
        self.move = False
        self.jump = False
        self.reload = False
        self.upper_body_enabled = st.StateValue(False)
        self.anim_frame = 0
        self.machines = (
            st.StateMachine(
                HeroFullBodyStates.Alive,
                owner=self,
                name="FullBody ",
                trace=st.TraceLevel.BASIC,
                trace_sink=print,
            ),
            st.StateMachine(
                HeroUpperBodyStates.Disabled,
                owner=self,
                name="UpperBody",
                trace=st.TraceLevel.BASIC,
                trace_sink=print,
            ),
        )

    def update(self) -> None:
        # FullBody goes first: UpperBody reads the state value that FullBody sets.
        for machine in self.machines:
            machine.process_state_transitions()
            machine.update_states()
        self.anim_frame += 1

    def play_anim(self, name: str) -> None:
        """Simulates playing animation ``name``: it is done ``ANIM_FRAMES`` updates later."""
        self.anim_frame = 0

    def is_anim_done(self) -> bool:
        return self.anim_frame >= ANIM_FRAMES - 1

    def reload_weapon(self) -> None:
        print(">>> WEAPON RELOADED!")


class HeroFullBodyStates:
    """The full body machine: standing, moving and jumping."""

    class Alive(st.State[Hero]):
        def on_enter(self) -> None:
            # By default, the upper body is enabled.
            self.set_state_value(self.owner.upper_body_enabled, True)

        def transition(self) -> st.Transition | None:
            return st.inner_entry(HeroFullBodyStates.Stand)

    class Stand(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            if self.owner.move:
                return st.sibling(HeroFullBodyStates.Move)
            if self.owner.jump:
                self.owner.jump = False
                return st.sibling(HeroFullBodyStates.Jump)
            return None

    class Move(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            if not self.owner.move:
                return st.sibling(HeroFullBodyStates.Stand)
            if self.owner.jump:
                self.owner.jump = False
                return st.sibling(HeroFullBodyStates.Jump)
            return None

    class Jump(st.State[Hero]):
        def on_enter(self) -> None:
            # The upper body may do nothing while jumping; restored when Jump exits.
            self.set_state_value(self.owner.upper_body_enabled, False)
            self.owner.play_anim("Jump")

        def transition(self) -> st.Transition | None:
            if not self.owner.is_anim_done():
                return None
            if self.owner.move:
                return st.sibling(HeroFullBodyStates.Move)
            return st.sibling(HeroFullBodyStates.Stand)


class HeroUpperBodyStates:
    """The upper body machine: idle or reloading, while the full body allows it."""

    class Disabled(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            if self.owner.upper_body_enabled.value:
                return st.sibling(HeroUpperBodyStates.Enabled)
            return None

    class Enabled(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            if not self.owner.upper_body_enabled.value:
                return st.sibling(HeroUpperBodyStates.Disabled)
            return st.inner_entry(HeroUpperBodyStates.Idle)

    class Idle(st.State[Hero]):
        def on_enter(self) -> None:
            self.owner.play_anim("Idle")

        def transition(self) -> st.Transition | None:
            if self.owner.reload:
                self.owner.reload = False
                return st.sibling(HeroUpperBodyStates.Reload)
            return None

    class Reload(st.State[Hero]):
        def transition(self) -> st.Transition | None:
            if self.is_in_inner_state(HeroUpperBodyStates.Reload_Done):
                return st.sibling(HeroUpperBodyStates.Idle)
            return st.inner_entry(HeroUpperBodyStates.Reload_PlayAnim)

    class Reload_PlayAnim(st.State[Hero]):
        def on_enter(self) -> None:
            self.owner.play_anim("Reload")

        def transition(self) -> st.Transition | None:
            if self.owner.is_anim_done():
                return st.sibling(HeroUpperBodyStates.Reload_Done)
            return None

    class Reload_Done(st.State[Hero]):
        def on_enter(self) -> None:
            # The weapon is reloaded only once the animation has played to its end.
            self.owner.reload_weapon()


def main() -> None:
    hero = Hero()
    which_update = itertools.count()

    def update() -> None:
        print(f">>> Update {next(which_update)}")
        hero.update()

    update()

    print(">>> Input: Reload")
    hero.reload = True
    update()

    print(">>> Input: Move")
    hero.move = True
    update()
    update()

    print(">>> Input: Reload")
    hero.reload = True
    update()

    print(">>> Input: Jump")
    hero.jump = True
    update()
    update()
    update()


if __name__ == "__main__":
    main()
