"""The ``statetree`` command (also ``python -m statetree``): see :mod:`statetree.cli.program`.

Its names are imported when first read (:mod:`statetree.exports`): the commands import most
of the package, which ``import statetree`` does not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statetree.exports import Exports

if TYPE_CHECKING:
    from statetree.cli.command import EXIT_FAILED as EXIT_FAILED
    from statetree.cli.command import EXIT_INTERRUPTED as EXIT_INTERRUPTED
    from statetree.cli.command import EXIT_OK as EXIT_OK
    from statetree.cli.command import EXIT_USAGE as EXIT_USAGE
    from statetree.cli.command import Command as Command
    from statetree.cli.program import COMMANDS as COMMANDS
    from statetree.cli.program import build_parser as build_parser
    from statetree.cli.program import main as main

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

_EXPORTS = Exports(
    __name__,
    {
        "statetree.cli.command": (
            "EXIT_FAILED",
            "EXIT_INTERRUPTED",
            "EXIT_OK",
            "EXIT_USAGE",
            "Command",
        ),
        "statetree.cli.program": ("COMMANDS", "build_parser", "main"),
    },
)
__getattr__ = _EXPORTS.attribute
__dir__ = _EXPORTS.dir
