"""Chapter 4 of the HSM book, "StateValue": both versions print what the book shows."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from book_support import book_lines

RunExample = Callable[[str], list[str]]

# The book prints this output for state_value_without and again, "the same as before", for
# state_value_with. Its swimming speed, 30.000002, is 0.3 * 100 in 32-bit floats; Python
# computes in 64 bits and prints 30.000000.
SPEED_OUTPUT = """
    HSM_1_TestHsm: Init    : struct CharacterStates::Alive
    HSM_1_TestHsm:  Entry   : struct CharacterStates::OnGround
    HSM_1_TestHsm:   Entry   : struct CharacterStates::Stand
    Current speed: 0.000000
    HSM_1_TestHsm:   Sibling : struct CharacterStates::Move
    HSM_1_TestHsm:    Entry   : struct CharacterStates::Move_Walk
    Current speed: 100.000000
    HSM_1_TestHsm:    Sibling : struct CharacterStates::Move_Crawl
    Current speed: 50.000000
    HSM_1_TestHsm:  Sibling : struct CharacterStates::Swim
    Current speed: 30.000000
    HSM_1_TestHsm:  Sibling : struct CharacterStates::OnGround
    HSM_1_TestHsm:   Entry   : struct CharacterStates::Stand
    Current speed: 0.000000
"""


@pytest.mark.parametrize("name", ["state_value_without", "state_value_with"])
def test_speed_scale(name: str, run_example: RunExample) -> None:
    assert run_example(name) == book_lines(SPEED_OUTPUT)
