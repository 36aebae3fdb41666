"""How a subcommand of ``statetree`` is described and registered.

A command is a :class:`Command` value: its name, its help texts, a function that adds its
arguments to its parser and a function that runs it. The commands the program offers are
listed, in order, in :data:`statetree.cli.COMMANDS`; to add one, write a module that
defines its ``COMMAND`` and add that to the list. Import heavy dependencies inside ``run``
so that ``statetree --help`` stays fast.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from statetree.errors import UsageError

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "Command",
    "file_name",
    "not_the_input",
    "positive_number",
]

EXIT_OK = 0
"""The command ran and found nothing wrong."""
EXIT_FAILED = 1
"""The command ran and found problems (a failed check, a failed render)."""
EXIT_USAGE = 2
"""The command could not run: bad arguments, a module that does not load, no such state."""
EXIT_INTERRUPTED = 130
"""Stopped with Ctrl-C (the shell's status for an interrupt)."""


@dataclass(frozen=True, slots=True)
class Command:
    """One ``statetree <name>`` subcommand.

    Attributes:
        name: what the user types.
        summary: one line for the command list of ``statetree --help``.
        description: the text at the top of ``statetree <name> --help``.
        add_arguments: adds the command's arguments to its parser.
        run: runs the command with the parsed arguments; returns the exit status. Errors
            are raised as :class:`~statetree.StateTreeError` and reported in one line.
        examples: command lines shown at the end of ``statetree <name> --help``.
    """

    name: str
    summary: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    examples: tuple[str, ...] = ()


def positive_number(text: str) -> float:
    """An argument type: a number above 0 (``--dpi 144``, ``--poll 0.5``).

    Raises:
        argparse.ArgumentTypeError: ``text`` is not such a number (argparse reports it as
            a usage error, exit status 2).
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"needs a number above 0; {text!r} is not a number")
    if math.isinf(value):
        raise argparse.ArgumentTypeError(f"needs a number above 0; {text!r} is too large")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"needs a number above 0, got {text}")
    return value


def file_name(text: str) -> Path:
    """An argument type: the name of a file to write (``-o hero.svg``).

    Raises:
        argparse.ArgumentTypeError: ``text`` is empty (which ``Path`` reads as ``.``).
    """
    if not text:
        raise argparse.ArgumentTypeError("needs a file name, got ''")
    return Path(text)


def not_the_input(output: Path | None, target: str, registry: str | None = None) -> None:
    """Refuse an output file that is the file ``target`` or ``registry`` names (a chart
    file, or a ``file.py`` module): writing it would replace what the command reads.

    Raises:
        UsageError: it is.
    """
    if output is None or not output.exists():
        return
    for role, given in (("target", target), ("--registry", registry)):
        for named in {given or "", (given or "").rpartition(":")[0]} - {""}:  # MODULE.py:NAME
            try:
                same = os.path.isfile(named) and os.path.samefile(named, output)
            except OSError:
                same = False
            if same:
                raise UsageError(
                    f"-o {str(output)!r} is the file of the {role} {given!r}: writing the "
                    "output there would replace it; give another file name"
                )
