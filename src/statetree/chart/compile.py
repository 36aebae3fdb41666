"""Compiling a chart: one generated ``ChartState`` subclass per state, lookups precomputed.

The generated class of a state is named after it and its ``__qualname__`` is its path
(``Character.ComboAttack.ComboAttack1.Pre``), so traces, structures and plots read as the
chart does. A compiled chart is immutable and can be shared by any number of machines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from importlib import import_module
from types import MappingProxyType
from typing import Any, cast

from statetree.chart.action_calls import ActionCall, Phase
from statetree.chart.actions import Performer, make_performer
from statetree.chart.conditions import (
    Compiled,
    Latched,
    compile_all,
    compile_any,
    compile_condition,
)
from statetree.chart.events import Event
from statetree.chart.model import Chart, Condition, StateDef, triggers_of
from statetree.chart.policies import transition_of
from statetree.chart.policy import runs_regions
from statetree.chart.states import ChartState, Hooks
from statetree.chart.validation import listed, validate
from statetree.core.transition import CONCURRENT, INNER, INNER_ENTRY, SIBLING, Transition
from statetree.errors import UsageError

__all__ = ["CompiledChart", "compile_chart"]


@dataclass(frozen=True, eq=False)
class CompiledChart:
    """A chart turned into state classes and lookup tables.

    Attributes:
        chart: the (validated) chart.
        classes: the generated class of each state, parents before children; the root first.
        by_path: the class of each state path.
        edges: the index of each edge trigger's event (latched by events).
        levels: the index of each level trigger's event (held on or off).
        level_kinds: the trigger types that are levels.
        host_actions: the host action types the chart uses, in handler slot order.
        action_users: for each host action type, the states using it (``path (enter)``).
        calls: the record of every action of every state, each performer's at its index.
        edge_table: ``edges`` itself (not a copy), as the dict a runtime looks events up
            in when they are latched: a read-only view costs a method call more per event.
        edge_kinds: the registry's other trigger types: the kinds ``send`` takes.
    """

    chart: Chart
    classes: tuple[type[ChartState], ...]
    by_path: Mapping[str, type[ChartState]]
    edges: Mapping[Event, int]
    levels: Mapping[Event, int]
    level_kinds: frozenset[str]
    host_actions: tuple[str, ...]
    action_users: Mapping[str, tuple[str, ...]]
    calls: tuple[ActionCall, ...] = ()
    edge_table: dict[Event, int] = field(default_factory=dict, repr=False)
    edge_kinds: frozenset[str] = frozenset()

    @property
    def root(self) -> type[ChartState]:
        """The class of the root state."""
        return self.classes[0]

    def no_state(self, path: object) -> UsageError:
        """The error of a call naming ``path``, which is no state of this chart: a close
        path, or the path of a state of that name, suggested (every engine says this)."""
        paths = list(self.by_path)
        close: list[str] = []
        if isinstance(path, str):
            close = [p for p in paths if p.endswith("." + path)][:2]
            close = close or get_close_matches(path, paths, n=1)
        hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
        return UsageError(
            f"chart {self.chart.name!r} has no state {path!r}{hint}; states: {listed(paths)}"
        )

    # Immutable: copies of the machines running it share it.

    def __copy__(self) -> CompiledChart:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its chart (see :mod:`statetree.chart.saving`)."""
        # Imported when first needed: saving needs the whole chart package.
        saving = import_module("statetree.chart.saving")
        return saving.reduce_compiled(self)  # type: ignore[no-any-return]

    def __deepcopy__(self, memo: dict[int, Any]) -> CompiledChart:
        return self


def _triggers(chart: Chart, level_kinds: frozenset[str]) -> tuple[dict[Event, int], ...]:
    edges: dict[Event, int] = {}
    levels: dict[Event, int] = {}
    for _, state, _ in chart.walk():
        conditions = (*state.pre, *state.post, *(t.on for t in state.transitions))
        for condition in conditions:
            for trigger in triggers_of(condition):
                table = levels if trigger.type in level_kinds else edges
                table.setdefault(Event(trigger.type, trigger.name), len(table))
    return edges, levels


def _host_actions(chart: Chart) -> dict[str, list[str]]:
    users: dict[str, list[str]] = {}
    for path, state, _ in chart.walk():
        for phase, actions in (("enter", state.enter), ("exit", state.exit)):
            for action in actions:
                declared = chart.registry.actions[action.type]
                if not declared.builtin:
                    users.setdefault(action.type, []).append(f"{path} ({phase})")
    return users


