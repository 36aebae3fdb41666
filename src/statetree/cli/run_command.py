"""``statetree run``: run a chart on a script of events, printing the trace and the actions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from statetree.chart.errors import ChartError, ScriptError
from statetree.chart.events import read_script
from statetree.chart.loading import chart_format, load, read_chart_file
from statetree.chart.model import Chart
from statetree.chart.registry import Registry
from statetree.chart.session import ChartSession, watch
from statetree.chart.stand_in import loads_stand_in, stand_in_names
from statetree.chart.text import decode
from statetree.chart.watch import ChartWatcher, input_lines
from statetree.cli.command import EXIT_OK, Command, positive_number
from statetree.cli.structures import load_registry
from statetree.core.trace import TraceLevel
from statetree.errors import UsageError
from statetree.targets import existing_file

__all__ = ["RUN_COMMAND"]

_LEVELS = {"basic": TraceLevel.BASIC, "diagnostic": TraceLevel.DIAGNOSTIC}

PROMPT = "event> "
"""Shown on a terminal while ``statetree run`` waits for the next event."""
HINT = (
    "Type one event per line: KIND NAME (KIND is one of {kinds}), tick SECONDS, hold NAME or "
    "release NAME; Ctrl-D ends."
)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("chart", type=Path, metavar="CHART", help="a .yaml, .toml or .json chart")
    parser.add_argument(
        "-e",
        "--events",
        type=Path,
        metavar="FILE",
        help="the events script, one per line: 'input Jump', 'tick 0.5', 'hold Jump'... "
        "(default: standard input; typed on a terminal, each line plays as it is entered)",
    )
    parser.add_argument(
        "-r",
        "--registry",
        metavar="MODULE[:NAME]",
        help="the host's registry of trigger and action types (a dotted module or a .py "
        "file, then the name; default name REGISTRY). Without it, as for check and inspect, "
        "the types the chart uses that are not built in are taken as it uses them",
    )
    parser.add_argument("--trace", choices=tuple(_LEVELS), default="basic", help="trace level")
    parser.add_argument(
        "-w",
        "--watch",
        action="store_true",
        help="after the script, read events from standard input and reload the chart "
        "whenever its file changes, keeping the active states that did not change",
    )
    parser.add_argument(
        "--poll",
        type=positive_number,
        default=0.5,
        metavar="SECONDS",
        help="how often --watch looks at the file",
    )


def _load(path: Path, registry: str | None) -> Chart:
    """The chart, as ``check`` and ``inspect`` take it: without ``--registry`` the types it
    uses that are not built in are taken as it uses them (see :func:`_note`)."""
    if registry is not None:
        return load(path, load_registry(registry))
    return loads_stand_in(read_chart_file(path), chart_format(path), file=str(path))


def _note(chart: Chart, registry: str | None) -> None:
    """Say on standard error which types were taken as the chart uses them (once the script
    has been read: a script's error is then the one line printed)."""
    names = () if registry is not None else stand_in_names(chart)
    if names:
        print(
            f"statetree: note: without --registry, the chart's own types ({', '.join(names)}) "
            "are taken as it uses them (host actions only print)",
            file=sys.stderr,
        )


def _prompt() -> None:
    print(PROMPT, end="", file=sys.stderr, flush=True)


def _run(args: argparse.Namespace) -> int:
    path = existing_file(args.chart, "chart file")
    try:
        chart_format(path)
    except ChartError as error:  # the command cannot run: a usage error, as for check
        raise UsageError(str(error)) from None
    events = None if args.events is None else existing_file(args.events, "events script")
    chart = _load(path, args.registry)
    session = ChartSession(chart, print, _LEVELS[args.trace])
    typed = events is None and sys.stdin.isatty()
    if events is not None or (not args.watch and not typed):
        source = str(events or "<stdin>")
        script = read_script(_script_text(events), source, chart.registry)
        _note(chart, args.registry)
        session.play(script, source)
    else:
        _note(chart, args.registry)
    if args.watch or typed:
        # Line by line, each played as it comes; a person at a terminal gets a prompt.
        if typed:
            print(HINT.format(kinds=", ".join(chart.registry.triggers)), file=sys.stderr)
        session.play([])
        watcher = ChartWatcher(path, _registry_or_stand_in(args.registry)) if args.watch else None
        watch(session, watcher, input_lines(args.poll), _prompt if typed else None)
        if typed:
            print(file=sys.stderr)
    print(f"active: {', '.join(session.machine.active)}")
    return EXIT_OK


def _script_text(events: Path | None) -> str:
    """The text of the events script at ``events`` (size-limited), or piped on standard
    input (whole, of any size), read as chart files are: UTF-8, with or without a byte
    order mark.

    Raises:
        ScriptError: it cannot be read, or is not such text.
    """
    try:
        if events is None:
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else None
            text = sys.stdin.read() if data is None else decode(data, "<stdin>", limited=False)
        else:
            text = read_chart_file(events, "an events script")
    except ChartError as error:
        raise ScriptError(str(error)) from None
    return text.removeprefix("\ufeff")


def _registry_or_stand_in(name: str | None) -> Registry | None:
    return None if name is None else load_registry(name)


RUN_COMMAND: Command = Command(
    name="run",
    summary="run a chart on a script of events, printing the trace and the actions",
    description=(
        "Load a chart file, start it, and play a script of events (input, anim_finished, "
        "timer, event, any registered trigger type; tick SECONDS; hold / release), printing "
        "each step, the trace lines and every action performed. With --watch the chart is "
        "reloaded whenever its file changes, keeping the active states that did not change."
    ),
    add_arguments=_add_arguments,
    run=_run,
    examples=(
        "statetree run examples/charts/combo_attack.yaml "
        "--registry examples/charts/game.py --events examples/charts/combo_attack.events",
        "statetree run examples/charts/platformer.yaml --registry examples/chart_platformer.py "
        "--watch",
    ),
)
