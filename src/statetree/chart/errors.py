"""The errors of charts: bad definitions (:class:`ChartError`) and misuse at run time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from statetree.errors import DefinitionError, UsageError

__all__ = ["ChartError", "HandlerError", "Problem", "ScriptError"]

SHOWN_PROBLEMS = 50
"""How many problems the message of a :class:`ChartError` lists (``problems`` has all)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a chart definition.

    Attributes:
        message: what is wrong, naming the state and what to do.
        path: where in the document, e.g. ``root.states[0].transitions[1].to``.
        file: the file the chart came from (``"<data>"`` when built in Python).
        line: the 1-based line in ``file``, or 0 when unknown.
    """

    message: str
    path: str = ""
    file: str = "<data>"
    line: int = 0

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        at = f" at {self.path}" if self.path else ""
        return f"{where}{at}: {self.message}"


class ChartError(DefinitionError):
    """A chart cannot be used: it does not parse, or its definition can never work.

    Nothing of a chart that raised this is ever used. The fields describe the first
    problem; :attr:`problems` lists every problem found, in document order, and the
    message the first :data:`SHOWN_PROBLEMS` of them, one per line.

    Attributes:
        file: the file of the first problem.
        line: its line (0 when unknown).
        path: its place in the document.
        message: what is wrong.
        problems: every problem found.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        if not problems:
            raise ValueError("ChartError needs at least one problem")
        self.problems = tuple(problems)
        first = self.problems[0]
        self.file = first.file
        self.line = first.line
        self.path = first.path
        self.message = first.message
        lines = [str(problem) for problem in self.problems[:SHOWN_PROBLEMS]]
        hidden = len(self.problems) - len(lines)
        if hidden:
            lines.append(f"... and {hidden} more problems")
        super().__init__("\n".join(lines))


class HandlerError(UsageError):
    """A chart machine lacks a handler for an action its chart uses."""


class ScriptError(UsageError):
    """A line of an events script cannot be read (see :func:`read_script`)."""