class _Compiler:
    def __init__(self, chart: Chart) -> None:
        self.chart = chart
        kinds = frozenset(name for name, t in chart.registry.triggers.items() if t.level)
        self.level_kinds = kinds
        self.edges, self.levels = _triggers(chart, kinds)
        self.users = _host_actions(chart)
        self.slots = {name: slot for slot, name in enumerate(self.users)}
        self.classes: dict[str, type[ChartState]] = {}
        self.calls: list[ActionCall] = []

    def compile(self) -> CompiledChart:
        walked = list(self.chart.walk())
        ids = {path: index for index, (path, _, _) in enumerate(walked)}
        for path, state, _ in walked:
            parent, _, _ = path.rpartition(".")
            self.classes[path] = self.generate(path, state, ids[path], ids.get(parent, -1))
        for path, state, _ in walked:
            self.link(path, state)
        for cls in self.classes.values():
            cls._hooks = Hooks(cls)
        return CompiledChart(
            self.chart,
            tuple(self.classes.values()),
            MappingProxyType(self.classes),
            MappingProxyType(self.edges),
            MappingProxyType(self.levels),
            self.level_kinds,
            tuple(self.users),
            MappingProxyType({name: tuple(users) for name, users in self.users.items()}),
            tuple(self.calls),
            self.edges,
            frozenset(self.chart.registry.triggers) - self.level_kinds,
        )

    def performers(self, state: StateDef, path: str, phase: Phase) -> tuple[Performer, ...]:
        actions = state.enter if phase == "enter" else state.exit
        performers = []
        for action in actions:
            performer = make_performer(action, path, phase, self.slots, len(self.calls))
            self.calls.append(performer.call)
            performers.append(performer)
        return tuple(performers)

    def generate(self, path: str, state: StateDef, index: int, parent: int) -> type[ChartState]:
        """The class of ``state``, without the transitions that name other classes."""
        namespace: dict[str, Any] = {
            "__slots__": (),
            "__qualname__": path,
            "__module__": __name__,
            "_path": path,
            "_definition": state,
            "_id": index,
            "_parent_id": parent,
            "_enter": self.performers(state, path, "enter"),
            "_exit": self.performers(state, path, "exit"),
            "_post": compile_any(state.post, self),
        }
        function = transition_of(state.policy, bool(state.transitions))
        if function is not None:
            namespace["transition"] = function
        return cast("type[ChartState]", type(state.name, (ChartState,), namespace))

    def condition(self, condition: Condition) -> tuple[int, Compiled]:
        """``condition`` compiled, with its latch index if it is one edge trigger (else -1)."""
        compiled = compile_condition(condition, self)
        return (compiled.index if isinstance(compiled, Latched) else -1), compiled

    def link(self, path: str, state: StateDef) -> None:
        """Set the class attributes of ``state`` that refer to its children and siblings."""
        cls = self.classes[path]
        parent, _, _ = path.rpartition(".")
        cls._out = tuple(
            (*self.condition(t.on), Transition(SIBLING, self.classes[f"{parent}.{t.to}"]))
            for t in state.transitions
        )
        children = tuple(self.classes[f"{path}.{child.name}"] for child in state.states)
        for index, child in enumerate(children):
            child._index = index
            following = children[index + 1] if index + 1 < len(children) else None
            child._advance = None if following is None else Transition(INNER, following)
        cls._entries = tuple(Transition(INNER_ENTRY, child) for child in children)
        cls._inners = tuple(Transition(INNER, child) for child in children)
        cls._pres = tuple(compile_all(child.pre, self) for child in state.states)
        if runs_regions(state):
            cls._regions = Transition(CONCURRENT, children[0], regions=children)


def compile_chart(chart: Chart) -> CompiledChart:
    """Validate ``chart`` (with the registry it carries) and compile it.

    Raises:
        ChartError: the chart is invalid.
        UsageError: ``chart`` is not a chart (a file's path, say: load it first).
    """
    if not isinstance(chart, Chart):
        raise UsageError(
            f"a chart is needed, got {chart!r} ({type(chart).__name__}); load a chart file "
            "first: statetree.chart.load(path)"
        )
    return _Compiler(validate(chart, chart.registry)).compile()
