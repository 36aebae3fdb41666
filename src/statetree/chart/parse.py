"""From a document's plain data to the chart model: the shape of the format.

This step checks what the JSON Schema of the format says (keys, types, the grammar of
conditions, actions and transitions) and builds the model. What the names mean (known
trigger and action types, targets, policies) is checked afterwards by
:mod:`statetree.chart.validation`. Every problem is collected with its path and line.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from typing import TypeVar

from statetree.chart.document import Document
from statetree.chart.errors import ChartError, Problem
from statetree.chart.model import (
    DEFAULT_POLICY,
    NAME_PATTERN,
    NAME_RULE,
    ActionDef,
    AllOf,
    AnyOf,
    Chart,
    Condition,
    DataPath,
    NotOf,
    Origin,
    ParamValue,
    StateDef,
    TransitionDef,
    TriggerDef,
    UseDef,
    childless_policy,
)
from statetree.chart.policy import DEFINITIONS
from statetree.chart.registry import DEFAULT_REGISTRY, EVENT, Registry
from statetree.chart.text import MAX_DEPTH

__all__ = [
    "FORMAT_VERSION",
    "NAME_PATTERN",
    "STATE_KEYS",
    "TOP_KEYS",
    "USE_KEYS",
    "ShapeReader",
    "kind_of",
    "parse_document",
]

FORMAT_VERSION = 1
TOP_KEYS = ("version", "name", "imports", "patterns", "root")
"""The keys of a chart document (``imports`` and ``patterns`` are read before the rest)."""
USE_KEYS = ("name", "use", "with", "pre", "post", "transitions")
"""The keys of a state written as a use of a pattern."""
STATE_KEYS = ("name", "policy", "states", "pre", "post", "enter", "exit", "transitions")
"""The keys of a state written out (``use`` and ``with`` make it a use instead)."""
_STATE_KEYS = (*STATE_KEYS, "use", "with")
_COMBINATORS = ("all", "any", "not")

Item = TypeVar("Item")


def kind_of(value: object) -> str:
    """What ``value`` is, in a message's words: ``a string``, ``a list``, ``null``..."""
    if isinstance(value, str) and not value:
        return "an empty string"
    if isinstance(value, (datetime.date, datetime.time)):  # TOML's dates and times
        return "a date or time"
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    names |= {list: "a list", dict: "a mapping", type(None): "null"}
    return names.get(type(value), type(value).__name__)


class ShapeReader:
    """Reads plain data, noting every problem at its place instead of stopping.

    Args:
        origin: locates the problems (see :meth:`~statetree.chart.Origin.problem`).
    """

    def __init__(self, origin: Origin) -> None:
        self.origin = origin
        self.problems: list[Problem] = []

    def problem(self, path: DataPath, message: str) -> None:
        self.problems.append(self.origin.problem(path, message))

    def too_deep(self, path: DataPath) -> bool:
        """Whether ``path`` is deeper than charts may nest (noted as a problem if so)."""
        if len(path) < MAX_DEPTH:
            return False
        self.problem(path, f"nested more than {MAX_DEPTH} levels deep")
        return True

    def mapping(self, value: object, path: DataPath, keys: tuple[str, ...]) -> dict[str, object]:
        """``value`` as a mapping with only ``keys`` (problems noted; ``{}`` if not one)."""
        if not isinstance(value, dict):
            self.problem(path, f"expected a mapping, got {kind_of(value)}")
            return {}
        for key in value:
            if key not in keys:
                self.problem((*path, key), f"unknown key {key!r}; expected {', '.join(keys)}")
        return value

    def name(self, value: object, path: DataPath) -> str | None:
        if not isinstance(value, str) or not NAME_PATTERN.match(value):
            shown = repr(value) if isinstance(value, str) else kind_of(value)
            self.problem(path, f"{NAME_RULE}, got {shown}")
            return None
        return value

    def items(
        self, value: object, path: DataPath, read: Callable[[object, DataPath], Item | None]
    ) -> tuple[Item, ...]:
        """Read each element of the list ``value`` with ``read``, skipping the bad ones."""
        if not isinstance(value, list):
            hint = " (a list of one: '- ' before it in YAML, [ ] around it)"
            shown = hint if isinstance(value, dict) else ""
            self.problem(path, f"expected a list, got {kind_of(value)}{shown}")
            return ()
        read_items = (read(item, (*path, index)) for index, item in enumerate(value))
        return tuple(item for item in read_items if item is not None)


