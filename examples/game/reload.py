"""Hot reload: the enemy chart file is polled while the game runs and reloaded when saved."""

from __future__ import annotations

from pathlib import Path

from game.enemies import CHART_PATH, REGISTRY, Crowd
from statetree.chart import ChartError, ChartWatcher, compile_chart, load


class ChartReloader:
    """Polls the enemy chart every ``every`` frames; a saved change reloads the crowd.

    A file that does not load, or names values the game does not know, is reported and the
    running chart is kept: a half-typed edit breaks nothing.
    """

    def __init__(self, crowd: Crowd, path: Path = CHART_PATH, every: int = 30) -> None:
        self.crowd = crowd
        self.path = path
        self.every = every
        self.watcher = ChartWatcher(path, REGISTRY)
        self.last = ""

    def catch_up(self) -> str | None:
        """Give the crowd the file's chart if it runs another (a match loaded from a save
        runs the chart it was saved with); returns a line saying so, if it did."""
        try:
            chart = compile_chart(load(self.path, REGISTRY))
        except ChartError:
            return None  # the next edit that loads is reloaded as usual
        if chart.chart == self.crowd.chart.chart:
            return None
        report = self.crowd.reload(chart)
        self.last = f"enemy chart of the file applied: {len(report.exited)} states re-entered"
        return self.last

    def poll(self, frame: int) -> str | None:
        """Reload if the file changed; returns a line saying what happened, if anything."""
        if frame % self.every:
            return None
        try:
            chart = self.watcher.poll()
            if chart is None:
                return None
            report = self.crowd.reload(compile_chart(chart))
        except ChartError as error:
            self.last = f"enemy chart not reloaded: {error.problems[0]}"
            return self.last
        self.last = (
            f"enemy chart reloaded: {len(report.exited)} states re-entered "
            f"({', '.join(report.exited) or 'none'})"
        )
        return self.last
