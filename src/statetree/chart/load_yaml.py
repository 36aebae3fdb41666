"""Reading and writing YAML with ``ruamel.yaml``, keeping comments for editors.

Charts are read from the parser's event stream into plain data, one event at a time, so
every rule is checked before anything is built and the work stays linear in the text: an
alias (``*name``) is refused, since charts are plain trees and an alias can expand a few
hundred bytes into gigabytes (anchors alone are harmless and ignored); so are merge keys
(``<<``), tags other than the core schema's (``!State``, ``!!omap``, ``!!python/...``),
complex keys, repeated keys, a second document, nesting deeper than ``MAX_DEPTH`` and
number literals longer than ``MAX_NUMBER_LENGTH``. Plain scalars are resolved as YAML 1.2.

The round-trip tree, with comments and layout, is built only when an editor asks for it
(:attr:`~statetree.chart.Document.tree`). The C parser of ``ruamel.yaml.clib`` is used
when installed (about ten times faster). This is the only module that imports
``ruamel.yaml``; it is itself imported on first use (see
:func:`statetree.chart.loading.read_document`), so charts in other formats never need it.
"""

from __future__ import annotations

import bisect
import functools
import io
import math
from types import MappingProxyType
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.resolver import Resolver

from statetree.chart.document import Document, syntax_error
from statetree.chart.errors import ChartError, Problem
from statetree.chart.model import DataPath, format_path
from statetree.chart.text import MAX_DEPTH, MAX_NUMBER_LENGTH, long_number, too_deep

__all__ = ["read", "write"]

_CORE = "tag:yaml.org,2002:"
_KINDS = ("str", "int", "float", "bool", "null")
_SCALARS = {f"{_CORE}{kind}": kind for kind in _KINDS}
_MAPPINGS = frozenset(("!", f"{_CORE}map"))
_SEQUENCES = frozenset(("!", f"{_CORE}seq"))
# The implicit resolvers of YAML 1.2 by first character, as kinds (anything else is a str).
_IMPLICIT = {
    first: [(str(tag).rpartition(":")[2], regexp) for tag, regexp in resolvers]
    for first, resolvers in Resolver.yaml_implicit_resolvers.items()
}


def read(text: str, file: str = "<yaml>") -> Document:
    """Parse YAML ``text`` into a :class:`Document` with the line of every key and item.

    Raises:
        ChartError: the text is not YAML, repeats a key, or uses what charts refuse
            (aliases, merge keys, unknown tags...); the line is named.
    """
    builder = _Builder(file, text)
    try:
        for event in YAML(typ="safe", pure=False).parse(text):
            builder.feed(event)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = builder.line(mark) if mark is not None else 0
        raise syntax_error(file, line, f"not valid YAML: {error.problem}") from None
    except YAMLError as error:  # the reader's: a character YAML does not take, say
        position = getattr(error, "position", None)
        what = str(error).splitlines()[0]  # the rest names the reader's stream, not the file
        if not isinstance(position, int):
            raise syntax_error(file, 0, f"not valid YAML: {what}") from None
        column = position - text.rfind("\n", 0, position)
        message = f"not valid YAML: {what} (column {column})"
        raise syntax_error(file, text.count("\n", 0, position) + 1, message) from None
    tree = functools.cache(functools.partial(_round_trip, text, file))
    return Document(builder.data, file, MappingProxyType(builder.lines), tree)


def _round_trip(text: str, file: str) -> object:
    """The round-trip tree of ``text`` (already read, so known to follow the chart rules)."""
    try:
        return YAML(typ="rt").load(text)
    except YAMLError as error:
        raise syntax_error(file, 0, f"not valid YAML: {error}") from None


class _Frame:
    """A mapping or a list being read: its data, its path, and a mapping's pending key."""

    __slots__ = ("data", "key", "mapping", "path")

    def __init__(self, data: dict[str, object] | list[object], path: DataPath) -> None:
        self.data = data
        self.path = path
        self.mapping = isinstance(data, dict)
        self.key: str | None = None


