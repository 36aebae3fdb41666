"""Chapter 4 of the HSM book: state arguments, and data stored on a cluster root state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from book_support import book_lines, load_example

import statetree as st

RunExample = Callable[[str], list[str]]


def test_state_args(run_example: RunExample) -> None:
    assert run_example("state_args") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct CharacterStates::Alive
        HSM_1_TestHsm:  Entry   : struct CharacterStates::Stand
        HSM_1_TestHsm:   Entry   : struct CharacterStates::PlayAnim
        >>> PlayAnim: Anim_Stand, looping: true
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Move
        HSM_1_TestHsm:   Entry   : struct CharacterStates::PlayAnim
        >>> PlayAnim: Anim_Move, looping: true
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Jump
        HSM_1_TestHsm:   Entry   : struct CharacterStates::PlayAnim
        >>> PlayAnim: Anim_Jump, looping: false
        HSM_1_TestHsm:   Sibling : struct CharacterStates::PlayAnim_Done
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Move
        HSM_1_TestHsm:   Entry   : struct CharacterStates::PlayAnim
        >>> PlayAnim: Anim_Move, looping: true
        """
    )


@pytest.mark.parametrize(
    "name",
    ["cluster_root_state_data_1", "cluster_root_state_data_2", "cluster_root_state_data_3"],
)
def test_cluster_root_state_data(name: str, run_example: RunExample) -> None:
    # The book shows no output for these three versions of one machine, and the program
    # prints only its trace. The two ">>>" lines are prints the samples add to show the data
    # shared through the root: Jump_Down finds Jump_Up's values although Jump_Up has exited,
    # and Jump holds Jump_Down's values when the cluster exits. All three versions agree.
    assert run_example(name) == book_lines(
        """
        HSM_1_TestHsm: Init    : struct CharacterStates::Alive
        HSM_1_TestHsm:  Entry   : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Jump
        HSM_1_TestHsm:   Entry   : struct CharacterStates::Jump_Up
        HSM_1_TestHsm:   Sibling : struct CharacterStates::Jump_Down
        >>> Jump_Down finds 1, 2.0, True
        HSM_1_TestHsm:   Sibling : struct CharacterStates::Jump_Done
        >>> Jump exits with 2, 4.0, False
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Stand
        """
    )


def test_cluster_base_state_refuses_to_run_outside_its_cluster() -> None:
    example: Any = load_example("cluster_root_state_data_3")
    machine = st.StateMachine(example.CharacterStates.Jump_Up, owner=example.Character())
    with pytest.raises(LookupError, match=r"Jump_Up must be an inner state of .*\.Jump$"):
        machine.process_state_transitions()
    assert machine.stack == ()
