"""Checking a bitmask definition beyond what building it checks: states that can never be on.

Building a :class:`~statetree.bitmask.BitmaskDefinition` already refuses unknown names,
requirement cycles and a state requiring what it terminates or is blocked by. What it
allows, and what is still a mistake, is a state whose requirements exclude each other
(``Shooting`` requires ``Aiming`` and ``Sprinting``, and ``Sprinting`` terminates
``Aiming``): no sequence of requests can ever activate it.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator

from statetree.bitmask import BitmaskDefinition, BitState
from statetree.structure import Issue, Location, Severity

__all__ = ["NEVER_ACTIVE", "rule_count", "rule_issues"]

NEVER_ACTIVE = "never-active"
"""The code of the warning about a state no sequence of requests can activate."""


def rule_count(definition: BitmaskDefinition) -> int:
    """How many rules (requires, terminates, blocked-by entries) the definition declares."""
    return sum(
        len(rule.requires) + len(rule.terminates) + len(rule.blocked_by)
        for rule in definition.rules
    )


def _location(behaviour: type[BitState[object]]) -> Location | None:
    """Where a state's class is defined, when it was declared as one."""
    if behaviour is BitState:
        return None
    try:
        file = inspect.getsourcefile(behaviour)
        line = inspect.getsourcelines(behaviour)[1]
    except (OSError, TypeError):
        return None
    return Location(file, line) if file else None


def _excluding(definition: BitmaskDefinition, index: int) -> tuple[str, str]:
    """Two states among ``index`` and its requirements that exclude each other."""
    needed = definition.requires_all[index] | definition.bits[index]
    for first in range(definition.size):
        clash = definition.exclusive[first] & needed
        if needed >> first & 1 and clash:
            second = (clash & -clash).bit_length() - 1
            return definition.names[first], definition.names[second]
    raise AssertionError("only called for states that exclude themselves")


def rule_issues(definition: BitmaskDefinition) -> Iterator[Issue]:
    """Warnings about the states of ``definition`` that can never be active."""
    for index, name in enumerate(definition.names):
        if not definition.exclusive[index] >> index & 1:
            continue
        first, second = _excluding(definition, index)
        why = (
            "it excludes itself" if first == second else f"{first} and {second} exclude each other"
        )
        message = (
            f"{name} can never be active: it needs {', '.join(_needs(definition, index))} "
            f"active together, and {why} (terminates or blocked_by)"
        )
        location = _location(definition.rules[index].behaviour)
        yield Issue(Severity.WARNING, NEVER_ACTIVE, name, message, location)


def _needs(definition: BitmaskDefinition, index: int) -> list[str]:
    return list(definition.names_in(definition.requires_all[index] | definition.bits[index]))
