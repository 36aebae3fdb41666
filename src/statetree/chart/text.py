"""What every chart text must be before a format's parser reads it: bounded, plain Unicode.

A chart file may come from a half-finished save or from anywhere at all, so its size, its
nesting and its numbers are bounded before a parser (some of which recurse, or convert
digits in quadratic time) sees it, and every refusal is a :class:`ChartError` naming the
file and the line.
"""

from __future__ import annotations

import re

from statetree.chart.document import Document, syntax_error
from statetree.chart.errors import ChartError, Problem
from statetree.chart.model import DataPath, format_path

__all__ = [
    "MAX_CHART_SIZE",
    "MAX_DEPTH",
    "MAX_NUMBER_LENGTH",
    "TOML_KEY_PART",
    "check_nesting",
    "check_strings",
    "check_text",
    "decode",
    "forbidden_character",
    "line_of",
    "long_number",
    "too_deep",
]

MAX_CHART_SIZE = 1 << 18
"""The largest chart text, in characters (or bytes, for a file): 256 KiB, some fifty times
a large character's chart; any text up to it is read or refused within about a second."""

MAX_DEPTH = 64
"""How deeply lists and mappings may nest in a chart document (a chart 30 states deep fits)."""

MAX_NUMBER_LENGTH = 100
"""The longest number literal, in characters."""

MAX_VALUES = MAX_CHART_SIZE // 2
"""The most values (keys, items, scalars) a chart's data may hold, counting a list or mapping
each time it is reached: what the largest chart text could hold (a value and a comma)."""

