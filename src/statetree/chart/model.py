"""The chart model: immutable, format-independent definitions of a chart's states.

Every input format (YAML, TOML, JSON, Python data, the builder) is read into these frozen
dataclasses; compiling, plotting and the CLI only ever see this model.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

from statetree.chart.registry import DEFAULT_REGISTRY, ParamValue, Registry

__all__ = [
    "ActionDef",
    "AllOf",
    "AnyOf",
    "Chart",
    "Condition",
    "DataPath",
    "NotOf",
    "Origin",
    "ParamValue",
    "Policy",
    "StateDef",
    "TransitionDef",
    "TriggerDef",
    "format_path",
    "triggers_of",
]

DataPath: TypeAlias = "tuple[str | int, ...]"
"""A place in a chart document: keys and list indexes from the top, e.g. ``("root", "name")``."""


def format_path(path: DataPath) -> str:
    """``root.states[0].name`` for ``("root", "states", 0, "name")``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


class Policy(enum.Enum):
    """How a state with children activates them."""

    EXPLICIT = "explicit"
    """The first child is entered; children leave through their own transitions."""
    SEQUENTIAL = "sequential"
    """Children run in order, each until its post-condition holds."""
    PRIORITY = "priority"
    """The first child whose pre-condition holds is active; the last one is the ground."""
    CONCURRENT = "concurrent"
    """Every child is active at once, each as a region."""


@dataclass(frozen=True, slots=True)
class TriggerDef:
    """A trigger: true when an event of kind ``type`` named ``name`` is latched.

    ``TriggerDef("input", "Jump")`` responds to the event ``Event("input", "Jump")``.
    """

    type: str
    name: str

    def __str__(self) -> str:
        return f"{self.type} {self.name}"


@dataclass(frozen=True, slots=True)
class AllOf:
    """True when every one of ``conditions`` is."""

    conditions: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    """True when at least one of ``conditions`` is."""

    conditions: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class NotOf:
    """True when ``condition`` is not."""

    condition: Condition


Condition: TypeAlias = "TriggerDef | AllOf | AnyOf | NotOf"
"""A condition tree whose leaves are triggers."""


def triggers_of(condition: Condition) -> Iterator[TriggerDef]:
    """Every trigger in ``condition``, depth first."""
    if isinstance(condition, TriggerDef):
        yield condition
    elif isinstance(condition, NotOf):
        yield from triggers_of(condition.condition)
    else:
        for item in condition.conditions:
            yield from triggers_of(item)


@dataclass(frozen=True, slots=True)
class ActionDef:
    """An enter or exit action: its type and its parameters (in the type's declared order)."""

    type: str
    params: tuple[tuple[str, ParamValue], ...] = ()

    @property
    def arguments(self) -> Mapping[str, ParamValue]:
        """The parameters as a read-only mapping."""
        return MappingProxyType(dict(self.params))

    def __str__(self) -> str:
        inside = ", ".join(f"{name}={value!r}" for name, value in self.params)
        return f"{self.type}({inside})"


@dataclass(frozen=True, slots=True)
class TransitionDef:
    """An explicit transition: when ``on`` holds, the state is replaced by sibling ``to``."""

    on: Condition
    to: str


@dataclass(frozen=True, slots=True)
class StateDef:
    """One state of a chart.

    Attributes:
        name: unique among its siblings; the state's path joins the names with dots.
        policy: how it activates its children; ``None`` for a state without children.
        states: the children, in order (the order means something to every policy).
        pre: pre-conditions (all must hold), read by a priority parent.
        post: post-conditions (any one suffices), read by a sequential or priority parent.
        enter: actions run when the state is entered, in order.
        exit: actions run when it is exited, in order.
        transitions: explicit transitions to siblings, tried in order (explicit parent).
    """

    name: str
    policy: Policy | None = None
    states: tuple[StateDef, ...] = ()
    pre: tuple[Condition, ...] = ()
    post: tuple[Condition, ...] = ()
    enter: tuple[ActionDef, ...] = ()
    exit: tuple[ActionDef, ...] = ()
    transitions: tuple[TransitionDef, ...] = ()

    def child(self, name: str) -> StateDef | None:
        """The child called ``name``, or ``None``."""
        for state in self.states:
            if state.name == name:
                return state
        return None

    def same_own_definition(self, other: StateDef) -> bool:
        """Whether ``other`` defines the same state, children aside (names compared)."""
        return self.shallow() == other.shallow()

    def shallow(self) -> StateDef:
        """This state with its children reduced to their names (leaves, no definitions)."""
        return StateDef(
            self.name,
            self.policy,
            tuple(StateDef(child.name) for child in self.states),
            self.pre,
            self.post,
            self.enter,
            self.exit,
            self.transitions,
        )


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a chart came from: its file, and the line of each place in the document."""

    file: str
    lines: Mapping[DataPath, int] = field(default_factory=lambda: MappingProxyType({}))

    def line(self, path: DataPath) -> int:
        """The line of ``path``, or of its nearest enclosing place that has one (0: none)."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(path[:end])
            if line:
                return line
        return 0


@dataclass(frozen=True, slots=True)
class Chart:
    """A whole chart: its name and its root state.

    Charts compare by definition. ``origin`` (file and lines) and ``registry`` (the types
    it was validated with) are not compared.
    """

    name: str
    root: StateDef
    origin: Origin = field(default=Origin("<data>"), compare=False, repr=False)
    registry: Registry = field(default=DEFAULT_REGISTRY, compare=False, repr=False)

    def walk(self) -> Iterator[tuple[str, StateDef, DataPath]]:
        """Every state as ``(path, definition, data path)``, parents before children."""
        yield from _walk(self.root, self.root.name, ("root",))

    def find(self, path: str) -> StateDef | None:
        """The state at ``path`` (names joined with dots, root first), or ``None``."""
        first, *rest = path.split(".")
        state: StateDef | None = self.root if first == self.root.name else None
        for name in rest:
            state = state.child(name) if state is not None else None
        return state


def _walk(state: StateDef, path: str, where: DataPath) -> Iterator[tuple[str, StateDef, DataPath]]:
    yield path, state, where
    for index, child in enumerate(state.states):
        yield from _walk(child, f"{path}.{child.name}", (*where, "states", index))
