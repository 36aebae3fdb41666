"""Chapter 2 of the HSM book, "The Basics": each sample prints what the book shows."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

import pytest
from book_support import book_lines

import statetree as st

RunExample = Callable[[str], list[str]]


@pytest.fixture
def machines(monkeypatch: pytest.MonkeyPatch) -> list[st.StateMachine[Any]]:
    """Every machine an example creates while the test runs, to inspect it afterwards."""
    created: list[st.StateMachine[Any]] = []

    class RecordedMachine(st.StateMachine[Any]):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            created.append(self)

    monkeypatch.setattr(st, "StateMachine", RecordedMachine)
    return created


def test_simplest_state_machine_settles_in_first(
    run_example: RunExample,
    machines: list[st.StateMachine[Any]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The book shows no output for this sample, and it prints none.
    assert run_example("simplest_state_machine") == []
    [machine] = machines
    [first] = machine.stack
    assert type(first).__qualname__ == "First"
    assert (first.depth, first.owner) == (0, None)

    machine.process_state_transitions()
    assert machine.stack == (first,)

    machine.set_debug_info("Simplest", st.TraceLevel.DIAGNOSTIC)
    with caplog.at_level(logging.INFO, logger="statetree"):
        machine.stop()
        machine.process_state_transitions()
    assert caplog.messages == [
        "HSM_2_Simplest: Pop     : First",
        "HSM_1_Simplest: Init    : First",
    ]
    assert machine.stack[0] is not first


def test_states_and_transitions(run_example: RunExample) -> None:
    assert run_example("states_and_transitions") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct First
        HSM_1_TestHsm: Sibling : struct Second
        HSM_1_TestHsm: Sibling : struct Third
        """
    )


def test_improving_readability(run_example: RunExample) -> None:
    # The book shows no output for this sample; it is states_and_transitions with the states
    # nested in MyStates, which the trace shows in their qualified names.
    assert run_example("improving_readability") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct MyStates::First
        HSM_1_TestHsm: Sibling : struct MyStates::Second
        HSM_1_TestHsm: Sibling : struct MyStates::Third
        """
    )


def test_state_onenter_onexit(run_example: RunExample) -> None:
    # The book prints its C++ hook names (First::OnEnter, First::OnExit); the samples print
    # the Python hooks, on_enter and on_exit.
    assert run_example("state_onenter_onexit") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct MyStates::First
        First::on_enter
        First::on_exit
        HSM_1_TestHsm: Sibling : struct MyStates::Second
        Second::on_enter
        Second::on_exit
        HSM_1_TestHsm: Sibling : struct MyStates::Third
        Third::on_enter
        """
    )


def test_process_state_transitions(run_example: RunExample) -> None:
    assert run_example("process_state_transitions") == book_lines(
        """
        >>> First ProcessStateTransitions
        HSM_1_TestHsm: Init    : struct MyStates::First
        HSM_1_TestHsm: Sibling : struct MyStates::Second
        HSM_1_TestHsm: Sibling : struct MyStates::Third
        >>> Second ProcessStateTransitions
        >>> Third ProcessStateTransitions
        HSM_1_TestHsm: Sibling : struct MyStates::First
        HSM_1_TestHsm: Sibling : struct MyStates::Second
        HSM_1_TestHsm: Sibling : struct MyStates::Third
        >>> Fourth ProcessStateTransitions
        """
    )


def test_process_state_transitions_loops_without_the_reset(
    run_example: RunExample,
    machines: list[st.StateMachine[Any]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The book: "if we remove First::OnEnter, ProcessStateTransitions would end up in an
    # infinite loop", which it reports with an assertion; statetree raises instead.
    run_example("process_state_transitions")
    [machine] = machines
    sample = sys.modules[type(machine.stack[0]).__module__]
    monkeypatch.setattr(sample.MyStates.First, "on_enter", lambda self: None)
    sample.world.start_over = True

    with pytest.raises(st.TransitionLoopError) as caught:
        machine.process_state_transitions()

    names = ["MyStates.First", "MyStates.Second", "MyStates.Third"]
    assert caught.value.cycle in {tuple(names[i:] + names[:i]) for i in range(3)}
    assert caught.value.changes == machine.max_transitions
    assert "MyStates.First -> MyStates.Second -> MyStates.Third" in str(caught.value)
    assert capsys.readouterr().out.splitlines()[:4] == book_lines(
        """
        HSM_1_TestHsm: Sibling : struct MyStates::First
        HSM_1_TestHsm: Sibling : struct MyStates::Second
        HSM_1_TestHsm: Sibling : struct MyStates::Third
        HSM_1_TestHsm: Sibling : struct MyStates::First
        """
    )


# The book prints this for update_states and, "exactly the same", for ownership_basic_usage.
# It shows no output for the two ownership samples that follow; they are the same program
# with another way of reaching the owner, so they print the same. The book prints its C++
# hook name (First::Update); the samples print the Python hook, update.
PLAY_SEQUENCE_OUTPUT = """
    HSM_1_TestHsm: Init    : struct MyStates::First
    First::update
    First::update
    HSM_1_TestHsm: Sibling : struct MyStates::Second
    HSM_1_TestHsm: Sibling : struct MyStates::Third
    Third::update
    Third::update
"""


@pytest.mark.parametrize(
    "name",
    [
        "update_states",
        "ownership_basic_usage",
        "ownership_easier_owner_access",
        "ownership_access_owner_privates",
    ],
)
def test_play_sequence(name: str, run_example: RunExample) -> None:
    assert run_example(name) == book_lines(PLAY_SEQUENCE_OUTPUT)


def test_storing_data(run_example: RunExample) -> None:
    # Foo is freed (CPython frees on the last reference) as soon as the machine drops the
    # exited First, which must happen before Second is created and pushed.
    assert run_example("storing_data") == book_lines(
        """
        >>> Foo created
        HSM_1_TestHsm: Init    : struct MyStates::First
        >>>Foo destroyed
        HSM_1_TestHsm: Sibling : struct MyStates::Second
        """
    )
