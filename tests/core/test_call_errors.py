"""Wrong arguments to the machine's tools and settings are refused at the call, by name."""

from __future__ import annotations

from typing import Any

import pytest
from core_support import Logged, Recorder, names

import statetree as st


class Root(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Leaf)


class Leaf(Logged):
    pass


def started(name: str) -> st.StateMachine[Recorder]:
    machine = st.StateMachine(Root, Recorder(), name=name)
    machine.process_state_transitions()
    return machine


def test_apply_transition_refuses_what_is_not_a_transition() -> None:
    machine = started("npc")
    root = machine.stack[0]
    with pytest.raises(st.TransitionTargetError) as caught:
        machine.apply_transition(root, "x")
    assert str(caught.value) == (
        "apply_transition(<Root depth=0>, 'x'): the second argument must be a transition "
        "such as st.sibling(Target), got str"
    )
    assert names(machine) == ["Root", "Leaf"]


def test_exit_of_another_machines_state_names_both_machines() -> None:
    mine, theirs = started("mine"), started("theirs")
    with pytest.raises(st.UsageError) as caught:
        mine.exit(theirs.stack[1])
    assert str(caught.value) == (
        "exit(<Leaf depth=1>) on machine 'mine': that state belongs to machine 'theirs'; "
        "call exit() on the machine whose stack holds it"
    )
    assert names(mine) == names(theirs) == ["Root", "Leaf"]


def test_apply_transition_of_another_machines_state_names_both_machines() -> None:
    mine, theirs = started("mine"), started("theirs")
    with pytest.raises(st.UsageError, match=r"that state belongs to machine 'theirs'"):
        mine.apply_transition(theirs.stack[0], st.sibling(Leaf))
    assert names(theirs) == ["Root", "Leaf"]


@pytest.mark.parametrize("bound", ["10", 2.5, True, None])
def test_max_transitions_must_be_a_whole_number(bound: Any) -> None:
    expected = (
        f"max_transitions must be a whole number of changes, at least 1; got {bound!r} "
        f"({type(bound).__name__})"
    )
    with pytest.raises(st.UsageError) as at_build:
        st.StateMachine(Root, max_transitions=bound)
    assert str(at_build.value) == expected
    machine = st.StateMachine(Root, max_transitions=7)
    with pytest.raises(st.UsageError) as at_set:
        machine.max_transitions = bound
    assert str(at_set.value) == expected
    assert machine.max_transitions == 7


def test_max_transitions_takes_any_integer_type() -> None:
    class Count:
        def __index__(self) -> int:
            return 12

    machine = st.StateMachine(Root, max_transitions=Count())
    assert machine.max_transitions == 12


def test_a_trace_sink_that_cannot_be_called_is_refused_at_once() -> None:
    with pytest.raises(st.UsageError) as caught:
        st.StateMachine(Root, trace=st.TraceLevel.BASIC, trace_sink=5)  # type: ignore[arg-type]
    assert str(caught.value) == "trace_sink must be callable, got 5 (int)"


def test_add_listener_refuses_what_cannot_be_called() -> None:
    machine = started("npc")
    with pytest.raises(st.UsageError) as caught:
        machine.add_listener(42)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "add_listener(42) on machine 'npc': a listener must be callable with one Step, got int"
    )
    machine.exit(machine.stack[1])
    machine.process_state_transitions()  # nothing broken was attached
    assert names(machine) == ["Root", "Leaf"]


def test_a_state_value_must_be_given_to_set_it() -> None:
    class Holder(st.State):
        def on_enter(self) -> None:
            self.set_state_value(5, 5)  # type: ignore[arg-type]

    machine = st.StateMachine(Holder)
    with pytest.raises(st.StateValueError) as refused:
        machine.process_state_transitions()
    assert str(refused.value) == (
        "set_state_value() needs a StateValue (st.StateValue(initial)), got 5"
    )
