"""``statetree check``: validate a machine's structure."""

from __future__ import annotations

import argparse

from statetree.cli.command import EXIT_FAILED, EXIT_OK, Command
from statetree.cli.structures import add_registry_argument, load_structures
from statetree.structure import Structure, ValidationReport
from statetree.targets import TARGET_HELP

__all__ = ["COMMAND"]


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="MODULE[:STATE] | CHART", help=TARGET_HELP)
    add_registry_argument(parser)
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail on warnings too (unreachable states, unresolved transitions, ...)",
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' * (number != 1)}"


def _heading(structure: Structure) -> str:
    states = _count(len(structure.states), "state")
    return f"{structure.initial}: {states}, {_count(len(structure.edges), 'transition')}"


def _failed(report: ValidationReport, strict: bool) -> bool:
    return not report.ok or (strict and bool(report.warnings))


def _run(args: argparse.Namespace) -> int:
    failed = False
    for structure in load_structures(args.target, args.registry):
        report = structure.validate()
        print(_heading(structure))
        print("\n".join("  " + line for line in str(report).splitlines()))
        failed = failed or _failed(report, args.strict)
    return EXIT_FAILED if failed else EXIT_OK


COMMAND = Command(
    name="check",
    summary="validate a machine: unknown targets, unreachable states, depth problems",
    description=(
        "Derive the structure of a machine from its code and check it. Errors (transitions "
        "to things that are not states of the machine) make the exit status 1; warnings "
        "(unreachable states, siblings at different depths, states at several depths, "
        "transitions whose targets cannot be told from the code) do too with --strict."
    ),
    add_arguments=_add_arguments,
    run=_run,
    examples=(
        "statetree check game.states:CharacterStates.Alive",
        "statetree check examples/book/reusable_states.py --strict",
        "statetree check examples/charts/combo_attack.yaml --registry examples/charts/game.py",
    ),
)
