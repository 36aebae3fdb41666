"""Bitmask machines that can be saved, with random rules: every state's behaviour is the
class ``Journaled``, at the top level of this module so that pickle finds it by name."""

from __future__ import annotations

from typing import Any

from statetree.bitmask import BitCause, BitmaskDefinition, BitmaskMachine, BitState

Request = tuple[str, bool]
"""A request: a state's name, and whether to activate it (else deactivate it)."""


class Journaled(BitState["Owner"]):
    """Every state's behaviour: it counts its activations and journals its hooks."""

    def __init__(self) -> None:
        self.count = 0

    def on_activated(self, cause: BitCause) -> None:
        self.count += 1
        self.owner.journal.append(f"+{self.name}{self.count} {cause.name}")

    def on_deactivated(self, cause: BitCause) -> None:
        self.owner.journal.append(f"-{self.name} {cause.name}")


class Owner:
    """The owner of a machine of random rules, journaling its requests and hooks."""

    def __init__(self, data: list[dict[str, Any]]) -> None:
        behaviours = dict.fromkeys((entry["name"] for entry in data), Journaled)
        definition = BitmaskDefinition.from_data(data, behaviours=behaviours)
        self.journal: list[str] = []
        self.machine = BitmaskMachine(definition, self, history_size=8)

    def play(self, request: Request) -> None:
        state, activate = request
        machine = self.machine
        done = machine.try_activate(state) if activate else machine.deactivate(state)
        self.journal.append(f"{state} {activate} {done}")

    def outcome(self) -> tuple[Any, ...]:
        """The journal, the mask, the history and each state's count of activations."""
        machine = self.machine
        counts = [state.count for state in machine.states]  # type: ignore[attr-defined]
        return self.journal, machine.mask, machine.history, counts
