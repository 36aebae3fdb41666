"""Registries of trigger and action types: what a chart may use, with typed parameters.

A :class:`Registry` is given when a chart is loaded, so an unknown trigger or action type,
an unknown parameter or a parameter of the wrong type is a load error, never a silent no-op.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import TypeAlias, TypeVar

from statetree.errors import DefinitionError, UsageError

__all__ = [
    "ANIM_FINISHED",
    "BUILTIN_ACTIONS",
    "CLEAR_HISTORY",
    "DEFAULT_REGISTRY",
    "EVENT",
    "HELD",
    "INPUT",
    "PARAM_TYPES",
    "RAISE",
    "START_TIMER",
    "TIMER",
    "ActionType",
    "Param",
    "ParamValue",
    "Registry",
    "TriggerType",
    "require_registry",
    "signature",
]

ParamValue: TypeAlias = "str | int | float | bool"
"""The value of an action parameter."""

INPUT = "input"
ANIM_FINISHED = "anim_finished"
TIMER = "timer"
EVENT = "event"
HELD = "held"
START_TIMER = "start_timer"
CLEAR_HISTORY = "clear_history"
RAISE = "raise"

_TYPE_NAMES: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
PARAM_TYPES: Mapping[str, type] = MappingProxyType({v: k for k, v in _TYPE_NAMES.items()})
"""The type of a parameter by its name in charts: string, integer, number, boolean."""


@dataclass(frozen=True, slots=True)
class Param:
    """A declared action parameter.

    Attributes:
        name: the parameter's key.
        type: ``str``, ``int``, ``float`` (integers accepted; never NaN or infinite) or
            ``bool``.
        default: the value when the chart leaves it out; ``None`` makes it required.
        minimum: the smallest value a number may take (``None``: any).
        choices: the only values it may take, in the order messages list them (``None``:
            any value of its type), e.g. ``("hold", "wander", "chase")``.

    Raises:
        DefinitionError: the type is not one of the four, the default or a choice does
            not fit the type (or the minimum), the choices are empty or repeat a value, or
            the default is not one of them.
    """

    name: str
    type: type = str
    default: ParamValue | None = None
    minimum: float | None = None
    choices: tuple[ParamValue, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise DefinitionError(f"a parameter's name is a non-empty string, got {self.name!r}")
        if self.type not in _TYPE_NAMES:
            raise DefinitionError(
                f"parameter {self.name!r}: type must be str, int, float or bool, got {self.type!r}"
            )
        if self.default is not None:
            refusal = self._type_refusal(self.default)
            if refusal is not None:
                raise DefinitionError(f"parameter {self.name!r}: the default {refusal}")
        if self.minimum is not None and (
            self.type not in (int, float)
            or isinstance(self.minimum, bool)
            or not isinstance(self.minimum, (int, float))
            or not math.isfinite(self.minimum)
        ):
            article = "an" if self.type is int else "a"
            raise DefinitionError(
                f"parameter {self.name!r}: a minimum is a finite number, for an int or float "
                f"parameter only, got {self.minimum!r} for {article} {self.type_name}"
            )
        if self.choices is not None:
            if not isinstance(self.choices, (tuple, list)):
                raise DefinitionError(
                    f"parameter {self.name!r}: choices are a tuple of values, got {self.choices!r}"
                )
            object.__setattr__(self, "choices", tuple(self.choices))
            self._check_choices()

    def _check_choices(self) -> None:
        choices = self.choices or ()
        problem = "" if choices else "choices cannot be empty"
        for choice in choices:
            refusal = self._type_refusal(choice)
            if refusal is not None:
                problem = problem or f"choice {refusal}"
            elif choices.count(choice) > 1:
                problem = problem or f"choice {choice!r} is given twice"
        if not problem and self.default is not None and self.default not in choices:
            problem = f"the default {self.default!r} is not one of the choices"
        if problem:
            raise DefinitionError(f"parameter {self.name!r}: {problem}")

    @property
    def type_name(self) -> str:
        """The JSON name of the type: string, integer, number or boolean."""
        return _TYPE_NAMES[self.type]

    def accepts(self, value: object) -> bool:
        """Whether ``value`` fits this parameter (see :meth:`refusal`)."""
        return self.refusal(value) is None

    def refusal(self, value: object) -> str | None:
        """Why ``value`` does not fit this parameter (``None``: it does).

        ``bool`` is never a number here, and a number is never NaN or infinite.
        """
        refusal = self._type_refusal(value)
        if refusal is None and self.choices is not None and value not in self.choices:
            listed = ", ".join(map(repr, self.choices))
            refusal = f"must be one of {listed}, got {value!r}"
        return refusal

    def _type_refusal(self, value: object) -> str | None:
        """Why ``value`` does not fit this parameter's type and minimum (``None``: it does)."""
        if isinstance(value, bool) or self.type is bool:
            fits = isinstance(value, bool) and self.type is bool
        else:
            fits = isinstance(value, (int, float) if self.type is float else self.type)
        if not fits:
            article = "an" if self.type is int else "a"  # string, integer, number, boolean
            return f"must be {article} {self.type_name}, got {value!r}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"must be a finite number, got {value!r}"
        if self.type is float and isinstance(value, int) and not -_LARGEST <= value <= _LARGEST:
            return "must be a finite number, got an integer too large for one"
        if self.minimum is not None and isinstance(value, (int, float)) and value < self.minimum:
            return f"must be at least {self.minimum:g}, got {value!r}"
        return None

    def convert(self, value: ParamValue) -> ParamValue:
        """``value`` as this parameter's type (an integer given for a number becomes float)."""
        return float(value) if self.type is float else value


