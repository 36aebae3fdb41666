"""A chart document as read from a file: plain data plus the line of every place in it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from statetree.chart.errors import ChartError, Problem
from statetree.chart.model import DataPath, Origin

__all__ = ["Document", "syntax_error"]


@dataclass(frozen=True, slots=True)
class Document:
    """What a format reader produces, before the chart model is built.

    Attributes:
        data: plain data: dicts, lists, strings, numbers, booleans, ``None``.
        file: the file name used in error messages.
        lines: the 1-based line of each key and list item, by data path.
        editable: builds the reader's own tree, for a reader that keeps more than the data
            (see :attr:`tree`); else ``None``.
    """

    data: object
    file: str
    lines: Mapping[DataPath, int] = field(default_factory=dict)
    editable: Callable[[], object] | None = field(default=None, compare=False, repr=False)

    @property
    def tree(self) -> object:
        """The reader's own tree when it keeps more than the data, else ``None``.

        The YAML reader keeps comments and layout there, for editors that save the file
        back; the tree is built on first use.

        Raises:
            ChartError: the reader cannot build its tree.
        """
        return None if self.editable is None else self.editable()

    @property
    def origin(self) -> Origin:
        """The file and lines, as kept by the chart built from this document."""
        lines = self.lines
        if not isinstance(lines, MappingProxyType):
            lines = MappingProxyType(dict(lines))
        return Origin(self.file, lines)


def syntax_error(file: str, line: int, message: str) -> ChartError:
    """The error for a document that does not parse at all."""
    return ChartError([Problem(message, "", file, line)])
