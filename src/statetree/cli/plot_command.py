"""``statetree plot``: draw a machine as DOT, Mermaid, SVG or PNG."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from statetree.cli.command import EXIT_OK, Command
from statetree.cli.structures import add_registry_argument, load_structures
from statetree.plot import DEFAULT_STYLE, EXTENSIONS, PlotStyle, check_format, format_for
from statetree.plot.output import PlotFormat, plot_bytes
from statetree.targets import TARGET_HELP, LoadError

__all__ = ["COMMAND"]


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="MODULE[:STATE] | CHART", help=TARGET_HELP)
    add_registry_argument(parser)
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="the file to write; its extension picks the format "
        f"({', '.join(EXTENSIONS)}). Without it, the plot goes to standard output",
    )
    parser.add_argument(
        "-f",
        "--format",
        choices=("dot", "mmd", "svg", "png"),
        help="the output format, when the file name does not say it "
        "(default for standard output: dot). svg and png need Graphviz",
    )
    parser.add_argument(
        "--no-clusters",
        action="store_true",
        help="do not group states whose names share a Prefix_ in boxes",
    )


def _format(args: argparse.Namespace) -> PlotFormat:
    if args.format:
        return check_format(args.format)
    return format_for(args.output) if args.output else "dot"


def _run(args: argparse.Namespace) -> int:
    structures = load_structures(args.target, args.registry)
    if len(structures) > 1:
        names = ", ".join(structure.initial for structure in structures)
        raise LoadError(
            f"{args.target!r} defines several machines ({names}); "
            f"name one, e.g. {args.target}:{structures[0].initial}"
        )
    style = PlotStyle(clusters=False) if args.no_clusters else DEFAULT_STYLE
    data = plot_bytes(structures[0], _format(args), style=style)
    if args.output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        args.output.write_bytes(data)
        print(f"wrote {args.output}")
    return EXIT_OK


COMMAND = Command(
    name="plot",
    summary="draw a machine's states and transitions (DOT, Mermaid, SVG, PNG)",
    description=(
        "Draw the structure of a machine, read from its code or chart without running it. "
        "Each state shows its depth in parentheses; deeper states are brighter; a dot points "
        "at the initial state; bold arrows are inner-entry transitions, solid ones inner "
        "transitions, dotted ones siblings; a chart's arrows say when they are taken "
        "(input: Attack); states named Prefix_Name are grouped in a box labelled Prefix."
    ),
    add_arguments=_add_arguments,
    run=_run,
    examples=(
        "statetree plot game.states:CharacterStates.Alive -o character.svg",
        "statetree plot examples/plot_character.py -o character.mmd",
        "statetree plot examples/charts/combo_attack.yaml -o combo.svg",
        "statetree plot game.states:CharacterStates.Alive | dot -Tpdf > character.pdf",
    ),
)
