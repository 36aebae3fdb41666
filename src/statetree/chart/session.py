"""A chart machine driven by a script of events, printing its trace and actions.

Used by ``statetree run``; also handy in a designer's own tools.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from statetree.chart.actions import ActionCall
from statetree.chart.events import ScriptStep, read_script
from statetree.chart.machine import ChartMachine
from statetree.chart.model import Chart
from statetree.chart.reload import Reloaded
from statetree.chart.watch import ChartWatcher
from statetree.core.trace import TraceLevel
from statetree.errors import StateTreeError

__all__ = ["ChartSession", "Out", "watch"]

Out = Callable[[str], None]
"""Where a session prints: a callable taking one line."""


class ChartSession:
    """A chart machine whose trace lines and actions are printed as they happen."""

    def __init__(self, chart: Chart, out: Out, level: TraceLevel = TraceLevel.BASIC) -> None:
        self.out = out
        handlers = {name: _ignore for name in chart.registry.actions}
        self.machine = ChartMachine(
            chart, handlers, trace=level, trace_sink=out, on_action=self.action
        )

    def action(self, call: ActionCall) -> None:
        self.out(f"  {call}")

    def play(self, steps: Iterable[ScriptStep]) -> None:
        """Print each step, then do it."""
        self.machine.start()
        for step in steps:
            self.out(f"> {step}")
            self.machine.play(step)

    def reload(self, chart: Chart) -> Reloaded:
        """Switch to ``chart`` and print what the reload kept, exited and entered."""
        self.out(f"> reload {chart.origin.file}")
        report = self.machine.reload(chart)
        for label, paths in (("exited", report.exited), ("entered", report.entered)):
            self.out(f"  {label}: {', '.join(paths) or '-'}")
        return report


def _ignore(call: ActionCall) -> None:
    """The handler of every host action when a chart runs on its own: print only."""


def watch(session: ChartSession, watcher: ChartWatcher, lines: Iterable[str | None]) -> None:
    """Before each line (``None``: no line yet), reload the chart if its file changed.

    A changed file that does not load, or whose reload is refused (an action without a
    handler, a chart that would not settle), is reported and the running chart is kept;
    the next good save is loaded. A line that is not a script step, or whose step the
    machine refuses, is reported too, and the session goes on.
    """
    for line in lines:
        try:
            changed = watcher.poll()
            if changed is not None:
                session.reload(changed)
        except StateTreeError as error:
            session.out(f"! not reloaded: {error}")
        if line is not None:
            try:
                session.play(read_script(line, "<stdin>"))
            except StateTreeError as error:
                session.out(f"! {error}")
