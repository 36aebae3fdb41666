"""Line numbers for JSON and TOML documents, whose standard parsers do not report them.

The text is parsed first by the standard parser, which rejects anything malformed; these
scanners then walk the same, well-formed text once more, token by token, and note the line
on which each key and each list item starts, by data path. They also report repeated keys,
which ``json`` silently accepts, and keys nested deeper than the chart limit. A scanner
that meets something it does not expect stops and keeps the lines found so far: a place
without a line is reported at the line of the nearest place around it.
"""

from __future__ import annotations

import contextlib
import json
import re

from statetree.chart.model import DataPath
from statetree.chart.text import MAX_DEPTH, too_deep

__all__ = ["Located", "locate_json", "locate_toml"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR = re.compile(r"\d{4}-\d\d-\d\d[Tt ]\d\d:[^\s,\]}#]*|[^\s,\]}#]+")
_STRINGS = {
    '"""': re.compile(r'"""(?:[^\\]|\\.)*?"""(?!")', re.S),
    "'''": re.compile(r"'''.*?'''(?!')", re.S),
    '"': re.compile(r'"(?:[^"\\\n]|\\.)*"'),
    "'": re.compile(r"'[^'\n]*'"),
}
_JSON_SPACE = re.compile(r"[ \t\r\n]*")
_TOML_SPACE = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
_TOML_INLINE_SPACE = re.compile(r"[ \t]*")


class Located:
    """The lines found in a document, and the keys it repeats."""

    def __init__(self) -> None:
        self.lines: dict[DataPath, int] = {}
        self.repeated: list[tuple[DataPath, int]] = []

    def note(self, path: DataPath, line: int) -> None:
        self.lines.setdefault(path, line)


class _Lost(Exception):
    """The scanner met text it does not expect; the lines found so far are kept."""


class _Scanner:
    """Walks values: strings, scalars, arrays and inline tables (``{}``), comments aside."""

    def __init__(self, text: str, separator: str, found: Located, file: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.separator = separator
        self.found = found
        self.file = file
        json = separator == ":"
        self.space = _JSON_SPACE if json else _TOML_SPACE
        self.inline_space = _JSON_SPACE if json else _TOML_INLINE_SPACE

    # -- characters ------------------------------------------------------------------------

    def peek(self, size: int = 1) -> str:
        return self.text[self.pos : self.pos + size]

    def advance_to(self, end: int) -> None:
        self.line += self.text.count("\n", self.pos, end)
        self.pos = end

    def skip(self, pattern: re.Pattern[str]) -> None:
        end = pattern.match(self.text, self.pos).end()  # type: ignore[union-attr]
        if end != self.pos:
            self.line += self.text.count("\n", self.pos, end)
            self.pos = end

    def expect(self, token: str) -> None:
        if not self.text.startswith(token, self.pos):
            raise _Lost(f"line {self.line}: expected {token!r}")
        self.pos += len(token)

    # -- tokens ----------------------------------------------------------------------------

    def string(self) -> str:
        """Read a quoted string (basic, literal or multi-line) and return its text."""
        quote = self.peek(3) if self.peek(3) in ('"""', "'''") else self.peek()
        match = _STRINGS[quote].match(self.text, self.pos)
        if match is None:
            raise _Lost(f"line {self.line}: unterminated string")
        raw = match.group()
        self.advance_to(match.end())
        body = raw[len(quote) : -len(quote)]
        return _unescape(body) if quote == '"' else body

    def key(self, path: DataPath) -> tuple[str, ...]:
        """Read a key, dotted or not (a JSON key is one quoted string)."""
        parts: list[str] = []
        while True:
            self.skip(self.inline_space)
            if self.peek() in ('"', "'"):
                parts.append(self.string())
            else:
                match = _BARE_KEY.match(self.text, self.pos)
                if match is None:
                    raise _Lost(f"line {self.line}: expected a key")
                parts.append(match.group())
                self.advance_to(match.end())
            if len(path) + len(parts) > MAX_DEPTH:
                raise too_deep(self.file, self.line)
            self.skip(self.inline_space)
            if self.peek() != ".":
                return tuple(parts)
            self.pos += 1

    # -- values ----------------------------------------------------------------------------

    def value(self, path: DataPath) -> None:
        self.skip(self.space)
        self.found.note(path, self.line)
        char = self.peek()
        if char == "{":
            self.table(path)
        elif char == "[":
            self.array(path)
        elif char in ('"', "'"):
            self.string()
        else:
            match = _SCALAR.match(self.text, self.pos)
            if match is None:
                raise _Lost(f"line {self.line}: expected a value")
            self.pos = match.end()  # a scalar holds no line break

    def table(self, path: DataPath) -> None:
        self.pos += 1  # {
        seen: set[tuple[str, ...]] = set()
        while True:
            self.skip(self.space)
            if self.peek() == "}":
                self.pos += 1
                return
            line = self.line
            self.pair(path, self.key(path), line, seen)
            self.skip(self.space)
            if self.peek() == ",":
                self.pos += 1

    def pair(
        self, path: DataPath, key: tuple[str, ...], line: int, seen: set[tuple[str, ...]]
    ) -> None:
        """Note ``key`` (and the prefixes of a dotted key) at ``line``, then read its value."""
        if key in seen:
            self.found.repeated.append(((*path, *key), line))
        seen.add(key)
        for end in range(1, len(key) + 1):
            self.found.note((*path, *key[:end]), line)
        self.skip(self.inline_space)
        self.expect(self.separator)
        self.value((*path, *key))

    def array(self, path: DataPath) -> None:
        self.pos += 1  # [
        index = 0
        while True:
            self.skip(self.space)
            if self.peek() == "]":
                self.pos += 1
                return
            if not self.peek():
                raise _Lost("unterminated array")
            self.value((*path, index))
            index += 1
            self.skip(self.space)
            if self.peek() == ",":
                self.pos += 1


def _unescape(body: str) -> str:
    """The text of a double-quoted string's ``body`` (JSON escapes; others kept as written)."""
    if "\\" not in body:
        return body
    try:
        return str(json.loads(f'"{body}"'))
    except ValueError:
        return body


def locate_json(text: str, file: str = "<json>") -> Located:
    """The lines of a well-formed JSON document (already accepted by ``json.loads``).

    Raises:
        ChartError: keys nest more than the chart limit allows.
    """
    found = Located()
    with contextlib.suppress(_Lost):
        _Scanner(text, ":", found, file).value(())
    return found


class _TomlScanner(_Scanner):
    """Adds TOML's top level: ``[table]`` and ``[[array]]`` headers and ``key = value`` lines."""

    def __init__(self, text: str, found: Located, file: str) -> None:
        super().__init__(text, "=", found, file)
        self.table_path: DataPath = ()
        self.counts: dict[DataPath, int] = {}
        self.seen: dict[DataPath, set[tuple[str, ...]]] = {(): set()}

    def document(self) -> None:
        self.found.note((), 1)  # the document, even an empty one
        while True:
            self.skip(self.space)
            if self.pos >= len(self.text):
                return
            line = self.line
            if self.peek() == "[":
                self.header(line)
            else:
                key = self.key(self.table_path)
                self.pair(self.table_path, key, line, self.seen.setdefault(self.table_path, set()))

    def header(self, line: int) -> None:
        many = self.peek(2) == "[["
        self.pos += 2 if many else 1
        keys = self.key(())
        self.expect("]]" if many else "]")
        path: DataPath = ()
        for position, key in enumerate(keys):
            path = (*path, key)
            self.found.note(path, line)
            if position < len(keys) - 1 and path in self.counts:
                path = (*path, self.counts[path])
        if many:
            index = self.counts.get(path, -1) + 1
            self.counts[path] = index
            path = (*path, index)
        if len(path) > MAX_DEPTH:
            raise too_deep(self.file, line)
        self.found.note(path, line)
        self.table_path = path
        self.seen.setdefault(path, set())


def locate_toml(text: str, file: str = "<toml>") -> Located:
    """The lines of a well-formed TOML document (already accepted by ``tomllib``).

    Raises:
        ChartError: keys nest more than the chart limit allows.
    """
    found = Located()
    with contextlib.suppress(_Lost):
        _TomlScanner(text, found, file).document()
    return found
