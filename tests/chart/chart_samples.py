"""Shared pieces of the chart tests: the example files, their registry, a recording run."""

from __future__ import annotations

import runpy
from pathlib import Path

import statetree as st
from statetree.chart import ActionCall, Chart, ChartMachine, Registry, load, read_script

ROOT = Path(__file__).resolve().parents[2]
CHARTS = ROOT / "examples" / "charts"
GAME: Registry = runpy.run_path(str(CHARTS / "game.py"))["REGISTRY"]
HOST_ACTIONS = tuple(action.name for action in GAME.host_actions())


def example(name: str) -> Chart:
    """An example chart of ``examples/charts`` loaded with the game registry."""
    return load(CHARTS / name, GAME)


class Recorder:
    """Runs a chart, recording trace lines and ``str(action)`` lines in one list."""

    def __init__(self, chart: Chart, trace: st.TraceLevel = st.TraceLevel.BASIC) -> None:
        self.lines: list[str] = []
        handlers = {name: self.ignore for name in chart.registry.actions}
        self.machine = ChartMachine(
            chart, handlers, trace=trace, trace_sink=self.lines.append, on_action=self.action
        )

    def action(self, call: ActionCall) -> None:
        self.lines.append(str(call))

    def ignore(self, call: ActionCall) -> None:
        pass

    def actions(self) -> list[str]:
        """The action lines recorded so far, then forget everything recorded."""
        found = [line for line in self.lines if not line.startswith("HSM_")]
        self.lines.clear()
        return found

    def play(self, script: str) -> list[str]:
        """Play the script lines; return (and forget) every line recorded meanwhile."""
        self.machine.start()
        self.lines.clear()
        for step in read_script(script):
            self.machine.play(step)
        played = list(self.lines)
        self.lines.clear()
        return played
