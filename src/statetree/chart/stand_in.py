"""A chart run without its host: the types it uses stand in for the host's registry.

A designer runs a chart file on its own (``statetree run door.yaml``, ``statetree inspect
door.yaml``) without the game that declares its trigger and action types. Each type the
chart uses that is not built in is then taken as the chart uses it, so any chart that is
well formed runs (as ``statetree check`` accepts it without ``--registry``); the host's
registry, when given, checks them for real.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from statetree.chart.actions import ActionCall, Handler
from statetree.chart.loading import Format, loads, parse_chart, read_document
from statetree.chart.model import Chart, triggers_of
from statetree.chart.registry import (
    DEFAULT_REGISTRY,
    ActionType,
    Param,
    ParamValue,
    Registry,
    TriggerType,
)
from statetree.errors import DefinitionError

__all__ = ["EVERY_ACTION", "loads_stand_in", "stand_in_names", "stand_in_registry"]


def _performed(call: ActionCall) -> None:
    """A host action of a chart run without its host: the caller shows it, if anything."""


class _EveryAction(Mapping[str, Handler]):
    """A handler for any action type, even one a reload adds later."""

    def __getitem__(self, name: str) -> Handler:
        return _performed

    def __contains__(self, name: object) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


EVERY_ACTION: Mapping[str, Handler] = _EveryAction()
"""The handlers of a chart run without its host: every host action does nothing (watch it
with ``on_action``), whatever its type, even one a reload adds."""


@dataclass(frozen=True, slots=True)
class _AnyValue(Param):
    """A parameter the chart gives values of several types (``true`` here, ``"a"`` there):
    any of them fits, as the chart uses it."""

    def refusal(self, value: object) -> str | None:
        return None


def _param(key: str, values: list[ParamValue], optional: bool) -> Param:
    """A parameter fitting every value the chart gives ``key``; one some uses leave out is
    optional, its default the empty value of its type (false, 0, "")."""
    kinds = {type(value) for value in values}
    if len(kinds) == 1 or kinds <= {int, float}:
        kind = kinds.pop() if len(kinds) == 1 else float
        return Param(key, kind, kind() if optional else None)
    return _AnyValue(key, str, "" if optional else None)


def _action_type(name: str, uses: list[dict[str, ParamValue]]) -> ActionType | None:
    """An action type fitting every use. A name no type or parameter may have (an empty
    one) is left out, for the load to report where it is used."""
    params = []
    for key in dict.fromkeys(key for use in uses for key in use):
        seen = [use[key] for use in uses if key in use]
        with contextlib.suppress(DefinitionError):
            params.append(_param(key, seen, len(seen) < len(uses)))
    try:
        return ActionType(name, tuple(params))
    except DefinitionError:
        return None


def _trigger_type(name: str) -> TriggerType | None:
    try:
        return TriggerType(name)
    except DefinitionError:
        return None


def stand_in_registry(chart: Chart, known: Registry = DEFAULT_REGISTRY) -> Registry:
    """``known`` plus the trigger and action types ``chart`` uses that it lacks."""
    triggers: dict[str, None] = {}
    actions: dict[str, list[dict[str, ParamValue]]] = {}
    for _, state, _ in chart.walk():
        conditions = (*state.pre, *state.post, *(t.on for t in state.transitions))
        for condition in conditions:
            triggers.update((t.type, None) for t in triggers_of(condition))
        for action in (*state.enter, *state.exit):
            actions.setdefault(action.type, []).append(dict(action.params))
    new_triggers = (_trigger_type(name) for name in triggers if name not in known.triggers)
    new_actions = (_action_type(n, uses) for n, uses in actions.items() if n not in known.actions)
    return known.with_triggers(*filter(None, new_triggers)).with_actions(*filter(None, new_actions))


def stand_in_names(chart: Chart, known: Registry = DEFAULT_REGISTRY) -> tuple[str, ...]:
    """The types of ``chart`` that stand in for the host's: neither built in nor ``known``."""
    return tuple(
        name
        for name in (*chart.registry.triggers, *chart.registry.actions)
        if name not in known.triggers and name not in known.actions
    )


def loads_stand_in(text: str, format: Format, *, file: str = "<text>") -> Chart:
    """The chart in ``text``, its types that are not built in taken as it uses them.

    Raises:
        ChartError: the text is not a well-formed chart (everything built in is checked).
    """
    # The types come from the chart as written, its patterns expanded (a type may be used
    # only in a pattern); every problem, from the load that uses them.
    written = parse_chart(read_document(text, format, file), DEFAULT_REGISTRY)
    return loads(text, format, stand_in_registry(written), file=file)
