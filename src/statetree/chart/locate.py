"""Line numbers for JSON and TOML documents, whose standard parsers do not report them.

The text is parsed first by the standard parser, which rejects anything malformed; these
scanners then walk the same, well-formed text once more and note the line on which each
key and each list item starts, by data path. They also report repeated keys, which
``json`` silently accepts.
"""

from __future__ import annotations

import json
import re

from statetree.chart.model import DataPath

__all__ = ["Located", "locate_json", "locate_toml"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR_END = re.compile(r"[\s,\]}#]")


class Located:
    """The lines found in a document, and the keys it repeats."""

    def __init__(self) -> None:
        self.lines: dict[DataPath, int] = {}
        self.repeated: list[tuple[DataPath, int]] = []

    def note(self, path: DataPath, line: int) -> None:
        self.lines.setdefault(path, line)


class _Scanner:
    """Walks values: strings, scalars, arrays and inline tables (``{}``), comments aside."""

    def __init__(self, text: str, separator: str, found: Located) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.separator = separator
        self.found = found

    # -- characters ------------------------------------------------------------------------

    def peek(self, size: int = 1) -> str:
        return self.text[self.pos : self.pos + size]

    def advance(self, size: int = 1) -> None:
        self.line += self.text.count("\n", self.pos, self.pos + size)
        self.pos += size

    def skip_space(self, newlines: bool = True) -> None:
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "#":
                end = self.text.find("\n", self.pos)
                self.advance((len(self.text) if end < 0 else end) - self.pos)
            elif char in " \t\r" or (newlines and char == "\n"):
                self.advance()
            else:
                return

    # -- tokens ----------------------------------------------------------------------------

    def string(self) -> str:
        """Read a quoted string (basic, literal or multi-line) and return its text."""
        quote = self.text[self.pos]
        if self.peek(3) == quote * 3:
            end = self.text.index(quote * 3, self.pos + 3)
            while self.text.startswith(quote, end + 3):
                end += 1  # up to two quotes may end the content itself
            body = self.text[self.pos + 3 : end]
            self.advance(end + 3 - self.pos)
            return body
        end = self.pos + 1
        while self.text[end] != quote:
            end += 2 if quote == '"' and self.text[end] == "\\" else 1
        raw = self.text[self.pos : end + 1]
        self.advance(end + 1 - self.pos)
        if quote == "'":
            return raw[1:-1]
        try:
            decoded: str = json.loads(raw)
        except ValueError:
            return raw[1:-1]
        return decoded

    def key(self) -> tuple[str, ...]:
        """Read a key, dotted or not (a JSON key is one quoted string)."""
        parts: list[str] = []
        while True:
            self.skip_space(newlines=False)
            if self.peek() in "\"'":
                parts.append(self.string())
            else:
                match = _BARE_KEY.match(self.text, self.pos)
                if match is None:
                    raise ValueError(f"line {self.line}: expected a key")
                parts.append(match.group())
                self.advance(match.end() - self.pos)
            self.skip_space(newlines=False)
            if self.peek() != ".":
                return tuple(parts)
            self.advance()

    # -- values ----------------------------------------------------------------------------

    def value(self, path: DataPath) -> None:
        self.skip_space()
        self.found.note(path, self.line)
        char = self.peek()
        if char == "{":
            self.table(path)
        elif char == "[":
            self.array(path)
        elif char in "\"'":
            self.string()
        else:
            match = _SCALAR_END.search(self.text, self.pos)
            self.advance((match.start() if match else len(self.text)) - self.pos)

    def table(self, path: DataPath) -> None:
        self.advance()  # {
        seen: set[tuple[str, ...]] = set()
        while True:
            self.skip_space()
            if self.peek() == "}":
                self.advance()
                return
            line = self.line
            key = self.key()
            self.pair(path, key, line, seen)
            self.skip_space()
            if self.peek() == ",":
                self.advance()

    def pair(
        self, path: DataPath, key: tuple[str, ...], line: int, seen: set[tuple[str, ...]]
    ) -> None:
        """Note ``key`` (and the prefixes of a dotted key) at ``line``, then read its value."""
        if key in seen:
            self.found.repeated.append(((*path, *key), line))
        seen.add(key)
        for end in range(1, len(key) + 1):
            self.found.note((*path, *key[:end]), line)
        self.skip_space(newlines=False)
        self.advance(len(self.separator))
        self.value((*path, *key))

    def array(self, path: DataPath) -> None:
        self.advance()  # [
        index = 0
        while True:
            self.skip_space()
            if self.peek() == "]":
                self.advance()
                return
            self.value((*path, index))
            index += 1
            self.skip_space()
            if self.peek() == ",":
                self.advance()


def locate_json(text: str) -> Located:
    """The lines of a well-formed JSON document (already accepted by ``json.loads``)."""
    found = Located()
    _Scanner(text, ":", found).value(())
    return found


class _TomlScanner(_Scanner):
    """Adds TOML's top level: ``[table]`` and ``[[array]]`` headers and ``key = value`` lines."""

    def __init__(self, text: str, found: Located) -> None:
        super().__init__(text, "=", found)
        self.table_path: DataPath = ()
        self.counts: dict[DataPath, int] = {}
        self.seen: dict[DataPath, set[tuple[str, ...]]] = {(): set()}

    def document(self) -> None:
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                return
            line = self.line
            if self.peek() == "[":
                self.header(line)
            else:
                key = self.key()
                self.pair(self.table_path, key, line, self.seen.setdefault(self.table_path, set()))

    def header(self, line: int) -> None:
        many = self.peek(2) == "[["
        self.advance(2 if many else 1)
        keys = self.key()
        self.advance(2 if many else 1)
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
        self.found.note(path, line)
        self.table_path = path
        self.seen.setdefault(path, set())


def locate_toml(text: str) -> Located:
    """The lines of a well-formed TOML document (already accepted by ``tomllib``)."""
    found = Located()
    _TomlScanner(text, found).document()
    return found
