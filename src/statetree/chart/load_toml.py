"""Reading a chart document from TOML text (``tomllib``, or ``tomli`` before Python 3.11)."""

from __future__ import annotations

import importlib
import re
from types import MappingProxyType, ModuleType
from typing import Any

from statetree.chart.document import Document, syntax_error
from statetree.chart.locate import locate_toml
from statetree.chart.text import TOML_KEY_PART, check_nesting

__all__ = ["read"]

_POSITION = re.compile(r"\(at line (\d+), column \d+\)|\(at (end of document)\)")
_TOKENS = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|#[^\n]*'
    rf"|(?P<dotted>(?:(?:{TOML_KEY_PART})[ \t]*\.[ \t]*)+(?:{TOML_KEY_PART}))"
    r'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\''
    r"|[A-Za-z_][\w-]*|(?P<open>[\[{])|(?P<close>[\]}])|(?P<word>[+-]?[0-9][\w.+:-]*)",
    re.S,
)


def _toml() -> ModuleType:
    """The TOML reader: the standard library's, or the ``tomli`` package it came from."""
    try:
        return importlib.import_module("tomllib")
    except ModuleNotFoundError:
        try:
            return importlib.import_module("tomli")
        except ModuleNotFoundError:
            raise ModuleNotFoundError(
                "TOML charts before Python 3.11 need tomli", name="tomli"
            ) from None


def _line(message: str, text: str) -> int:
    """The line a ``tomllib`` error names (the last line for "at end of document")."""
    found = _POSITION.search(message)
    if found is None:
        return 0
    return text.count("\n") + 1 if found.group(2) else int(found.group(1))


def read(text: str, file: str = "<toml>") -> Document:
    """Parse TOML ``text`` into a :class:`Document` with the line of every key and item.

    Raises:
        ChartError: the text is not TOML (repeated keys included), nests too deeply or
            has a number too long.
    """
    toml = _toml()
    check_nesting(text, file, _TOKENS)
    try:
        data: dict[str, Any] = toml.loads(text)
    except toml.TOMLDecodeError as error:
        message = _POSITION.sub("", str(error)).strip()
        line = _line(str(error), text)
        raise syntax_error(file, line, f"not valid TOML: {message}") from None
    return Document(data, file, MappingProxyType(locate_toml(text, file).lines))
