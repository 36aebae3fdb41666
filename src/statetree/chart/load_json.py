"""Reading a chart document from JSON text."""

from __future__ import annotations

import json
from types import MappingProxyType

from statetree.chart.document import Document, syntax_error
from statetree.chart.errors import ChartError, Problem
from statetree.chart.locate import locate_json
from statetree.chart.model import format_path

__all__ = ["read"]


def read(text: str, file: str = "<json>") -> Document:
    """Parse JSON ``text`` into a :class:`Document` with the line of every key and item.

    Raises:
        ChartError: the text is not JSON, or an object repeats a key.
    """
    try:
        data: object = json.loads(text)
    except json.JSONDecodeError as error:
        raise syntax_error(file, error.lineno, f"not valid JSON: {error.msg}") from error
    found = locate_json(text)
    if found.repeated:
        raise ChartError(
            [
                Problem(f"the key {path[-1]!r} appears twice", format_path(path), file, line)
                for path, line in found.repeated
            ]
        )
    return Document(data, file, MappingProxyType(found.lines))
