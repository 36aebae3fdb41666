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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeAlias, TypeVar

from statetree.chart.document import Document
from statetree.chart.dump import state_data, to_data
from statetree.chart.errors import ChartError, Problem
from statetree.chart.loading import from_data
from statetree.chart.model import (
    DEFAULT_POLICY,
    NAME_PATTERN,
    NAME_RULE,
    ActionDef,
    AllOf,
    AnyOf,
    Chart,
    Condition,
    NotOf,
    ParamValue,
    PatternDef,
    StateDef,
    TransitionDef,
    TriggerDef,
    UseDef,
    childless_policy,
)
from statetree.chart.policy import DEFINITIONS, policy_names
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
from statetree.chart.template import is_reference
from statetree.chart.text import MAX_DEPTH, check_strings
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
T = TypeVar("T")
_CONDITIONS = (TriggerDef, AllOf, AnyOf, NotOf)


# What the loader checks of a file's shape, checked here as each piece is built: a chart
# built in Python follows the rules of a file, and a mistake is named where it is made.


def _refused(message: str) -> ChartError:
    return ChartError([Problem(message)])


def _name(value: object, role: str) -> str:
    """``value``, a name (or a pattern parameter's :func:`ref`)."""
    if not isinstance(value, str) or not (NAME_PATTERN.match(value) or is_reference(value)):
        raise _refused(f"{role}: {NAME_RULE}, got {value!r}")
    return value