TOML_KEY_PART = r"""[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'"""
"""The pattern of a part of a TOML dotted key: bare, or quoted."""
_PART = re.compile(TOML_KEY_PART)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters (C0 but tab and line ends, DEL, C1) and halves of surrogate pairs."""
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def forbidden_character(text: str) -> str | None:
    """The first character of ``text`` no chart may hold (a control character, or half of
    a surrogate pair), as ``U+XXXX``; ``None`` when there is none."""
    found = _CONTROL.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def line_of(text: str, position: int) -> int:
    """The 1-based line of ``text`` holding the character at ``position``."""
    return text.count("\n", 0, position) + 1


def _column(text: str, position: int) -> int:
    return position - text.rfind("\n", 0, position)


def decode(data: bytes, file: str, what: str = "a chart", *, limited: bool = True) -> str:
    """The text of a chart file's bytes (or ``what`` other file's): UTF-8, with or without a
    byte order mark.

    Raises:
        ChartError: there are more than :data:`MAX_CHART_SIZE` bytes (when ``limited``), or
            they are not UTF-8 (the line of the first bad byte is named).
    """
    if limited and len(data) > MAX_CHART_SIZE:
        raise syntax_error(
            file, 0, f"the file is larger than {MAX_CHART_SIZE:,} bytes, the limit of {what}"
        )
    if data.startswith(_UTF16_BOMS):
        raise syntax_error(
            file, 1, "the file is UTF-16 or UTF-32 (it starts with a byte order mark): save it "
            "as UTF-8"
        )  # fmt: skip
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        raise syntax_error(
            file,
            line,
            f"not UTF-8 text: byte 0x{data[error.start]:02x} at column {column}; save the "
            "file as UTF-8",
        ) from None
    return text


def check_text(text: str, file: str) -> str:
    """``text`` without a leading byte order mark, once it is known to be a plain text.

    Raises:
        ChartError: the text is longer than :data:`MAX_CHART_SIZE`, or holds a control
            character (NUL and the like, which no chart format allows) or half of a
            surrogate pair.
    """
    if len(text) > MAX_CHART_SIZE:
        raise syntax_error(
            file, 0, f"the chart is {len(text):,} characters long; charts are limited to "
            f"{MAX_CHART_SIZE:,}"
        )  # fmt: skip
    found = _CONTROL.search(text)
    if found is not None:
        where = found.start()
        raise syntax_error(
            file,
            line_of(text, where),
            f"the character U+{ord(found.group()):04X} at column {_column(text, where)} is "
            "not allowed in a chart (control characters and lone surrogates are not text)",
        )
    return text.removeprefix("\ufeff")


def check_strings(document: Document) -> Document:
    """``document``, once no string of it holds what no chart text may: the escape of a
    control character or of half a surrogate pair (``"\\u0000"`` in JSON, say); and once
    its data, which Python code may have built with shared or cyclic lists and mappings,
    is no deeper or larger than a chart text could be.

    Raises:
        ChartError: a key or a value does, naming its line; or the data nests more than
            :data:`MAX_DEPTH` deep (a list holding itself, say) or holds more than
            :data:`MAX_VALUES` values.
    """
    waiting: list[tuple[DataPath, object]] = [((), document.data)]
    count = 0
    while waiting:
        path, value = waiting.pop()
        count += 1
        if len(path) > MAX_DEPTH:
            raise too_deep(document.file, _line(document, path))
        if count > MAX_VALUES:
            raise syntax_error(
                document.file,
                0,
                f"the data holds more than {MAX_VALUES:,} values, more than a chart file "
                "can (a list or mapping counts each time it is reached)",
            )
        strings: list[tuple[object, DataPath]] = [(value, path)]  # a key is at its value's line
        if isinstance(value, dict):
            strings = [(key, (*path, key)) for key in value]
            waiting += [((*path, key), item) for key, item in value.items()]
        elif isinstance(value, list):
            waiting += [((*path, index), item) for index, item in enumerate(value)]
        elif isinstance(value, int) and not -_LONGEST < value < _LONGEST:
            message = (
                f"a number of more than {MAX_NUMBER_LENGTH} digits; numbers are limited to "
                f"{MAX_NUMBER_LENGTH} characters"
            )
            problem = Problem(message, format_path(path), document.file, _line(document, path))
            raise ChartError([problem])
        for text, where in strings:
            found = forbidden_character(text) if isinstance(text, str) else None
            if found is not None:
                raise syntax_error(
                    document.file,
                    _line(document, where),
                    f"the character {found} in {text!r} is not allowed in a chart (control "
                    "characters and lone surrogates are not text)",
                )
    return document


_LONGEST = 10**MAX_NUMBER_LENGTH


def _line(document: Document, path: DataPath) -> int:
    """The line of the value at ``path``, or of the nearest value holding it (0: none)."""
    outward = (path[:end] for end in range(len(path), 0, -1))
    return next((document.lines[p] for p in outward if p in document.lines), 0)


def too_deep(file: str, line: int) -> ChartError:
    """The error for a list or mapping nested more than :data:`MAX_DEPTH` deep."""
    return syntax_error(file, line, f"lists and mappings nest more than {MAX_DEPTH} levels deep")


def long_number(file: str, line: int, literal: str) -> ChartError:
    """The error for a number literal longer than :data:`MAX_NUMBER_LENGTH`."""
    return syntax_error(
        file, line, f"a number of {len(literal):,} characters ({literal[:12]}...); numbers are "
        f"limited to {MAX_NUMBER_LENGTH} characters"
    )  # fmt: skip


def check_nesting(text: str, file: str, tokens: re.Pattern[str]) -> None:
    """Check the brackets, dotted keys and numbers of a JSON or TOML text before its parser.

    The standard parsers recurse into brackets and take quadratic time over long dotted
    keys and digit strings, so these are bounded first, in one linear scan.

    Args:
        tokens: matches the format's strings and comments (skipped), its brackets as the
            groups ``open`` and ``close``, its numbers as ``word`` and (TOML) its dotted
            keys as ``dotted``.

    Raises:
        ChartError: brackets or dotted keys nest more than :data:`MAX_DEPTH` deep, or a
            number is longer than :data:`MAX_NUMBER_LENGTH` (its line is named).
    """
    depth = 0
    for token in tokens.finditer(text):
        kind = token.lastgroup
        if kind == "open":
            depth += 1
            if depth > MAX_DEPTH:
                raise too_deep(file, line_of(text, token.start()))
        elif kind == "close":
            depth -= 1
        elif kind is not None:
            _check_word(token, text, file)


def _check_word(token: re.Match[str], text: str, file: str) -> None:
    word = token.group()
    if (
        token.lastgroup == "dotted"
        and word.count(".") >= MAX_DEPTH
        and len(_PART.findall(word)) > MAX_DEPTH
    ):
        raise too_deep(file, line_of(text, token.start()))
    if len(word) > MAX_NUMBER_LENGTH and word[0] in "+-0123456789":
        raise long_number(file, line_of(text, token.start()), word)
