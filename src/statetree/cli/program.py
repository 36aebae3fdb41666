"""The ``statetree`` program: its parser, built from the commands, and ``main``.

Each subcommand is a :class:`~statetree.cli.command.Command`; :data:`COMMANDS` lists them
in the order ``statetree --help`` shows them.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import textwrap
from collections.abc import Sequence
from importlib import metadata

from statetree.cli import check_command, inspect_command, net_command, plot_command, run_command
from statetree.cli.command import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Command
from statetree.cli.report import HelpFormatter, report_error
from statetree.core.build import build_name
from statetree.errors import StateTreeError, UsageError

__all__ = [
    "COMMANDS",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "Command",
    "build_parser",
    "main",
]

COMMANDS: tuple[Command, ...] = (
    plot_command.COMMAND,
    check_command.COMMAND,
    run_command.RUN_COMMAND,
    inspect_command.COMMAND,
    net_command.COMMAND,
)
"""The subcommands, in help order. Add new ones here."""

_WIDTH = 88
_DESCRIPTION = """\
Tools for statetree hierarchical state machines. A machine is named by its initial state
class, as MODULE:STATE (a dotted module or a .py file, then the class), e.g.
game.states:CharacterStates.Alive, or by a chart file (.yaml, .toml, .json). Its structure
is read from the code or the chart; nothing is run except importing the module."""


def _version() -> str:
    try:
        return metadata.version("statetree")
    except metadata.PackageNotFoundError:
        return "unknown"


def _epilog(commands: Sequence[Command]) -> str:
    lines = ["examples:"]
    lines += [f"  {example}" for command in commands for example in command.examples[:1]]
    lines.append("\nRun 'statetree COMMAND --help' for the options of a command.")
    return "\n".join(lines)


def build_parser(commands: Sequence[Command] = COMMANDS) -> argparse.ArgumentParser:
    """The argument parser of the ``statetree`` program, with one subparser per command."""
    parser = argparse.ArgumentParser(
        prog="statetree",
        description=_DESCRIPTION,
        epilog=_epilog(commands),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"statetree {_version()} ({build_name()})"
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for command in commands:
        examples = "\n".join(f"  {example}" for example in command.examples)
        sub = subparsers.add_parser(
            command.name,
            help=command.summary,
            description=textwrap.fill(command.description, _WIDTH),
            epilog=f"examples:\n{examples}" if examples else None,
            formatter_class=HelpFormatter,
        )
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def _discard_output() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # standard output is not a file (captured): nothing will be flushed into it


def _escape_unencodable() -> None:
    # A name read from a file may hold what the terminal cannot encode (a lone surrogate,
    # which a JSON escape can make): it is printed escaped rather than failing the command.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None, commands: Sequence[Command] = COMMANDS) -> int:
    """Run the ``statetree`` program; returns the exit status.

    A user's mistake never ends in a traceback: library errors and missing optional
    dependencies are reported as ``statetree: error: ...`` lines on standard error (one per
    problem), with exit status 2 for a command line that cannot run and 1 for a problem found.
    """
    _escape_unencodable()
    parser = build_parser(commands)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        status: int = args.run(args)
        sys.stdout.flush()  # here, where a full disk can still be reported
    except (StateTreeError, ImportError) as error:
        report_error(error)
        return EXIT_USAGE if isinstance(error, UsageError) else EXIT_FAILED
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (statetree plot ... | head): nothing more to say to it, and
        # nothing left for Python to flush into the closed pipe on the way out.
        _discard_output()
        return EXIT_FAILED
    except OSError as error:
        # Files a command reads or writes are reported by the command; what is left is its
        # output (standard output on a full disk, say).
        reason = error.strerror or error
        line = f"cannot write the output: {reason}"
        if error.filename is not None:
            line = f"{error.filename!r}: {reason}"
        print(f"statetree: error: {line}", file=sys.stderr)
        _discard_output()
        return EXIT_FAILED
    return status
