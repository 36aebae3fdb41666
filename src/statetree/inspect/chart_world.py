"""A chart file run on its own, for ``statetree inspect door.yaml``.

A designer can open a chart without the game: the page shows it running, sends it events
from its palette, and edits, saves and hot-reloads the file. The host's actions do nothing
but appear on the timeline. Without the host's registry, the trigger and action types the
chart uses are taken as the chart uses them (a *stand-in* registry), so any chart that is
well formed runs; give the registry to have them checked.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    Chart,
    ChartMachine,
    Handler,
    Param,
    ParamValue,
    Registry,
    TriggerType,
    loads,
)
from statetree.chart.model import triggers_of
from statetree.inspect.chart_adapter import EditableChartAdapter
from statetree.inspect.chart_file import ChartFile

__all__ = ["ChartWorld", "StandInChartFile", "stand_in_registry"]


def _performed(call: ActionCall) -> None:
    """A host action of a chart run without its game: it only shows on the timeline."""


class _EveryAction(Mapping[str, Handler]):
    """A handler for any action type, even one an edit adds later."""

    def __getitem__(self, name: str) -> Handler:
        return _performed

    def __contains__(self, name: object) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def _param_type(values: list[ParamValue]) -> type:
    kinds = {type(value) for value in values}
    if len(kinds) == 1:
        return kinds.pop()
    return float if kinds <= {int, float} else str


def _action_type(name: str, uses: list[dict[str, ParamValue]]) -> ActionType:
    """An action type fitting every use: a parameter some uses leave out is optional, its
    default the empty value of its type (false, 0, "")."""
    names = list(dict.fromkeys(key for use in uses for key in use))
    params = []
    for key in names:
        seen = [use[key] for use in uses if key in use]
        kind = _param_type(seen)
        default: ParamValue | None = None if len(seen) == len(uses) else kind()
        params.append(Param(key, kind, default))
    return ActionType(name, tuple(params))


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
    return known.with_triggers(
        *(TriggerType(name) for name in triggers if name not in known.triggers)
    ).with_actions(
        *(_action_type(name, uses) for name, uses in actions.items() if name not in known.actions)
    )


class StandInChartFile(ChartFile):
    """A chart file checked against the types it uses itself (see the module's text)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, None)

    def load(self, text: str) -> Chart:
        """The chart in ``text``, its unknown types taken as it uses them.

        Raises:
            ChartError: the text is not a well-formed chart.
        """
        found = loads(text, self.format, file=str(self.path), check_types=False)
        return loads(text, self.format, stand_in_registry(found), file=str(self.path))


class ChartWorld:
    """The simulation of one chart file: its machine, ticked each frame.

    Args:
        path: the chart file.
        registry: the host's registry; ``None`` takes the types the chart uses.

    Raises:
        ChartError: the file does not load.
    """

    def __init__(self, path: str | Path, registry: Registry | None = None) -> None:
        file = ChartFile(path, registry) if registry is not None else StandInChartFile(path)
        chart = file.load(file.read())
        self.machine = ChartMachine(chart, _EveryAction(), name=chart.name)
        self.adapter = EditableChartAdapter(self.machine, file)

    def machines(self) -> list[object]:
        """The chart's machine, editable."""
        return [self.adapter]

    def tick(self, dt: float) -> None:
        """Advance the chart's clock (its timers fire)."""
        self.machine.tick(dt)
