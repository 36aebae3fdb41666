"""The book's rule for state values, as its C++ library applies it.

"When the state exits, the wrapped variable's value is restored to the value that was saved
on the state": each state saves the value it finds at its first change and puts exactly that
back when it exits, whatever other states did with the value since. These scenarios were
checked against the C++ library (the first two are the ones where an earlier statetree
handed the saved value on to another holder instead).
"""

from __future__ import annotations

import statetree as st


class Owner:
    def __init__(self, initial: int) -> None:
        self.value = st.StateValue(initial)
        self.other = False
        self.seen: list[tuple[str, int]] = []


class Outer(st.State[Owner]):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Inner)

    def update(self) -> None:
        self.set_state_value(self.owner.value, 4)


class Inner(st.State[Owner]):
    def on_enter(self) -> None:
        self.set_state_value(self.owner.value, 1)

    def transition(self) -> st.Transition | None:
        return st.sibling(Other) if self.owner.other else None


class Other(st.State[Owner]):
    pass


def test_an_inner_restores_what_it_found_though_its_outer_changed_the_value_since() -> None:
    owner = Owner(7)
    machine = st.StateMachine(Outer, owner)
    machine.process_state_transitions()
    assert owner.value.value == 1  # Inner saved 7
    machine.update_states()
    assert owner.value.value == 4  # Outer, active all along, saved Inner's 1

    owner.other = True
    machine.process_state_transitions()
    assert machine.active_names == ("Outer", "Other")
    assert owner.value.value == 7, "Inner exits: the 7 it saved comes back"

    machine.stop()
    assert owner.value.value == 1, "Outer exits: the 1 it saved comes back"


class Setter(st.State[Owner]):
    """Sets the shared value to the number its machine is named after."""

    def on_enter(self) -> None:
        self.set_state_value(self.owner.value, int(self.machine.name))


def test_two_machines_sharing_a_value_each_restore_their_own_saved_value() -> None:
    owner = Owner(0)
    a = st.StateMachine(Setter, owner, name="1")
    b = st.StateMachine(Setter, owner, name="2")
    a.process_state_transitions()  # A saves 0, sets 1
    b.process_state_transitions()  # B saves 1, sets 2
    assert owner.value.value == 2

    a.stop()
    assert owner.value.value == 0, "A exits: the 0 it saved comes back"
    b.stop()
    assert owner.value.value == 1, "B exits: the 1 it saved comes back"


def test_states_set_in_stack_order_restore_the_value_step_by_step() -> None:
    # The common case, the book's speed scale: outer states set first, inner ones later.
    owner = Owner(0)

    class Body(st.State[Owner]):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.value, 10)

        def transition(self) -> st.Transition | None:
            return st.inner_entry(Legs)

    class Legs(st.State[Owner]):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.value, 20)

        def transition(self) -> st.Transition | None:
            return st.inner_entry(Feet)

    class Feet(st.State[Owner]):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.value, 30)

        def on_exit(self) -> None:
            self.owner.seen.append(("Feet.on_exit", self.owner.value.value))

    machine = st.StateMachine(Body, owner)
    machine.process_state_transitions()
    assert owner.value.value == 30
    machine.exit(machine.stack[2])
    assert owner.value.value == 20
    machine.exit(machine.stack[1])
    assert owner.value.value == 10
    machine.stop()
    assert owner.value.value == 0
    assert owner.seen == [("Feet.on_exit", 30)], "on_exit runs before its state's restore"


def test_only_the_first_change_of_a_state_is_saved() -> None:
    owner = Owner(5)

    class Busy(st.State[Owner]):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.value, 6)

        def update(self, step: int) -> None:
            self.set_state_value(self.owner.value, step)  # changes, saves nothing more

    machine = st.StateMachine(Busy, owner)
    machine.process_state_transitions()
    for step in (100, 200, 300):
        machine.update_states(step)
    assert owner.value.value == 300
    machine.stop()
    assert owner.value.value == 5


def test_an_outer_that_changes_the_value_late_leaves_the_inner_setting_after_both_exit() -> None:
    # The book's rule followed to the letter: Outer first changes the value while Inner's
    # override is in place, so Inner's setting is what Outer saved and puts back last.
    owner = Owner(0)

    class Late(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Early)

        def update(self) -> None:
            self.set_state_value(self.owner.value, 9)

    class Early(st.State[Owner]):
        def on_enter(self) -> None:
            self.set_state_value(self.owner.value, 3)

    machine = st.StateMachine(Late, owner)
    machine.process_state_transitions()
    machine.update_states()
    assert owner.value.value == 9
    machine.stop()  # Early restores 0, then Late restores the 3 it found
    assert owner.value.value == 3
