"""Chapter 3 of the HSM book, "The H in HSM": each sample prints what the book shows."""

from __future__ import annotations

from collections.abc import Callable

from book_support import book_lines

RunExample = Callable[[str], list[str]]


def test_inner_entry_transition(run_example: RunExample) -> None:
    assert run_example("inner_entry_transition") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct MyStates::Alive
        HSM_1_TestHsm:  Entry   : struct MyStates::Locomotion
        HSM_1_TestHsm:   Entry   : struct MyStates::Stand
        HSM_1_TestHsm: Sibling : struct MyStates::Dead
        """
    )


def test_inner_entry_transition_at_diagnostic_level(run_example: RunExample) -> None:
    assert run_example("inner_entry_transition_diagnostic") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct MyStates::Alive
        HSM_1_TestHsm:  Entry   : struct MyStates::Locomotion
        HSM_1_TestHsm:   Entry   : struct MyStates::Stand
        HSM_2_TestHsm:   Pop     : struct MyStates::Stand
        HSM_2_TestHsm:  Pop     : struct MyStates::Locomotion
        HSM_2_TestHsm: Pop     : struct MyStates::Alive
        HSM_1_TestHsm: Sibling : struct MyStates::Dead
        """
    )


def test_inner_transition(run_example: RunExample) -> None:
    assert run_example("inner_transition") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct MyStates::Alive
        HSM_1_TestHsm:  Entry   : struct MyStates::Locomotion
        HSM_1_TestHsm:   Inner   : struct MyStates::Stand
        Set Move = true
        HSM_1_TestHsm:   Inner   : struct MyStates::Move
        Set Move = false
        HSM_1_TestHsm:   Inner   : struct MyStates::Stand
        """
    )


def test_revisit_update_states(run_example: RunExample) -> None:
    # The book prints its C++ hook name (A::Update); the sample prints the Python hook, update.
    assert run_example("revisit_update_states") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct MyStates::A
        HSM_1_TestHsm:  Entry   : struct MyStates::B
        HSM_1_TestHsm:   Entry   : struct MyStates::C
        HSM_1_TestHsm:    Entry   : struct MyStates::D
        A::update
        B::update
        C::update
        D::update
        """
    )