class _Builder:
    """Plain data and lines from parser events, refusing what charts do not allow."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        # YAML counts U+2028 and U+2029 as line breaks, where editors (and the other
        # formats) count lines by "\n": a text holding them has its lines found by position.
        odd = "\u2028" in text or "\u2029" in text
        self.breaks = [at for at, c in enumerate(text) if c == "\n"] if odd else None
        self.lines: dict[DataPath, int] = {(): 1}  # the document, even an empty one
        self.stack: list[_Frame] = []
        self.top: _Frame | None = None
        self.data: object = None
        self.documents = 0
        self.feeders = {
            DocumentStartEvent: self.document,
            MappingStartEvent: self.start,
            SequenceStartEvent: self.start,
            MappingEndEvent: self.end,
            SequenceEndEvent: self.end,
            ScalarEvent: self.scalar,
            AliasEvent: self.alias,
        }

    def line(self, mark: Any) -> int:
        """The 1-based line of ``mark``, counted by ``"\n"``."""
        if self.breaks is None:
            return int(mark.line) + 1
        return bisect.bisect_left(self.breaks, mark.index) + 1

    def feed(self, event: Any) -> None:
        feeder = self.feeders.get(type(event))
        if feeder is not None:
            feeder(event)

    def error(self, event: Any, message: str) -> ChartError:
        return syntax_error(self.file, self.line(event.start_mark), message)

    def unknown_tag(self, event: Any) -> ChartError:
        tag = str(event.tag)
        shown = f"!!{tag[len(_CORE) :]}" if tag.startswith(_CORE) else tag
        return self.error(event, f"the YAML tag {shown} is not allowed in charts: remove it")

    def document(self, event: Any) -> None:
        self.documents += 1
        if self.documents > 1:
            raise self.error(event, "a chart is one YAML document; remove the second one")
        version = getattr(event, "version", None)
        if version is not None and tuple(version) != (1, 2):
            shown = ".".join(map(str, version))
            raise self.error(
                event,
                f"the chart says %YAML {shown}, but charts are YAML 1.2 (where on, yes and no "
                "are strings, not booleans): remove the directive or make it %YAML 1.2",
            )

    def alias(self, event: Any) -> None:
        raise self.error(
            event, f"YAML aliases (*{event.anchor}) are not allowed in charts: write the value out"
        )

    # -- collections -----------------------------------------------------------------------

    def start(self, event: Any) -> None:
        mapping = type(event) is MappingStartEvent
        if event.ctag is not None and event.tag not in (_MAPPINGS if mapping else _SEQUENCES):
            raise self.unknown_tag(event)
        if len(self.stack) >= MAX_DEPTH:
            raise too_deep(self.file, self.line(event.start_mark))
        top = self.top
        if top is None:
            path: DataPath = ()
            self.lines[path] = self.line(event.start_mark)
        elif top.mapping:
            if top.key is None:
                raise self.error(event, "a key must be a plain string, not a list or a mapping")
            path = (*top.path, top.key)
        else:
            path = (*top.path, len(top.data))
            self.lines[path] = self.line(event.start_mark)
        frame = _Frame({} if mapping else [], path)
        self.stack.append(frame)
        self.top = frame

    def end(self, event: Any) -> None:
        frame = self.stack.pop()
        self.top = self.stack[-1] if self.stack else None
        self.attach(frame.data)

    def attach(self, value: object) -> None:
        top = self.top
        if top is None:
            self.data = value
        elif top.mapping:
            top.data[top.key] = value  # type: ignore[index, call-overload]
            top.key = None
        else:
            top.data.append(value)  # type: ignore[union-attr]

    # -- scalars ---------------------------------------------------------------------------

    def scalar(self, event: Any) -> None:
        top = self.top
        if top is not None and top.mapping and top.key is None:
            self.key(top, event)
            return
        if top is None:
            self.lines[()] = self.line(event.start_mark)
        elif not top.mapping:
            item = (*top.path, len(top.data))
            self.lines[item] = self.line(event.start_mark)
        self.attach(self.value(event))

    def key(self, frame: _Frame, event: Any) -> None:
        key = event.value
        if event.ctag is not None and event.tag not in _SCALARS:
            raise self.unknown_tag(event)
        if key == "<<" and event.implicit[0]:
            message = "YAML merge keys (<<) are not allowed in charts: write the keys out"
            raise self.error(event, message)
        line = self.line(event.start_mark)
        if key in frame.data:
            path = format_path((*frame.path, key))
            raise ChartError([Problem(f"the key {key!r} appears twice", path, self.file, line)])
        frame.key = key
        place = (*frame.path, key)
        self.lines[place] = line

    def value(self, event: Any) -> object:
        text: str = event.value
        if event.ctag is not None and event.tag != "!":
            kind = _SCALARS.get(event.tag)
            if kind is None:
                raise self.unknown_tag(event)
        elif event.implicit[0]:
            kind = _resolve(text)
            if kind == "str":
                return text
        else:
            return text
        if kind in ("int", "float") and len(text) > MAX_NUMBER_LENGTH:
            raise long_number(self.file, self.line(event.start_mark), text)
        try:
            return _convert(kind, text)
        except ValueError:
            raise self.error(event, f"{text!r} is not a valid {kind}") from None


def _resolve(text: str) -> str:
    """The kind of a plain scalar, as YAML 1.2 resolves it: int, float, bool, null or str."""
    for kind, pattern in _IMPLICIT.get(text[:1], ()):
        if pattern.match(text):
            return kind
    return "str"


def _convert(kind: str, text: str) -> object:
    """The value of a scalar written ``text`` of ``kind`` (YAML 1.2 core schema)."""
    if kind == "int":
        return _integer(text)
    if kind == "float":
        return _float(text)
    if kind == "bool":
        if text.lower() not in ("true", "false"):
            raise ValueError(text)
        return text.lower() == "true"
    if kind == "null":
        return None
    return text  # strings, and anything else plain (dates, '=') as written


def _integer(text: str) -> int:
    digits = text.replace("_", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    for prefix, base in (("0b", 2), ("0x", 16), ("0o", 8)):
        if digits.startswith(prefix):
            return sign * int(digits[2:], base)
    return sign * int(digits, 10)


def _float(text: str) -> float:
    value = text.replace("_", "").lower()
    if value.lstrip("+-") == ".inf":
        return -math.inf if value.startswith("-") else math.inf
    if value == ".nan":
        return math.nan
    return float(value)


def write(data: object) -> str:
    """``data`` as YAML text, block style, small mappings inline."""
    writer = YAML(typ="rt")
    writer.default_flow_style = None
    out = io.StringIO()
    writer.dump(data, out)
    return out.getvalue()
