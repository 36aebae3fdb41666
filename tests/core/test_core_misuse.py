"""Misuse met in the audits of the core: each is the library's error naming the mistake, or,
where the program's own code failed, its own error unchanged."""

from __future__ import annotations

from typing import Any

import pytest

import statetree as st


class Outer(st.State[Any]):
    def on_enter(self) -> None:
        self.update = False  # data of its own under a hook's name Outer does not define

    def transition(self) -> st.Transition:
        return st.inner_entry(Broken)


class Broken(st.State[Any]):
    def on_enter(self) -> None:
        raise TypeError("the game's own bug")


def test_a_hooks_type_error_is_not_blamed_on_data_under_a_hook_name_never_called() -> None:
    machine = st.StateMachine(Outer, name="Hero")
    with pytest.raises(TypeError) as raised:
        machine.process_state_transitions()
    assert type(raised.value) is TypeError and str(raised.value) == "the game's own bug"


class Alive(st.State[Any]):
    pass


def test_a_query_tuple_holding_no_class_is_refused_whatever_is_active() -> None:
    machine = st.StateMachine(Alive)
    machine.process_state_transitions()  # Alive, the first class of the tuple, is active
    for query in (machine.is_in_state, machine.get_state):
        with pytest.raises(st.UsageError, match=r"takes a state class \(or a tuple of them\)"):
            query((Alive, "Jump"))  # type: ignore[arg-type]
    assert machine.is_in_state((Alive, Outer))


class Level(st.State[Any]):
    def on_enter(self, number: int) -> None:
        self.number = number


def test_the_advice_for_the_first_states_arguments_fits_how_they_were_given() -> None:
    bare = st.StateMachine(Level)
    with pytest.raises(st.StateArgumentError) as raised:
        bare.process_state_transitions()
    assert str(raised.value).endswith(
        "give the machine its first state's arguments: StateMachine(st.sibling(Level, ...))"
    )
    given = st.StateMachine(st.sibling(Level, 3, hard=True))
    with pytest.raises(st.StateArgumentError) as raised:
        given.process_state_transitions()
    assert str(raised.value).endswith("; pass what on_enter declares")


class Owner:
    def __init__(self) -> None:
        self.speed = st.StateValue(1.0)
        self.base = st.StateValue(2.0)


class Fast(st.State[Owner]):
    def on_enter(self) -> None:
        self.set_state_value(self.owner.speed, self.owner.base)  # type: ignore[arg-type]


def test_a_state_value_given_as_a_value_is_refused_and_changes_nothing() -> None:
    owner = Owner()
    machine = st.StateMachine(Fast, owner)
    with pytest.raises(st.StateValueError) as raised:
        machine.process_state_transitions()
    assert str(raised.value) == (
        "set_state_value() was given a StateValue as the value, StateValue(2.0): give its "
        "value (other.value), a StateValue holds a plain value"
    )
    assert owner.speed.value == 1.0
    with pytest.raises(st.StateValueError, match=r"^StateValue\(\) was given a StateValue"):
        st.StateValue(owner.base)
