"""A chart machine driven by a script of events, printing its trace and actions.

Used by ``statetree run``; also handy in a designer's own tools.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from statetree.chart.actions import ActionCall
from statetree.chart.errors import ScriptError
from statetree.chart.events import ScriptStep, read_script
from statetree.chart.machine import ChartMachine
from statetree.chart.model import Chart
from statetree.chart.reload import Reloaded
from statetree.chart.stand_in import EVERY_ACTION
from statetree.chart.watch import ChartWatcher
from statetree.core.trace import TraceLevel
from statetree.errors import StateTreeError, UsageError

__all__ = ["ChartSession", "Out", "watch"]

Out = Callable[[str], None]
"""Where a session prints: a callable taking one line."""


class ChartSession:
    """A chart machine whose trace lines and actions are printed as they happen."""

    def __init__(self, chart: Chart, out: Out, level: TraceLevel = TraceLevel.BASIC) -> None:
        self.out = out
        # Host actions only print (on_action): any type, even one a reload adds.
        self.machine = ChartMachine(
            chart, EVERY_ACTION, trace=level, trace_sink=out, on_action=self.action
        )

    def action(self, call: ActionCall) -> None:
        self.out(f"  {call}")

    def play(self, steps: Iterable[ScriptStep], source: str | None = None) -> None:
        """Print each step, then do it.

        Raises:
            ScriptError: the machine refused a step of the script ``source`` (named with
                its line).
        """
        self.machine.start()
        for step in steps:
            self.out(f"> {step}")
            try:
                self.machine.play(step)
            except UsageError as error:
                if source is None or not step.line:
                    raise
                raise ScriptError(f"{source}:{step.line}: {error}") from None

    def reload(self, chart: Chart) -> Reloaded:
        """Switch to ``chart`` and print what the reload kept, exited and entered."""
        self.out(f"> reload {chart.origin.file}")
        report = self.machine.reload(chart)
        for label, paths in (("exited", report.exited), ("entered", report.entered)):
            self.out(f"  {label}: {', '.join(paths) or '-'}")
        return report


def watch(
    session: ChartSession,
    watcher: ChartWatcher | None,
    lines: Iterable[str | None],
    prompt: Callable[[], None] | None = None,
) -> None:
    """Play each line as it comes (``None``: no line yet); before each, reload the chart if
    its file changed (when there is a ``watcher``).

    A changed file that does not load, or whose reload is refused (an action without a
    handler, a chart that would not settle), is reported and the running chart is kept;
    the next good save is loaded. A line that is not a script step, names an event kind the
    chart does not know, or whose step the machine refuses, is reported too, and the
    session goes on. ``prompt`` is called whenever the session waits for the next line.
    """
    ask = prompt or _ignore_prompt
    ask()
    number = 0
    for line in lines:
        if watcher is not None and _reloaded(session, watcher):
            ask()
        if line is None:
            continue
        number += 1
        try:
            registry = session.machine.chart.registry
            session.play(read_script(line, "<stdin>", registry, first_line=number))
        except StateTreeError as error:
            session.out(f"! {error}")
        ask()


def _reloaded(session: ChartSession, watcher: ChartWatcher) -> bool:
    """Reload the chart if its file changed; whether anything was printed."""
    try:
        changed = watcher.poll()
        if changed is None:
            return False
        session.reload(changed)
    except StateTreeError as error:
        session.out(f"! not reloaded: {error}")
    return True


def _ignore_prompt() -> None:
    """No prompt: the lines do not come from a person at a terminal."""
