"""Checks that every contender did the same work; a benchmark of different work is void."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from corebench.api import Contender
from corebench.script import Counters

__all__ = [
    "SETTLED",
    "DisagreementError",
    "Outcome",
    "check_counts",
    "check_script",
    "check_switches",
    "scaled",
    "script_outcome",
]

SETTLED = ("Alive", "Locomotion", "Stand")
"""Where every character starts, and where the script brings it back."""

Totals = dict[str, tuple[int, int]]


class DisagreementError(RuntimeError):
    """A contender's counters or states differ from the baseline's."""


@dataclass(frozen=True)
class Outcome:
    """What running the script did: counters (entered, exited) and the final states."""

    totals: Totals
    active: tuple[str, ...]


def script_outcome(contender: Contender, cycles: int) -> Outcome:
    """Build a character, run the script ``cycles`` times, and collect the outcome.

    Counting starts once the character has settled: transitions does not run the entry
    callbacks of its initial states, the others do.
    """
    counters = Counters()
    character = contender.make_character(counters)
    counters.reset()
    character.play(cycles)
    return Outcome(counters.totals(), character.active())


def check_script(contenders: Sequence[Contender], cycles: int = 3) -> Totals:
    """Check that every contender's script outcome equals the first contender's.

    Returns:
        The counters of one cycle of the script (the script ends where it starts, so
        ``n`` cycles count ``n`` times as much).

    Raises:
        DisagreementError: naming the contender and what differs.
    """
    reference = contenders[0]
    expected = script_outcome(reference, cycles)
    if expected.active != SETTLED:
        raise DisagreementError(f"{reference.name} ends the script in {expected.active}")
    for contender in contenders[1:]:
        outcome = script_outcome(contender, cycles)
        check_counts(contender.name, outcome.totals, expected.totals)
        if outcome.active != expected.active:
            raise DisagreementError(
                f"{contender.name} ends the script in {outcome.active}, "
                f"{reference.name} in {expected.active}"
            )
    return script_outcome(reference, 1).totals


def check_counts(name: str, totals: Totals, expected: Totals) -> None:
    """Raise :class:`DisagreementError` listing every state whose counts differ."""
    wrong = [
        f"{state}: (entered, exited) = {totals.get(state)}, expected {counts}"
        for state, counts in expected.items()
        if totals.get(state) != counts
    ]
    if wrong:
        raise DisagreementError(f"{name} counted differently: " + "; ".join(wrong))


def scaled(totals: Totals, factor: int) -> Totals:
    """Every count multiplied by ``factor``."""
    return {name: (entered * factor, exited * factor) for name, (entered, exited) in totals.items()}


def check_switches(contenders: Sequence[Contender]) -> None:
    """Check that every switch is on after one toggle and off after two.

    Raises:
        DisagreementError: naming the contender.
    """
    for contender in contenders:
        switch = contender.make_switch()
        states = [switch.is_on()]
        switch.play(1)
        states.append(switch.is_on())
        switch.play(1)
        states.append(switch.is_on())
        if states != [False, True, False]:
            raise DisagreementError(
                f"{contender.name}'s switch is on/off {states} at start, after one toggle "
                "and after two; expected [False, True, False]"
            )
