"""Debugging views: why a state does not activate, the state table, the change log."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from statetree.bitmask import (
    BitmaskDefinition,
    BitmaskMachine,
    BitState,
    Explanation,
    explain,
    format_history,
    format_states,
)


class Cooldown(BitState[dict]):
    def can_activate(self) -> bool:
        return bool(self.owner["ready"])


RULES = BitmaskDefinition.from_data(
    {
        "Alive": {},
        "Aiming": {"requires": ["Alive"], "blocked_by": ["Talking"], "predictable": True},
        "Shooting": {"requires": ["Aiming"], "blocked_by": ["Talking"]},
        "Punch": {
            "requires": ["Alive"],
            "terminates": ["Aiming"],
            "blocked_by": ["Talking"],
            "retriggerable": True,
        },
        "Talking": {"requires": ["Alive"]},
    },
    behaviours={"Shooting": Cooldown, "Punch": Cooldown},
    name="Player",
)


def make(*states: str, ready: bool = True) -> BitmaskMachine[dict]:
    machine = BitmaskMachine(RULES, {"ready": ready})
    for state in states:
        assert machine.try_activate(state)
    return machine


def test_every_reason_is_reported_as_data_and_words() -> None:
    machine = make("Alive", "Talking", ready=False)
    result = machine.explain("Shooting")
    assert result == Explanation(
        state="Shooting",
        can_activate=False,
        active=False,
        retriggerable=False,
        missing=("Aiming",),
        blockers=("Talking",),
        check_failed=True,
        would_deactivate=(),
    )
    assert str(result) == (
        "Shooting cannot activate: it requires Aiming, not active; it is blocked by Talking, "
        "active; its custom check Shooting.can_activate() returned False."
    )
    with pytest.raises(FrozenInstanceError):
        result.state = "Punch"  # type: ignore[misc]


def test_missing_lists_indirect_requirements() -> None:
    assert make().explain("Shooting").missing == ("Alive", "Aiming")


def test_already_active_and_not_retriggerable() -> None:
    result = make("Alive").explain("Alive")
    assert result.reasons == ("it is already active and not retriggerable",)
    assert str(result) == "Alive cannot activate: it is already active and not retriggerable."


def test_a_possible_activation_lists_what_it_would_deactivate() -> None:
    machine = make("Alive", "Aiming", "Shooting")
    assert str(machine.explain("Talking")) == "Talking can activate."
    machine.deactivate("Shooting")
    result = explain(machine, "Punch")
    assert result.can_activate
    assert result.would_deactivate == ("Aiming",)
    assert str(result) == "Punch can activate, deactivating Aiming."
    machine.try_activate("Punch")
    assert str(machine.explain("Punch")) == "Punch would restart, deactivating Punch."


def test_explain_agrees_with_try_activate() -> None:
    machine = make("Alive")
    for state in RULES.names:
        expected = machine.explain(state).can_activate
        assert make("Alive").try_activate(state) is expected


def test_state_table() -> None:
    machine = make("Alive", "Aiming")
    machine.name = "Hero"
    assert format_states(machine) == machine.describe()
    assert machine.describe() == "\n".join(
        [
            "Hero: 2 of 5 active (mask 0b00011)",
            "  0 [x] Alive",
            "  1 [x] Aiming  (predictable)",
            "  2 [ ] Shooting  (custom check)",
            "  3 [ ] Punch  (retriggerable, custom check)",
            "  4 [ ] Talking",
        ]
    )


def test_change_log() -> None:
    machine = make("Alive", "Aiming", "Shooting")
    machine.deactivate("Shooting")
    machine.try_activate("Punch")
    machine.deactivate("Alive")
    assert format_history(machine) == "\n".join(
        [
            "#1 +Alive (requested)",
            "#2 +Aiming (requested)",
            "#3 +Shooting (requested)",
            "#4 -Shooting (requested)",
            "#5 -Aiming (terminated by Punch)",
            "#6 +Punch (requested)",
            "#7 -Punch (lost requirement Alive)",
            "#8 -Alive (requested)",
        ]
    )
