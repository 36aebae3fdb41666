"""``statetree plot``: draw a machine as DOT, Mermaid, SVG or PNG."""

from __future__ import annotations

import argparse
import sys

from statetree.cli.command import EXIT_OK, Command, file_name, not_the_input, positive_number
from statetree.cli.structures import add_registry_argument, load_plottables
from statetree.errors import UsageError
from statetree.plot import (
    DEFAULT_DPI,
    DEFAULT_STYLE,
    EXTENSIONS,
    PlotFormat,
    PlotStyle,
    Plottable,
    check_format,
    format_for,
    plot_bytes,
    write_plot,
)
from statetree.plot.rendering import MAX_DPI, MIN_DPI
from statetree.structure import Structure
from statetree.targets import TARGET_HELP, LoadError

__all__ = ["COMMAND"]


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="MODULE[:STATE] | CHART", help=TARGET_HELP)
    add_registry_argument(parser)
    parser.add_argument(
        "-o",
        "--output",
        type=file_name,
        metavar="FILE",
        help="the file to write; its extension picks the format "
        f"({', '.join(EXTENSIONS)}). Without it, the plot goes to standard output",
    )
    parser.add_argument(
        "-f",
        "--format",
        choices=tuple(dict.fromkeys(EXTENSIONS.values())),
        help="the output format, when the file name does not say it (standard output: "
        "dot unless given); svg, png and pdf need Graphviz",
    )
    parser.add_argument(
        "--dpi",
        type=_dpi,
        default=DEFAULT_DPI,
        metavar="N",
        help=f"the resolution of a PNG, in dots per inch, from {MIN_DPI} to {MAX_DPI}",
    )
    parser.add_argument(
        "--no-clusters",
        action="store_true",
        help="do not group states whose names share a Prefix_ in boxes",
    )
    parser.add_argument(
        "--collapse-patterns",
        action="store_true",
        help="for a chart file: draw each use of a pattern as one box noted with the "
        "pattern's name, without the states the pattern puts inside it",
    )


def _dpi(text: str) -> float:
    value = positive_number(text)
    if not MIN_DPI <= value <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"needs {MIN_DPI} to {MAX_DPI} dots per inch, got {text}")
    return value


def _format(args: argparse.Namespace) -> PlotFormat:
    named = EXTENSIONS.get(args.output.suffix.lower()) if args.output else None
    if args.format:
        chosen = check_format(args.format)
        if named is not None and named != chosen:
            raise UsageError(
                f"--format {chosen} does not match the file name {str(args.output)!r} "
                f"({args.output.suffix} is {named}): leave --format out or change the name"
            )
        return chosen
    return format_for(args.output) if args.output else "dot"


def _name(plotted: Plottable) -> str:
    return plotted.initial if isinstance(plotted, Structure) else plotted.name


def _one(target: str, found: list[Plottable]) -> Plottable:
    if len(found) > 1:
        names = ", ".join(_name(plotted) for plotted in found)
        raise LoadError(
            f"{target!r} defines several machines ({names}); "
            f"name one, e.g. {target.rstrip(':')}:{_name(found[0])}"
        )
    return found[0]


def _run(args: argparse.Namespace) -> int:
    not_the_input(args.output, args.target, args.registry)
    format = _format(args)
    found = load_plottables(args.target, args.registry, collapse=args.collapse_patterns)
    plotted = _one(args.target, found)
    style = PlotStyle(clusters=False) if args.no_clusters else DEFAULT_STYLE
    if args.output is None:
        sys.stdout.buffer.write(plot_bytes(plotted, format, style=style, dpi=args.dpi))
        sys.stdout.flush()
    else:
        write_plot(plotted, args.output, format=format, style=style, dpi=args.dpi)
        print(f"wrote {args.output}")
    return EXIT_OK


COMMAND: Command = Command(
    name="plot",
    summary="draw a machine's states and transitions, or a bitmask's rules (DOT, SVG, PNG...)",
    description=(
        "Draw the structure of a machine, read from its code or chart without running it. "
        "Each state shows its depth in parentheses; deeper states are brighter; a dot points "
        "at the initial state; bold arrows are inner-entry transitions, solid ones inner "
        "transitions, dotted ones siblings; a chart's arrows say when they are taken "
        "(input: Attack); states named Prefix_Name are grouped in a box labelled Prefix; "
        "a chart state that is a use of a pattern is noted «Pattern» under its name. "
        "A bitmask definition is drawn as its rules: which states require, terminate and "
        "block which."
    ),
    add_arguments=_add_arguments,
    run=_run,
    examples=(
        "statetree plot examples/plot_character.py -o character.svg",
        "statetree plot examples/character.py:CharacterStates.Alive -o character.png --dpi 200",
        "statetree plot examples/charts/combo_attack.yaml -o combo.pdf",
        "statetree plot examples/charts/combo_attack.yaml --collapse-patterns -f mmd",
        "statetree plot examples/bitmask_player.py:PLAYER_STATES -f mmd",
    ),
)
