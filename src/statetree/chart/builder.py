"""Building charts in Python: small functions that read like the chart format.

.. code-block:: python

    from statetree.chart import builder as b

    chart = b.chart(
        "Basic",
        b.state(
            "Character",
            b.state(
                "BasicAttack",
                pre=b.input("BasicAttackButton"),
                post=b.anim_finished("BasicAttack"),
                enter=[b.action("play_animation", name="BasicAttack", loop=False)],
            ),
            b.state("Idle", enter=[b.action("play_animation", name="Idle", loop=True)]),
            policy="priority",
        ),
        registry=GAME,
    )
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from statetree.chart.model import (
    ActionDef,
    AllOf,
    AnyOf,
    Chart,
    Condition,
    NotOf,
    ParamValue,
    Policy,
    StateDef,
    TransitionDef,
    TriggerDef,
)
from statetree.chart.registry import (
    ANIM_FINISHED,
    CLEAR_HISTORY,
    DEFAULT_REGISTRY,
    EVENT,
    HELD,
    INPUT,
    RAISE,
    START_TIMER,
    TIMER,
    Registry,
)
from statetree.chart.validate import validate

__all__ = [
    "action",
    "all_of",
    "anim_finished",
    "any_of",
    "chart",
    "clear_history",
    "event",
    "held",
    "input",
    "not_",
    "on",
    "raise_event",
    "start_timer",
    "state",
    "timer",
    "trigger",
]

Conditions: TypeAlias = "Condition | Sequence[Condition]"


def chart(name: str, root: StateDef, *, registry: Registry = DEFAULT_REGISTRY) -> Chart:
    """A validated chart.

    Raises:
        ChartError: the chart is invalid (problems name state paths).
    """
    return validate(Chart(name, root, registry=registry), registry)


def _many(conditions: Conditions) -> tuple[Condition, ...]:
    if isinstance(conditions, (TriggerDef, AllOf, AnyOf, NotOf)):
        return (conditions,)
    return tuple(conditions)


def state(
    name: str,
    *states: StateDef,
    policy: Policy | str | None = None,
    pre: Conditions = (),
    post: Conditions = (),
    enter: Sequence[ActionDef] = (),
    exit: Sequence[ActionDef] = (),
    transitions: Sequence[TransitionDef] = (),
) -> StateDef:
    """A state; with children and no policy, an explicit one."""
    chosen = Policy(policy) if policy is not None else (Policy.EXPLICIT if states else None)
    return StateDef(
        name,
        chosen,
        states,
        _many(pre),
        _many(post),
        tuple(enter),
        tuple(exit),
        tuple(transitions),
    )


def on(condition: Condition, to: str) -> TransitionDef:
    """An explicit transition to the sibling ``to`` when ``condition`` holds."""
    return TransitionDef(condition, to)


def trigger(kind: str, name: str) -> TriggerDef:
    """A trigger of any type, registered ones included."""
    return TriggerDef(kind, name)


def input(name: str) -> TriggerDef:
    """The input ``name`` was pressed."""
    return TriggerDef(INPUT, name)


def anim_finished(name: str) -> TriggerDef:
    """The animation ``name`` finished."""
    return TriggerDef(ANIM_FINISHED, name)


def timer(name: str) -> TriggerDef:
    """The timer ``name`` expired."""
    return TriggerDef(TIMER, name)


def event(name: str) -> TriggerDef:
    """The named event ``name`` was sent or raised."""
    return TriggerDef(EVENT, name)


def held(name: str) -> TriggerDef:
    """The input ``name`` is held (a level)."""
    return TriggerDef(HELD, name)


def all_of(*conditions: Condition) -> AllOf:
    """Every condition holds."""
    return AllOf(conditions)


def any_of(*conditions: Condition) -> AnyOf:
    """At least one condition holds."""
    return AnyOf(conditions)


def not_(condition: Condition) -> NotOf:
    """The condition does not hold."""
    return NotOf(condition)


def action(kind: str, /, **params: ParamValue) -> ActionDef:
    """An action of type ``kind`` with its parameters."""
    return ActionDef(kind, tuple(params.items()))


def start_timer(name: str, delay: float) -> ActionDef:
    """Start the timer ``name``, owned by the state, expiring after ``delay``."""
    return action(START_TIMER, name=name, delay=delay)


def raise_event(name: str) -> ActionDef:
    """Raise the named event ``name`` into the current processing."""
    return action(RAISE, name=name)


def clear_history() -> ActionDef:
    """Make the state restart at its first child next time."""
    return action(CLEAR_HISTORY)
