"""``statetree run``: run a chart on a script of events, printing the trace and the actions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from statetree.chart.events import read_script
from statetree.chart.load import load
from statetree.chart.session import ChartSession, watch
from statetree.chart.watch import ChartWatcher, input_lines
from statetree.cli.command import EXIT_OK, Command, positive_number
from statetree.cli.structures import load_registry
from statetree.core.trace import TraceLevel
from statetree.targets import existing_file

__all__ = ["RUN_COMMAND"]

_LEVELS = {"basic": TraceLevel.BASIC, "diagnostic": TraceLevel.DIAGNOSTIC}


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("chart", type=Path, metavar="CHART", help="a .yaml, .toml or .json chart")
    parser.add_argument(
        "-e",
        "--events",
        type=Path,
        metavar="FILE",
        help="the events script, one per line: 'input Jump', 'tick 0.5', 'hold Jump'... "
        "(default: standard input)",
    )
    parser.add_argument(
        "-r",
        "--registry",
        metavar="MODULE:NAME",
        help="the host's registry of trigger and action types (a dotted module or a .py "
        "file, then the name; default name REGISTRY). Without it only built-ins are known",
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


def _run(args: argparse.Namespace) -> int:
    chart = existing_file(args.chart, "chart file")
    events = None if args.events is None else existing_file(args.events, "events script")
    registry = load_registry(args.registry)
    session = ChartSession(load(chart, registry), print, _LEVELS[args.trace])
    if events is not None:
        session.play(read_script(events.read_text(encoding="utf-8"), str(events)))
    elif not args.watch:
        session.play(read_script(sys.stdin.read(), "<stdin>"))
    if args.watch:
        watch(session, ChartWatcher(args.chart, registry), input_lines(args.poll))
    print(f"active: {', '.join(session.machine.active)}")
    return EXIT_OK


RUN_COMMAND = Command(
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
