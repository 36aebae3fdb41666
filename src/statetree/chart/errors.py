"""The errors of charts: bad definitions (:class:`ChartError`) and misuse at run time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from statetree.errors import DefinitionError, UsageError

__all__ = ["ChartError", "HandlerError", "Problem", "ScriptError", "UsedAt"]

SHOWN_PROBLEMS = 50
"""How many problems the message of a :class:`ChartError` lists (``problems`` has all)."""


def _where(file: str, line: int) -> str:
    return f"{file}:{line}" if line else file


@dataclass(frozen=True, slots=True)
class UsedAt:
    """A use of a pattern, as a problem inside the pattern names it.

    Attributes:
        pattern: the pattern's name.
        file: the file the use is written in.
        line: the use's line there (0 when unknown).
    """

    pattern: str
    file: str
    line: int = 0

    def __str__(self) -> str:
        return f"in {self.pattern}, used at {_where(self.file, self.line)}"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a chart definition.

    Attributes:
        message: what is wrong, naming the state and what to do.
        path: where in the document, e.g. ``root.states[0].transitions[1].to``.
        file: the file the chart came from (``"<data>"`` when built in Python), or the
            file of the pattern the problem lies in.
        line: the 1-based line in ``file``, or 0 when unknown.
        uses: for a problem inside a pattern, the uses it was expanded by, innermost
            first (each names its file and line).
    """

    message: str
    path: str = ""
    file: str = "<data>"
    line: int = 0
    uses: tuple[UsedAt, ...] = ()

    @property
    def described(self) -> str:
        """The message, then the uses of patterns it lies in: ``... (in Step, used at
        hero.yaml:16)``."""
        via = f" ({'; '.join(map(str, self.uses))})" if self.uses else ""
        return f"{self.message}{via}"

    def __str__(self) -> str:
        at = f" at {self.path}" if self.path else ""
        return f"{_where(self.file, self.line)}{at}: {self.described}"


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
