"""Reading and writing YAML with ``ruamel.yaml``, keeping comments.

The round-trip loader keeps comments and positions in its tree; the tree is returned with
the plain data so that an editor can change values and save the file with its comments.
This is the only module that imports ``ruamel.yaml``; it is itself imported on first use
(see :func:`statetree.chart.load.read_document`), so charts in other formats never need it.
"""

from __future__ import annotations

import io
from types import MappingProxyType
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from statetree.chart.document import Document, syntax_error
from statetree.chart.model import DataPath

__all__ = ["read", "write"]


def read(text: str, file: str = "<yaml>") -> Document:
    """Parse YAML ``text`` into a :class:`Document` with the line of every key and item.

    Raises:
        ChartError: the text is not YAML, or a mapping repeats a key.
    """
    try:
        tree = YAML(typ="rt").load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else 0
        raise syntax_error(file, line, f"not valid YAML: {error.problem}") from error
    except YAMLError as error:
        raise syntax_error(file, 0, f"not valid YAML: {error}") from error
    lines: dict[DataPath, int] = {}
    data = _plain(tree, (), lines)
    return Document(data, file, MappingProxyType(lines), tree)


def _plain(node: Any, path: DataPath, lines: dict[DataPath, int]) -> object:
    """``node`` as plain Python data, noting the line of each key and item in ``lines``."""
    if isinstance(node, dict):
        result: dict[str, object] = {}
        for key, value in node.items():
            where = (*path, str(key))
            if hasattr(node, "lc"):
                lines[where] = node.lc.key(key)[0] + 1
            result[str(key)] = _plain(value, where, lines)
        return result
    if isinstance(node, list):
        items: list[object] = []
        for index, value in enumerate(node):
            place = (*path, index)
            if hasattr(node, "lc"):
                lines[place] = node.lc.item(index)[0] + 1
            items.append(_plain(value, place, lines))
        return items
    return _scalar(node)


def _scalar(node: Any) -> object:
    """The plain value of a scalar (the round-trip loader subclasses int, float, str)."""
    for kind in (bool, int, float, str):
        if isinstance(node, kind):
            return kind(node)
    return node


def write(data: object) -> str:
    """``data`` as YAML text, block style, small mappings inline."""
    writer = YAML(typ="rt")
    writer.default_flow_style = None
    out = io.StringIO()
    writer.dump(data, out)
    return out.getvalue()