class _Reader(ShapeReader):
    """Builds the model from plain data, collecting problems instead of stopping."""

    def __init__(self, document: Document, registry: Registry, origin: Origin) -> None:
        super().__init__(origin)
        self.document = document
        self.registry = registry

    # -- chart and states ------------------------------------------------------------------

    def chart(self) -> Chart | None:
        data = self.mapping(self.document.data, (), TOP_KEYS)
        version = data.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION or isinstance(version, bool):
            shown = repr(version) if type(version) in (int, float, str) else f"({kind_of(version)})"
            self.problem(("version",), f"unsupported version {shown}; this is version 1")
        if "patterns" in data and "root" not in data:
            self.problem(
                (),
                "this file only defines patterns: a chart uses them by importing it "
                "(imports: [FILE]); to run it as a chart, give it a 'name' and a 'root'",
            )
        for key in ("name", "root"):
            if key not in data and isinstance(self.document.data, dict):
                self.problem((), f"missing key {key!r}")
        name = self.name(data.get("name"), ("name",)) if "name" in data else None
        root = self.state(data["root"], ("root",)) if "root" in data else None
        if name is None or root is None or self.problems:
            return None
        return Chart(name, root, self.origin)

    def state(self, value: object, path: DataPath) -> StateDef | None:
        if self.too_deep(path):
            return None
        data = self.mapping(value, path, _STATE_KEYS)
        if "name" not in data:
            if isinstance(value, dict):
                self.problem(path, "a state needs a 'name'")
            return None
        name = self.name(data["name"], (*path, "name"))
        children = self.items(data.get("states", []), (*path, "states"), self.state)
        policy = self.policy(data, path, bool(children))
        state = StateDef(
            name or "?",
            policy,
            children,
            self.conditions(data.get("pre"), (*path, "pre")),
            self.conditions(data.get("post"), (*path, "post")),
            self.items(data.get("enter", []), (*path, "enter"), self.action),
            self.items(data.get("exit", []), (*path, "exit"), self.action),
            self.items(data.get("transitions", []), (*path, "transitions"), self.transition),
            self.use(path),
        )
        return state if name is not None else None

    def use(self, path: DataPath) -> UseDef | None:
        site = self.origin.use_at(path)
        return None if site is None else site.use

    def policy(self, data: Mapping[str, object], path: DataPath, parent: bool) -> str | None:
        policy = data.get("policy")
        if policy is None:
            return DEFAULT_POLICY if parent else None
        if not isinstance(policy, str) or policy not in DEFINITIONS:
            choices = ", ".join(DEFINITIONS)
            self.problem((*path, "policy"), f"unknown policy {policy!r}; use one of {choices}")
            return None
        if not parent:
            self.problem((*path, "policy"), childless_policy(data.get("name"), policy))
        return policy

    # -- conditions ------------------------------------------------------------------------

    def conditions(self, value: object, path: DataPath) -> tuple[Condition, ...]:
        """Pre- or post-conditions: one condition, or a list of them (absent: none)."""
        if value is None:
            return ()
        if isinstance(value, list):
            return self.items(value, path, self.condition)
        found = self.condition(value, path)
        return () if found is None else (found,)

    def condition(self, value: object, path: DataPath) -> Condition | None:
        if isinstance(value, str):
            kind, _, name = value.partition(" ")
            if name and kind in self.registry.triggers and NAME_PATTERN.match(name):
                self.problem(path, f"a trigger is a mapping: write {{{kind}: {name}}}")
                return None
            return TriggerDef(EVENT, value) if self.name(value, path) else None
        if self.too_deep(path):
            return None
        if not isinstance(value, dict) or len(value) != 1:
            self.problem(
                path,
                "a condition is an event name, or a mapping with one key: a trigger type "
                f"(e.g. input: Jump), all, any or not; got {kind_of(value)}",
            )
            return None
        ((key, inner),) = value.items()
        if key in _COMBINATORS:
            return self.combination(key, inner, (*path, key))
        argument = self.name(inner, (*path, key))
        return None if argument is None else TriggerDef(key, argument)

    def combination(self, key: str, inner: object, path: DataPath) -> Condition | None:
        """``all`` or ``any`` of a list of conditions, or ``not`` of one."""
        if key == "not":
            negated = self.condition(inner, path)
            return None if negated is None else NotOf(negated)
        items: tuple[Condition, ...] = self.items(inner, path, self.condition)
        if not items:
            self.problem(path, f"'{key}' needs a non-empty list of conditions")
            return None
        return AllOf(items) if key == "all" else AnyOf(items)

    # -- actions and transitions -----------------------------------------------------------

    def action(self, value: object, path: DataPath) -> ActionDef | None:
        if isinstance(value, str):
            return ActionDef(value)
        if not isinstance(value, dict) or len(value) != 1:
            self.problem(
                path,
                "an action is a type name, or a mapping with one key, the type, whose value "
                f"is its parameters; got {kind_of(value)}",
            )
            return None
        ((kind, params),) = value.items()
        if not isinstance(kind, str):
            self.problem(path, f"an action's type is a name, got {kind_of(kind)}")
            return None
        if params is None:
            return ActionDef(kind)
        if isinstance(params, dict):
            return self.parameters(kind, params, (*path, kind))
        return self.shorthand(kind, params, (*path, kind))

    def parameters(self, kind: str, params: dict[str, object], path: DataPath) -> ActionDef:
        pairs: list[tuple[str, ParamValue]] = []
        for key, param in params.items():
            if isinstance(param, (str, int, float, bool)):
                pairs.append((key, param))
            else:
                self.problem((*path, key), f"a parameter is a scalar, got {kind_of(param)}")
        return ActionDef(kind, tuple(pairs))

    def shorthand(self, kind: str, value: object, path: DataPath) -> ActionDef | None:
        """``raise: Next``: a scalar sets the one required parameter of the action type.

        The scalar of a type the registry does not know is kept as its parameter ``value``
        (validation reports the type, unless types are not checked).
        """
        declared = self.registry.actions.get(kind)
        if not isinstance(value, (str, int, float, bool)):
            self.problem(path, f"a parameter is a scalar, got {kind_of(value)}")
            return None
        if declared is None:
            return ActionDef(kind, (("value", value),))
        required = [param for param in declared.params if param.default is None]
        if len(required) != 1:
            self.problem(
                path,
                f"{declared.signature} has {len(required)} required parameters; give its "
                "parameters as a mapping",
            )
            return None
        return ActionDef(kind, ((required[0].name, value),))

    def transition(self, value: object, path: DataPath) -> TransitionDef | None:
        data = self.mapping(value, path, ("on", "to"))
        for key in ("on", "to"):
            if key not in data and isinstance(value, dict):
                self.problem(path, f"a transition needs '{key}'")
        on = self.condition(data["on"], (*path, "on")) if "on" in data else None
        target = data.get("to")
        if isinstance(target, str) and "." in target:  # a path: only siblings are targets
            self.problem(
                (*path, "to"),
                f"a transition goes to a sibling, named alone, got the path {target!r}; a "
                "transition out of a parent state is written on that parent",
            )
            return None
        to = self.name(target, (*path, "to")) if "to" in data else None
        return None if on is None or to is None else TransitionDef(on, to)


def parse_document(
    document: Document, registry: Registry = DEFAULT_REGISTRY, origin: Origin | None = None
) -> Chart:
    """Build the chart model of ``document`` (its meaning is not checked yet).

    Args:
        origin: where the document's places were written, when its patterns were expanded
            (see :func:`statetree.chart.expand.expand_document`); by default, the
            document's own lines.

    Raises:
        ChartError: the document does not have the shape of a chart; every problem found
            is listed, with its path and line.
    """
    reader = _Reader(document, registry, origin or document.origin)
    chart = reader.chart()
    if chart is None:
        raise ChartError(reader.problems)
    return chart
