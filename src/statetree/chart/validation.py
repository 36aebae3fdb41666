"""What a chart means: known trigger and action types, parameters, targets, policy rules.

:func:`validate` checks a chart model against a registry and returns it normalised (action
parameters in their declared order, defaults filled in), or raises :class:`ChartError`
listing every problem with its path and, for loaded charts, its line.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator
from difflib import get_close_matches

from statetree.chart.errors import ChartError, Problem
from statetree.chart.model import (
    ActionDef,
    Chart,
    Condition,
    DataPath,
    ParamValue,
    StateDef,
    TriggerDef,
    triggers_of,
)
from statetree.chart.parts import READERS, readers_named
from statetree.chart.policy import definition
from statetree.chart.registry import DEFAULT_REGISTRY, TIMER, ActionType, Registry

__all__ = ["validate"]


class _Validator:
    def __init__(self, chart: Chart, registry: Registry, check_types: bool) -> None:
        self.chart = chart
        self.registry = registry
        self.check_types = check_types
        self.problems: list[Problem] = []
        self.timers = made_events(chart, registry, TIMER)
        self.timer_makers = [t.name for t in registry.actions.values() if t.makes == TIMER]
        self._paths: dict[str, list[str]] | None = None  # by state name, when first needed

    def paths_named(self, name: str) -> list[str]:
        """The paths of the states called ``name`` (walked once, for every lookup)."""
        if self._paths is None:
            self._paths = {}
            for path, state, _ in self.chart.walk():
                self._paths.setdefault(state.name, []).append(path)
        return self._paths.get(name, [])

    def problem(self, path: DataPath, message: str) -> None:
        self.problems.append(self.chart.origin.problem(path, message))

    # -- states ----------------------------------------------------------------------------

    def state(
        self,
        state: StateDef,
        path: str,
        where: DataPath,
        parent: StateDef | None,
        siblings: frozenset[str] = frozenset(),
    ) -> StateDef:
        self.placement(state, path, where, parent)
        self.children(state, path, where)
        for key, conditions in (("pre", state.pre), ("post", state.post)):
            for index, condition in enumerate(conditions):
                self.condition(condition, (*where, key, index))
        for index, transition in enumerate(state.transitions):
            self.condition(transition.on, (*where, "transitions", index, "on"))
            if parent is not None and transition.to not in siblings:
                self.unknown_target(transition.to, path, (*where, "transitions", index), parent)
        names = frozenset(child.name for child in state.states)
        children = tuple(
            self.state(child, f"{path}.{child.name}", (*where, "states", index), state, names)
            for index, child in enumerate(state.states)
        )
        return dataclasses.replace(
            state,
            states=children,
            enter=self.actions(state.enter, (*where, "enter")),
            exit=self.actions(state.exit, (*where, "exit")),
        )

    def placement(
        self, state: StateDef, path: str, where: DataPath, parent: StateDef | None
    ) -> None:
        """Pre, post and transitions only where the parent's policy reads them."""
        # Which parents read which part of a child: anything else could never have an effect.
        for key, readers in READERS.items():
            if not getattr(state, key):
                continue
            if parent is None:
                self.problem((*where, key), f"the root {path} has no parent to read its {key}")
            elif parent.policy not in readers:
                kinds = readers_named(key)
                policy = parent.policy or "leaf"
                self.problem(
                    (*where, key),
                    f"{key} of {path} would never be read: only a parent of policy {kinds} "
                    f"reads them, and its parent's policy is {policy}",
                )

    def children(self, state: StateDef, path: str, where: DataPath) -> None:
        seen: set[str] = set()
        for index, child in enumerate(state.states):
            if child.name in seen:
                self.problem(
                    (*where, "states", index, "name"),
                    f"{path} has two children named {child.name!r}",
                )
            seen.add(child.name)
        if state.policy is not None and state.states:
            definition(state.policy).check_children(state, path, where, self.problem)

    def unknown_target(self, name: str, path: str, where: DataPath, parent: StateDef) -> None:
        siblings = listed(child.name for child in parent.states)
        elsewhere = self.paths_named(name)
        if elsewhere:  # a real state, but not a sibling: the transition is on the wrong state
            other = elsewhere[0]
            outer = other.rpartition(".")[0] + "."
            holder = path[: path.find(".", len(outer))] if path.startswith(outer) else other
            fix = f"; write it on {holder}, whose sibling {other} is" if holder != other else ""
            self.problem(
                (*where, "to"),
                f"{name!r} is not a sibling of {path} (it is {listed(elsewhere)}): a "
                f"transition goes to a sibling ({siblings}){fix}",
            )
            return
        self.problem(
            (*where, "to"),
            f"unknown state {name!r} in a transition of {path}; it can go to its siblings: "
            f"{siblings}",
        )

    # -- conditions and actions ------------------------------------------------------------

    def condition(self, condition: Condition, where: DataPath) -> None:
        for trigger in triggers_of(condition):
            self.trigger(trigger, where)

    def trigger(self, trigger: TriggerDef, where: DataPath) -> None:
        if self.check_types and trigger.type not in self.registry.triggers:
            known = listed(self.registry.triggers)
            self.problem(where, f"unknown trigger type {trigger.type!r}; known: {known}")
        elif trigger.type == TIMER and trigger.name not in self.timers:
            started = listed(sorted(self.timers)) or "none"
            makers = " or ".join(self.timer_makers)
            self.problem(
                where,
                f"no {makers + ' ' if makers else ''}action starts a timer named {trigger.name!r} "
                f"(timers started: {started})",
            )

    def actions(self, actions: tuple[ActionDef, ...], where: DataPath) -> tuple[ActionDef, ...]:
        return tuple(self.action(action, (*where, i)) for i, action in enumerate(actions))

    def action(self, action: ActionDef, where: DataPath) -> ActionDef:
        declared = self.registry.actions.get(action.type)
        if not self.check_types:
            return action
        if declared is None:
            known = listed(self.registry.actions)
            close = get_close_matches(action.type, list(self.registry.actions), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            self.problem(where, f"unknown action type {action.type!r}{hint}; known: {known}")
            return action
        given = dict(action.params)
        for name in given:
            if declared.param(name) is None:
                message = f"{declared.signature} has no parameter {name!r}"
                self.problem((*where, action.type, name), message)
        return ActionDef(action.type, tuple(self.params(declared, given, where)))

    def params(
        self, declared: ActionType, given: dict[str, ParamValue], where: DataPath
    ) -> Iterator[tuple[str, ParamValue]]:
        for param in declared.params:
            value = given.get(param.name, param.default)
            refusal = None if value is None else param.refusal(value)
            if value is None:
                self.problem(where, f"{declared.signature} needs {param.name!r}")
            elif refusal is not None:
                where_param = (*where, declared.name, param.name)
                self.problem(where_param, f"{declared.name}: {param.name!r} {refusal}")
            else:
                yield param.name, param.convert(value)


def made_events(chart: Chart, registry: Registry, kind: str) -> set[str]:
    """The names of the events of ``kind`` that the actions of ``chart`` make (the timers
    its ``start_timer`` actions start, for ``timer``)."""
    made = set()
    for _, state, _ in chart.walk():
        for action in (*state.enter, *state.exit):
            declared = registry.actions.get(action.type)
            if declared is not None and declared.makes == kind:
                made.add(str(action.arguments.get("name")))
    return made


def listed(names: Iterable[str], limit: int = 12) -> str:
    """``names`` joined with commas, the first ``limit`` only (messages stay short)."""
    shown = list(itertools.islice(names, limit + 1))
    if len(shown) <= limit:
        return ", ".join(shown)
    return ", ".join(shown[:limit]) + ", ..."


def validate(
    chart: Chart, registry: Registry = DEFAULT_REGISTRY, *, check_types: bool = True
) -> Chart:
    """Check ``chart`` against ``registry`` and the policy rules; return it normalised.

    Args:
        check_types: check trigger and action types and parameters against ``registry``.
            Without it only the structure is checked (names, targets, policies), which is
            enough to plot a chart whose host registry is not at hand; such a chart is
            checked in full again when compiled.

    Raises:
        ChartError: every problem found, in document order, with paths and lines.
    """
    validator = _Validator(chart, registry, check_types)
    root = validator.state(chart.root, chart.root.name, ("root",), None)
    if validator.problems:
        # Lines put the problems in document order; those without one keep theirs.
        raise ChartError(sorted(validator.problems, key=_document_order))
    return dataclasses.replace(chart, root=root, registry=registry)


def _document_order(problem: Problem) -> tuple[int, int]:
    """Problems in the chart's own file by line, then those inside patterns, by use."""
    use = problem.uses[-1].line if problem.uses else problem.line
    return use, problem.line