def _all(values: Iterable[object], kind: type[T] | tuple[type, ...], role: str) -> tuple[T, ...]:
    """``values`` as a tuple, each of ``kind``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise _refused(f"{role} must be a list, got {values!r}")
    found = tuple(values)
    for value in found:
        if not isinstance(value, kind):
            raise _refused(f"{role} must hold {_what(kind)}, got {value!r}")
    return found  # type: ignore[return-value]  # each checked above


def _what(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


def _condition(value: object, role: str) -> Condition:
    if not isinstance(value, _CONDITIONS):
        raise _refused(f"{role} must be a condition (b.input(...), b.all_of(...)), got {value!r}")
    return value


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
    _name(name, "a chart's name")
    if not isinstance(root, StateDef):
        raise _refused(f"a chart's root must be a state (b.state(...)), got {root!r}")
    drafted = Chart(name, root, registry=registry, patterns=tuple(patterns), imports=tuple(imports))
    # A built chart must load back from its file, whose lists and mappings the loaders
    # refuse past MAX_DEPTH (the check of the states first: writing them out recurses),
    # and whose strings hold no control character.
    if _state_depth(root) > MAX_DEPTH or _nesting(data := to_data(drafted)) > MAX_DEPTH:
        raise _refused(
            f"the chart's states nest too deeply for a chart file: its lists and mappings "
            f"would nest more than {MAX_DEPTH} levels deep (a chart 30 states deep fits)"
        )
    check_strings(Document(data, "<built chart>"))
    if not patterns and not imports and all(s.use is None for _, s, _ in drafted.walk()):
        return validate(drafted, registry)
    # Patterns are templates over the chart format: built ones are written as data and
    # loaded, so that they follow exactly the rules of a file.
    return from_data(to_data(drafted), registry)


def _state_depth(root: StateDef) -> int:
    """How many states deep ``root`` nests (1 for a leaf)."""
    deepest, level = 0, [root]
    while level:
        deepest += 1
        level = [child for state in level for child in state.states]
    return deepest


def _nesting(data: object) -> int:
    """How deeply the lists and mappings of ``data`` nest, as the loaders count them."""
    deepest, level = 0, [data]
    while level:
        containers = [v for v in level if isinstance(v, (list, tuple, Mapping))]
        if not containers:
            break
        deepest += 1
        level = [
            item
            for container in containers
            for item in (container.values() if isinstance(container, Mapping) else container)
        ]
    return deepest


def _many(conditions: Conditions, role: str) -> tuple[Condition, ...]:
    if isinstance(conditions, _CONDITIONS):
        return (conditions,)
    return _all(conditions, _CONDITIONS, role)


def state(
    name: str,
    *states: StateDef,
    policy: str | None = None,
    pre: Conditions = (),
    post: Conditions = (),
    enter: Sequence[ActionDef] = (),
    exit: Sequence[ActionDef] = (),
    transitions: Sequence[TransitionDef] = (),
) -> StateDef:
    """A state; with children and no policy, an explicit one.

    Raises:
        ChartError: an argument is not what a chart file could hold there.
    """
    role = f"state {name!r}"
    _name(name, "a state's name")
    children = _all(states, StateDef, f"the states of {role}")
    chosen = _policy(policy, role) if policy is not None else (DEFAULT_POLICY if states else None)
    if chosen is not None and not states:
        raise _refused(childless_policy(name, chosen))
    return StateDef(
        name,
        chosen,
        children,
        _many(pre, f"the pre of {role}"),
        _many(post, f"the post of {role}"),
        _all(enter, ActionDef, f"the enter of {role}"),
        _all(exit, ActionDef, f"the exit of {role}"),
        _all(transitions, TransitionDef, f"the transitions of {role}"),
    )


def _policy(policy: object, role: str) -> str:
    if not isinstance(policy, str) or policy not in DEFINITIONS:
        raise _refused(f"the policy of {role} is one of {policy_names()}, got {policy!r}")
    return policy


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
    role = f"the use of {pattern!r}"
    _name(pattern, role)
    if name is not None:
        _name(name, f"the name of {role}")
    before, after = _many(pre, f"the pre of {role}"), _many(post, f"the post of {role}")
    moves = _all(transitions, TransitionDef, f"the transitions of {role}")
    placement = (("pre", before), ("post", after), ("transitions", moves))
    given = tuple(key for key, value in placement if value)
    written = tuple((arguments or {}).items())
    used = UseDef(pattern, written, given)
    return StateDef(name or pattern, pre=before, post=after, transitions=moves, use=used)


def on(condition: Condition, to: str) -> TransitionDef:
    """An explicit transition to the sibling ``to`` when ``condition`` holds."""
    return TransitionDef(_condition(condition, "a transition's condition"), _name(to, "'to'"))


def trigger(kind: str, name: str) -> TriggerDef:
    """A trigger of any type, registered ones included."""
    _name(kind, "a trigger's type")
    return TriggerDef(kind, _name(name, f"the name of a {kind!r} trigger"))


def input(name: str) -> TriggerDef:
    """The input ``name`` was pressed."""
    return trigger(INPUT, name)


def anim_finished(name: str) -> TriggerDef:
    """The animation ``name`` finished."""
    return trigger(ANIM_FINISHED, name)


def timer(name: str) -> TriggerDef:
    """The timer ``name`` expired."""
    return trigger(TIMER, name)


def event(name: str) -> TriggerDef:
    """The named event ``name`` was sent or raised."""
    return trigger(EVENT, name)


def held(name: str) -> TriggerDef:
    """The input ``name`` is held (a level)."""
    return trigger(HELD, name)


def all_of(*conditions: Condition) -> AllOf:
    """Every condition holds."""
    return AllOf(_combined(conditions, "all_of"))


def any_of(*conditions: Condition) -> AnyOf:
    """At least one condition holds."""
    return AnyOf(_combined(conditions, "any_of"))


def _combined(conditions: tuple[object, ...], role: str) -> tuple[Condition, ...]:
    if not conditions:
        raise _refused(f"{role}() needs at least one condition")
    return tuple(_condition(each, f"each condition of {role}()") for each in conditions)


def not_(condition: Condition) -> NotOf:
    """The condition does not hold."""
    return NotOf(_condition(condition, "not_()'s condition"))


def action(kind: str, /, **params: ParamValue) -> ActionDef:
    """An action of type ``kind`` with its parameters."""
    return ActionDef(_name(kind, "an action's type"), tuple(params.items()))


def start_timer(name: str, delay: float) -> ActionDef:
    """Start the timer ``name``, owned by the state, expiring after ``delay``."""
    return action(START_TIMER, name=name, delay=delay)


def raise_event(name: str) -> ActionDef:
    """Raise the named event ``name`` into the current processing."""
    return action(RAISE, name=name)


def clear_history() -> ActionDef:
    """Make the state restart at its first child next time."""
    return action(CLEAR_HISTORY)
