"""A chart file run on its own, for ``statetree inspect door.yaml``.

A designer can open a chart without the game: the page shows it running, sends it events
from its palette, and edits, saves and hot-reloads the file. The host's actions do nothing
but appear on the timeline. Without the host's registry, the trigger and action types the
chart uses are taken as the chart uses them (a *stand-in* registry), so any chart that is
well formed runs (see :mod:`statetree.chart.stand_in`); give the registry to have them
checked.
"""

from __future__ import annotations

from pathlib import Path

from statetree.chart import Chart, ChartMachine, Registry
from statetree.chart.stand_in import EVERY_ACTION, loads_stand_in
from statetree.inspect.chart_adapter import EditableChartAdapter
from statetree.inspect.chart_file import ChartFile

__all__ = ["ChartWorld", "StandInChartFile"]


class StandInChartFile(ChartFile):
    """A chart file checked against the types it uses itself (see the module's text)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, None)

    def load(self, text: str) -> Chart:
        """The chart in ``text``, its unknown types taken as it uses them.

        Raises:
            ChartError: the text is not a well-formed chart.
        """
        return loads_stand_in(text, self.format, file=str(self.path))


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
        self.machine = ChartMachine(chart, EVERY_ACTION, name=chart.name)
        self.adapter = EditableChartAdapter(self.machine, file)

    def machines(self) -> list[object]:
        """The chart's machine, editable."""
        return [self.adapter]

    def tick(self, dt: float) -> None:
        """Advance the chart's clock (its timers fire)."""
        self.machine.tick(dt)
