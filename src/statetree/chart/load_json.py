"""Reading a chart document from JSON text."""

from __future__ import annotations

import json
import re
from types import MappingProxyType

from statetree.chart.document import Document, syntax_error
from statetree.chart.errors import ChartError, Problem
from statetree.chart.locate import locate_json
from statetree.chart.model import format_path
from statetree.chart.text import check_nesting

__all__ = ["read"]

_TOKENS = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_]\w*|(?P<open>[\[{])|(?P<close>[\]}])|(?P<word>-?[0-9][\w.+-]*)'
)


def read(text: str, file: str = "<json>") -> Document:
    """Parse JSON ``text`` into a :class:`Document` with the line of every key and item.

    Raises:
        ChartError: the text is not JSON, nests too deeply, has a number too long, or an
            object repeats a key.
    """
    check_nesting(text, file, _TOKENS)
    try:
        data: object = json.loads(text)
    except json.JSONDecodeError as error:
        raise syntax_error(file, error.lineno, f"not valid JSON: {error.msg}") from None
    found = locate_json(text, file)
    if found.repeated:
        raise ChartError(
            [
                Problem(f"the key {path[-1]!r} appears twice", format_path(path), file, line)
                for path, line in found.repeated
            ]
        )
    return Document(data, file, MappingProxyType(found.lines))
