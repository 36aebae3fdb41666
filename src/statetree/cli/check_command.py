"""``statetree check``: validate a machine, a chart file or a bitmask definition."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from statetree.bitmask import BitmaskDefinition
from statetree.cli.chart_check import check_chart_file
from statetree.cli.command import EXIT_FAILED, EXIT_OK, Command
from statetree.cli.rule_check import rule_count, rule_issues
from statetree.cli.structures import (
    add_registry_argument,
    code_machines,
    is_chart_file,
    load_registry,
    plottable,
)
from statetree.structure import Issue, Severity, Structure
from statetree.targets import TARGET_HELP, existing_file, shown_path

__all__ = ["COMMAND", "STRUCTURE_CHECKS", "Checked", "check_target", "format_issue"]


@dataclass(frozen=True, slots=True)
class Checked:
    """One machine checked: a heading and what was found, errors first, then by place."""

    heading: str
    issues: tuple[Issue, ...]

    @property
    def errors(self) -> int:
        """How many issues are errors."""
        return sum(issue.severity is Severity.ERROR for issue in self.issues)

    @property
    def warnings(self) -> int:
        """How many issues are warnings."""
        return len(self.issues) - self.errors


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' * (number != 1)}"


def _sorted(issues: list[Issue]) -> tuple[Issue, ...]:
    def key(issue: Issue) -> tuple[bool, str, int]:
        where = issue.location
        return (
            issue.severity is not Severity.ERROR,
            where.file if where else "",
            where.line if where else 0,
        )

    return tuple(sorted(issues, key=key))


def _structure_heading(structure: Structure) -> str:
    states, edges = len(structure.states), len(structure.edges)
    return f"{structure.initial}: {_count(states, 'state')}, {_count(edges, 'transition')}"


def _validation(structure: Structure) -> Iterable[Issue]:
    return structure.validate().issues


STRUCTURE_CHECKS: tuple[Callable[[Structure], Iterable[Issue]], ...] = (_validation,)
"""What is checked on every structure (class-based machines and charts that load). To check
something more, add a function returning its issues here."""


def _structure_checked(structure: Structure, extra: tuple[Issue, ...] = ()) -> Checked:
    issues = [*extra, *(issue for check in STRUCTURE_CHECKS for issue in check(structure))]
    return Checked(_structure_heading(structure), _sorted(issues))


def _rules_checked(definition: BitmaskDefinition) -> Checked:
    name = definition.name or "bitmask definition"
    counts = f"{_count(definition.size, 'state')}, {_count(rule_count(definition), 'rule')}"
    return Checked(f"{name} (bitmask): {counts}", _sorted(list(rule_issues(definition))))


def _chart_checked(path: str, registry: str | None) -> Checked:
    chosen = None if registry is None else load_registry(registry)
    found = check_chart_file(str(existing_file(path, "chart file")), chosen)
    if found.library is not None:
        patterns = ", ".join(found.library) or "none"
        heading = f"{shown_path(path)}: pattern library ({patterns})"
        return Checked(heading, _sorted(list(found.issues)))
    if found.structure is None:
        return Checked(f"{shown_path(path)}: does not load", _sorted(list(found.issues)))
    if not found.valid:  # the chart's errors say it all; its structure is not checked
        return Checked(_structure_heading(found.structure), _sorted(list(found.issues)))
    return _structure_checked(found.structure, found.issues)


def check_target(target: str, registry: str | None = None) -> Iterator[Checked]:
    """Check every machine ``target`` names: a chart file, a module, a state, a bitmask.

    Raises:
        LoadError: the target (or the registry) does not load.
    """
    if is_chart_file(target):
        yield _chart_checked(target, registry)
        return
    for machine in code_machines(target, registry):
        drawn = plottable(machine)
        yield (
            _rules_checked(drawn)
            if isinstance(drawn, BitmaskDefinition)
            else _structure_checked(drawn)
        )


def format_issue(issue: Issue) -> str:
    """``error: file:line: message [code]``, the file relative to the current directory."""
    where = issue.location
    at = f"{shown_path(where.file)}:{where.line}: " if where else ""
    return f"{issue.severity.value}: {at}{issue.message} [{issue.code}]"


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="MODULE[:STATE] | CHART", help=TARGET_HELP)
    add_registry_argument(parser)
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail on warnings too (unreachable states, unresolved transitions, names a "
        "chart's host registry defines that were not checked, ...)",
    )


def _run(args: argparse.Namespace) -> int:
    failed = False
    for checked in check_target(args.target, args.registry):
        print(checked.heading)
        for issue in checked.issues:
            print(f"  {format_issue(issue)}")
        print(f"  {_count(checked.errors, 'error')}, {_count(checked.warnings, 'warning')}")
        failed = failed or bool(checked.errors) or (args.strict and bool(checked.warnings))
    return EXIT_FAILED if failed else EXIT_OK


COMMAND = Command(
    name="check",
    summary="validate a machine, chart or bitmask definition: what would fail, what looks wrong",
    description=(
        "Check a machine's structure, read from its code, a chart file or a bitmask "
        "definition, without running it. Errors (transitions to things that are not states "
        "of the machine, a chart that statetree run would refuse) make the exit status 1; "
        "warnings (unreachable states, siblings at different depths, states at several "
        "depths, transitions whose targets cannot be told from the code, bitmask states that "
        "can never be active, chart names only the host's registry defines when no "
        "--registry is given, chart patterns, parameters and imports never used) do too "
        "with --strict. A file of chart patterns only (a pattern library) is checked for "
        "its declarations."
    ),
    add_arguments=_add_arguments,
    run=_run,
    examples=(
        "statetree check examples/plot_character.py",
        "statetree check examples/book/reusable_states.py --strict",
        "statetree check examples/charts/combo_attack.yaml --registry examples/charts/game.py",
        "statetree check examples/bitmask_player.py",
    ),
)
