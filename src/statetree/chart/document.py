"""A chart document as read from a file: plain data plus the line of every place in it."""

from __future__ import annotations

from collections.abc import Mapping
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
        tree: the reader's own tree when it keeps more than the data (the YAML reader
            keeps comments there, for editors that save the file back); else ``None``.
    """

    data: object
    file: str
    lines: Mapping[DataPath, int] = field(default_factory=dict)
    tree: object = field(default=None, compare=False, repr=False)

    @property
    def origin(self) -> Origin:
        """The file and lines, as kept by the chart built from this document."""
        return Origin(self.file, MappingProxyType(dict(self.lines)))


def syntax_error(file: str, line: int, message: str) -> ChartError:
    """The error for a document that does not parse at all."""
    return ChartError([Problem(message, "", file, line)])