_LARGEST = int(sys.float_info.max)
"""The largest integer a number parameter takes (a larger one is no float)."""


@dataclass(frozen=True, slots=True)
class ActionType:
    """An action a chart may use in ``enter`` or ``exit`` lists.

    Attributes:
        name: the key used in charts, e.g. ``play_animation``.
        params: the declared parameters, in order (the order of dumps and messages).
        builtin: performed by the chart runtime itself (timers, history, events); any
            other action goes to the handler the host registers for it.
        makes: the trigger type of the event a built-in action makes, named by its
            ``name`` parameter (``start_timer`` makes ``timer`` events, ``raise`` makes
            ``event`` ones), for the loader's and the tools' rules; ``None`` for the others.

    Raises:
        DefinitionError: ``makes`` is given for an action that is not built in (only the
            chart runtime's own actions make events).
    """

    name: str
    params: tuple[Param, ...] = ()
    builtin: bool = False
    makes: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise DefinitionError(f"an action type's name is a non-empty string, got {self.name!r}")
        params = self.params
        if not isinstance(params, (tuple, list)) or not all(isinstance(p, Param) for p in params):
            comma = " (a tuple of one needs its comma)" if isinstance(params, Param) else ""
            raise DefinitionError(
                f"action type {self.name!r}: params are a tuple of Param, such as "
                f"(Param('name'),), got {params!r}{comma}"
            )
        object.__setattr__(self, "params", tuple(params))
        if self.makes is not None and not self.builtin:
            raise DefinitionError(
                f"action type {self.signature} cannot make {self.makes} events: only the "
                "chart runtime's built-in actions make events (a handler sends them instead)"
            )

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, or ``None``."""
        for param in self.params:
            if param.name == name:
                return param
        return None

    @property
    def signature(self) -> str:
        """``name(a: string, b: number = 1.0, c: 'x' | 'y')`` for messages and docs."""
        return signature(self.name, self.params)


def signature(name: str, params: Iterable[Param]) -> str:
    """``name(a: string, b: number = 1.0, c: 'x' | 'y')``: an action type's or a pattern's
    parameters, for messages and docs."""
    return f"{name}({', '.join(map(_declared, params))})"


def _declared(param: Param) -> str:
    """``b: number = 1.0`` (``c: 'x' | 'y' = 'x'`` for a parameter with choices)."""
    kind = param.type_name if param.choices is None else " | ".join(map(repr, param.choices))
    return f"{param.name}: {kind}" + ("" if param.default is None else f" = {param.default!r}")


@dataclass(frozen=True, slots=True)
class TriggerType:
    """A kind of event that triggers respond to.

    Attributes:
        name: the key used in conditions and the kind of matching events.
        level: a level trigger is true while the host holds it on (``hold`` /
            ``release``), instead of being latched by one event.
    """

    name: str
    level: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise DefinitionError(f"a trigger type's name is a non-empty string, got {self.name!r}")
        if not isinstance(self.level, bool):
            raise DefinitionError(
                f"trigger type {self.name!r}: level is True or False, got {self.level!r}"
            )


BUILTIN_TRIGGERS = (
    TriggerType(INPUT),
    TriggerType(ANIM_FINISHED),
    TriggerType(TIMER),
    TriggerType(EVENT),
    TriggerType(HELD, level=True),
)

BUILTIN_ACTIONS = (
    ActionType(
        START_TIMER,
        (Param("name"), Param("delay", float, minimum=0.0)),
        builtin=True,
        makes=TIMER,
    ),
    ActionType(CLEAR_HISTORY, (), builtin=True),
    ActionType(RAISE, (Param("name"),), builtin=True, makes=EVENT),
)


NamedType = TypeVar("NamedType", TriggerType, ActionType)


def _by_name(items: Iterable[NamedType], what: str) -> dict[str, NamedType]:
    kind = TriggerType if what == "trigger" else ActionType
    found: dict[str, NamedType] = {}
    for item in items:
        if not isinstance(item, kind):
            raise DefinitionError(
                f"a registry's {what} types are {kind.__name__} objects, such as "
                f"{kind.__name__}({item!r}), got {item!r}"
            )
        if item.name in found:
            raise DefinitionError(f"the registry declares the {what} type {item.name!r} twice")
        found[item.name] = item
    return found


@dataclass(frozen=True, slots=True)
class Registry:
    """The trigger and action types a chart may use.

    Build one from the defaults: ``DEFAULT_REGISTRY.with_actions(ActionType(...))``.

    Raises:
        DefinitionError: an action type is declared built in that the chart runtime does
            not perform (only ``start_timer``, ``clear_history`` and ``raise`` are).
    """

    triggers: Mapping[str, TriggerType] = field(default_factory=dict)
    actions: Mapping[str, ActionType] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "triggers", MappingProxyType(dict(self.triggers)))
        object.__setattr__(self, "actions", MappingProxyType(dict(self.actions)))
        for action in self.actions.values():
            if action.builtin and action not in BUILTIN_ACTIONS:
                # Both engines perform only their own built-ins; anything else is the host's.
                known = ", ".join(builtin.signature for builtin in BUILTIN_ACTIONS)
                raise DefinitionError(
                    f"action type {action.signature} is declared built in, but only the chart "
                    f"runtime's own actions are: {known}. Declare it without builtin=True and "
                    "register a handler for it."
                )

    @classmethod
    def of(
        cls, triggers: Iterable[TriggerType] = (), actions: Iterable[ActionType] = ()
    ) -> Registry:
        """A registry of exactly these types.

        Raises:
            DefinitionError: a type is declared twice.
        """
        return cls(_by_name(triggers, "trigger"), _by_name(actions, "action"))

    def with_triggers(self, *types: TriggerType) -> Registry:
        """This registry plus ``types``.

        Raises:
            DefinitionError: a type is already declared.
        """
        return Registry.of((*self.triggers.values(), *types), self.actions.values())

    def with_actions(self, *types: ActionType) -> Registry:
        """This registry plus ``types``.

        Raises:
            DefinitionError: a type is already declared.
        """
        return Registry.of(self.triggers.values(), (*self.actions.values(), *types))

    def host_actions(self) -> tuple[ActionType, ...]:
        """The action types performed by host handlers (not built in)."""
        return tuple(action for action in self.actions.values() if not action.builtin)

    def __reduce__(self) -> tuple[object, ...]:
        """Saved as its types (see :mod:`statetree.chart.saving`)."""
        # Imported when first needed: saving needs the whole chart package.
        saving = import_module("statetree.chart.saving")
        return saving.reduce_registry(self)  # type: ignore[no-any-return]


DEFAULT_REGISTRY = Registry.of(BUILTIN_TRIGGERS, BUILTIN_ACTIONS)
"""The built-in triggers (input, anim_finished, timer, event, held) and actions
(start_timer, clear_history, raise)."""


def require_registry(registry: object) -> Registry:
    """``registry``, checked to be a :class:`Registry`.

    Raises:
        UsageError: it is something else.
    """
    if not isinstance(registry, Registry):
        raise UsageError(
            "a chart's registry is a Registry, such as DEFAULT_REGISTRY.with_actions(...), "
            f"got {registry!r}"
        )
    return registry
