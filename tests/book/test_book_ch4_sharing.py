"""Chapter 4 of the HSM book: sharing functions, states and whole machines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from book_support import book_lines, load_example

RunExample = Callable[[str], list[str]]

# The book: "Effectively, in this case, the inheritance order is: ..."
BOOK_INHERITANCE_ORDER = "JumpAndMove : JumpBaseState : MoveBaseState : BaseState : hsm::State"


def test_sharing_functions_across_states(run_example: RunExample) -> None:
    # The book gives only fragments of this sample and no output; the sample's machine uses
    # every shared function, then prints the inputs JumpAndMove cleared and its base classes.
    *lines, inheritance = run_example("sharing_functions_across_states")
    assert lines == book_lines(
        """
        HSM_1_TestHsm: Init    : struct CharacterStates::Alive
        HSM_1_TestHsm:  Entry   : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Move
        HSM_1_TestHsm:  Sibling : struct CharacterStates::JumpAndMove
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand
        >>> Inputs after the jump: jump=False, move=False
        """
    )
    # Python's method resolution order is the chain the book builds with C++ templates
    # (its states as qualified names, hsm::State as statetree's State).
    qualnames = [
        "State" if name == "hsm::State" else f"CharacterStates.{name}"
        for name in BOOK_INHERITANCE_ORDER.split(" : ")
    ]
    assert inheritance == ">>> " + " : ".join(qualnames)


def test_reusable_states(run_example: RunExample) -> None:
    assert run_example("reusable_states") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct CharacterStates::Alive
        HSM_1_TestHsm:  Entry   : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Attack
        HSM_1_TestHsm:   Entry   : struct CharacterStates::PlayAnim
        >>> PlayAnim: Attack_1, looping: false
        HSM_1_TestHsm:   Sibling : struct CharacterStates::PlayAnim
        >>> PlayAnim: Attack_2, looping: false
        HSM_1_TestHsm:   Sibling : struct CharacterStates::PlayAnim
        >>> PlayAnim: Attack_3, looping: false
        HSM_1_TestHsm:   Sibling : struct CharacterStates::PlayAnim_Done
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand
        """
    )


@pytest.mark.parametrize("name", ["shared_states_unrelated_owners", "shared_states_related_owners"])
def test_shared_states(name: str, run_example: RunExample) -> None:
    # The book shows no output for these samples. Its C++ would name the shared states
    # SharedStates::PlayAnim<struct HeroStates::BaseState> (a template per machine) in the
    # first one; in Python both machines push the one class SharedStates.PlayAnim.
    assert run_example(name) == book_lines(
        """
        HSM_1_TestHsm: Init    : struct HeroStates::Alive
        HSM_1_TestHsm:  Entry   : struct HeroStates::Stand
        HSM_1_TestHsm:  Sibling : struct HeroStates::Attack
        HSM_1_TestHsm:   Entry   : struct SharedStates::PlayAnim
        >>> PlayAnim: Attack_1, looping: false
        HSM_1_TestHsm:   Sibling : struct SharedStates::PlayAnim_Done
        HSM_1_TestHsm:  Sibling : struct HeroStates::Stand
        HSM_1_TestHsm: Init    : struct EnemyStates::Alive
        HSM_1_TestHsm:  Entry   : struct EnemyStates::Stand
        HSM_1_TestHsm:  Sibling : struct EnemyStates::Attack
        HSM_1_TestHsm:   Entry   : struct SharedStates::PlayAnim
        >>> PlayAnim: Attack_1, looping: false
        HSM_1_TestHsm:   Sibling : struct SharedStates::PlayAnim_Done
        HSM_1_TestHsm:  Sibling : struct EnemyStates::Stand
        """
    )


def test_unrelated_owners_share_no_base_class() -> None:
    example: Any = load_example("shared_states_unrelated_owners")
    assert example.Hero.__mro__ == (example.Hero, object)
    assert example.Enemy.__mro__ == (example.Enemy, object)


def test_state_overrides(run_example: RunExample) -> None:
    assert run_example("state_overrides") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct CharacterStates::Alive
        HSM_1_TestHsm:  Entry   : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct HeroStates::Attack
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct HeroStates::Jump
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand

        HSM_1_TestHsm: Init    : struct CharacterStates::Alive
        HSM_1_TestHsm:  Entry   : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct EnemyStates::Attack
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Jump
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand
        """
    )


def test_removed_state_override_restores_the_shared_state(
    capsys: pytest.CaptureFixture[str],
) -> None:
    example: Any = load_example("state_overrides")
    hero = example.Hero()
    hero.machine.remove_state_override(example.CharacterStates.Jump)
    example.play(hero)
    assert capsys.readouterr().out.splitlines() == book_lines(
        """
        HSM_1_TestHsm: Init    : struct CharacterStates::Alive
        HSM_1_TestHsm:  Entry   : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct HeroStates::Attack
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Jump
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand
        """
    )
