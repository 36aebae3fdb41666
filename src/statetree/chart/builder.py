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

Patterns are built the same way: :func:`pattern` takes a state (named as the pattern) and
its parameters, :func:`ref` stands for a parameter's value inside it, and :func:`use` is a
state that uses it:

.. code-block:: python

    step = b.pattern(
        b.state("Step", b.state("Pre", enter=[b.start_timer("Pre", b.ref("delay"))])),
        params=[Param("delay", float, 0.5)],
    )
    root = b.state("Root", b.use("Step", "Slow", {"delay": 2.0}))
    chart = b.chart("Steps", root, patterns=[step])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from statetree.chart.dump import state_data, to_data
from statetree.chart.loading import from_data
from statetree.chart.model import (
    DEFAULT_POLICY,
    ActionDef,
    AllOf,
    AnyOf,
    Chart,
    Condition,
    NotOf,
    ParamValue,
    PatternDef,
    Policy,
    StateDef,
    TransitionDef,
    TriggerDef,
    UseDef,
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
    Param,
    Registry,
)
from statetree.chart.validation import validate

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
    "pattern",
    "raise_event",
    "ref",
    "start_timer",
    "state",
    "timer",
    "trigger",
    "use",
]

Conditions: TypeAlias = "Condition | Sequence[Condition]"


def chart(
    name: str,
    root: StateDef,
    *,
    registry: Registry = DEFAULT_REGISTRY,
    patterns: Sequence[PatternDef] = (),
    imports: Sequence[str] = (),
) -> Chart:
    """A validated chart, its uses of ``patterns`` (and of the patterns of the chart files
    it ``imports``, relative to the current folder) expanded as when a file is loaded.

    Raises:
        ChartError: the chart is invalid (problems name state paths).
    """
    drafted = Chart(name, root, registry=registry, patterns=tuple(patterns), imports=tuple(imports))
    if not patterns and not imports and all(s.use is None for _, s, _ in drafted.walk()):
        return validate(drafted, registry)
    # Patterns are templates over the chart format: built ones are written as data and
    # loaded, so that they follow exactly the rules of a file.
    return from_data(to_data(drafted), registry)


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
    chosen = Policy(policy) if policy is not None else (DEFAULT_POLICY if states else None)
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


def pattern(state: StateDef, params: Sequence[Param] = ()) -> PatternDef:
    """A pattern: ``state`` (its name is the pattern's; each use names its own state) with
    ``params``. Where a parameter's value goes in it, write :func:`ref` of the parameter.
    """
    body = state_data(state)
    del body["name"]
    return PatternDef(state.name, tuple(params), body)


def ref(param: str) -> Any:
    """The value of the parameter ``param`` inside a pattern (``$param`` in files)."""
    return f"${param}"


def use(
    pattern: str,
    name: str | None = None,
    arguments: Mapping[str, ParamValue] | None = None,
    *,
    pre: Conditions = (),
    post: Conditions = (),
    transitions: Sequence[TransitionDef] = (),
) -> StateDef:
    """A state that is a use of ``pattern`` (named as the pattern unless ``name`` is
    given), with ``arguments`` for its parameters; ``pre``, ``post`` and ``transitions``
    given here replace the pattern's."""
    before, after, moves = _many(pre), _many(post), tuple(transitions)
    placement = (("pre", before), ("post", after), ("transitions", moves))
    given = tuple(key for key, value in placement if value)
    written = tuple((arguments or {}).items())
    used = UseDef(pattern, written, given)
    return StateDef(name or pattern, pre=before, post=after, transitions=moves, use=used)


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
