"""Conditions in words, as structure edges and plots label them: ``input: Attack``,
``event: Died or not held: Block``."""

from __future__ import annotations

from statetree.chart.model import AllOf, AnyOf, Condition, NotOf

__all__ = ["describe_all", "describe_any", "describe_condition"]


def describe_condition(condition: Condition) -> str:
    """``condition`` in words: ``input: Attack``, ``event: Died or not held: Block``."""
    if isinstance(condition, NotOf):
        return f"not {_operand(condition.condition)}"
    if isinstance(condition, (AllOf, AnyOf)) and len(condition.conditions) == 1:
        return describe_condition(condition.conditions[0])
    if isinstance(condition, AllOf):
        return " and ".join(_operand(item) for item in condition.conditions)
    if isinstance(condition, AnyOf):
        return " or ".join(_operand(item) for item in condition.conditions)
    return f"{condition.type}: {condition.name}"


def _operand(condition: Condition) -> str:
    """A condition inside another one: bracketed when it combines several."""
    text = describe_condition(condition)
    several = isinstance(condition, (AllOf, AnyOf)) and len(condition.conditions) > 1
    return f"({text})" if several else text


def describe_all(conditions: tuple[Condition, ...]) -> str:
    """Pre-conditions in words: all must hold (empty when there are none)."""
    return describe_condition(AllOf(conditions)) if conditions else ""


def describe_any(conditions: tuple[Condition, ...]) -> str:
    """Post-conditions in words: any one suffices (empty when there are none)."""
    return describe_condition(AnyOf(conditions)) if conditions else ""
