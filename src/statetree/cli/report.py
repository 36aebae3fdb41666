"""How the ``statetree`` program talks to people: help texts and error lines."""

from __future__ import annotations

import argparse
import sys

from statetree.chart.errors import ChartError

__all__ = ["HelpFormatter", "error_lines", "report_error"]


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples' line breaks, and shows each option's default in its help."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        shown = default not in (None, False, argparse.SUPPRESS) and action.option_strings
        if shown and "default" not in text:
            return f"{text} (default: %(default)s)"
        return action.help


def error_lines(error: BaseException) -> list[str]:
    """What to print for ``error``: one line per problem, sorted by file and line."""
    if isinstance(error, ChartError):
        problems = sorted(error.problems, key=lambda problem: (problem.file, problem.line))
        return [" ".join(str(problem).split()) for problem in problems]
    return [" ".join(str(error).split()) or type(error).__name__]


def report_error(error: BaseException) -> None:
    """Print ``error`` on standard error as ``statetree: error: ...`` lines."""
    for line in error_lines(error):
        print(f"statetree: error: {line}", file=sys.stderr)
