"""Chapter 5 of the HSM book, "Best Practices": clean up in the cluster root state."""

from __future__ import annotations

from collections.abc import Callable

from book_support import book_lines

RunExample = Callable[[str], list[str]]


def test_cluster_root_clean_up(run_example: RunExample) -> None:
    # The book shows no output, and its main only climbs on the ladder. The sample's main
    # then gets the character hurt on the ladder, and prints each attach and detach (stubs
    # in the book) and whether the character is attached after each update. Ladder's
    # on_exit detaches as Alive siblings to Hurt, though Ladder_GetOff was never reached.
    assert run_example("cluster_root_clean_up") == book_lines(
        """
        HSM_1_TestHsm: Init    : struct CharacterStates::Alive
        HSM_1_TestHsm:  Entry   : struct CharacterStates::Stand
        HSM_1_TestHsm:  Sibling : struct CharacterStates::Ladder
        HSM_1_TestHsm:   Entry   : struct CharacterStates::Ladder_GetOn
        >>> Attach to ladder
        HSM_1_TestHsm:   Sibling : struct CharacterStates::Ladder_OnLadder
        >>> Attached: True
        >>> Detach from ladder
        HSM_1_TestHsm: Sibling : struct CharacterStates::Hurt
        >>> Attached: False
        """
    )
