"""Loading charts: read a file or text in any format, build the model, validate it.

Loading is all or nothing: the whole document is read, then checked, and only a chart with
no problem is returned. Otherwise :class:`ChartError` lists every problem found.
"""

from __future__ import annotations

import dataclasses
import errno
import importlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Literal

from statetree.chart.document import Document
from statetree.chart.errors import ChartError, Problem
from statetree.chart.expand import Expanded, expand_document
from statetree.chart.model import Chart
from statetree.chart.parse import parse_document
from statetree.chart.registry import DEFAULT_REGISTRY, Registry, require_registry
from statetree.chart.text import MAX_CHART_SIZE, check_strings, check_text, decode
from statetree.chart.validation import validate
from statetree.errors import UsageError

__all__ = [
    "EXTENSIONS",
    "Format",
    "cannot_read",
    "chart_format",
    "format_module",
    "format_of",
    "from_data",
    "load",
    "loads",
    "parse_chart",
    "parse_expanded",
    "read_chart_file",
    "read_document",
    "read_file",
    "read_head",
]

Format = Literal["yaml", "toml", "json"]
EXTENSIONS: dict[str, Format] = {".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".json": "json"}
"""The file extensions of charts and their formats."""

_EXTRA = "pip install 'statetree[chart]'"
_FORMATS: tuple[Format, ...] = tuple(dict.fromkeys(EXTENSIONS.values()))


def format_module(format: Format) -> ModuleType:
    """The module reading (and for YAML writing) ``format``, imported on first use.

    Raises:
        UsageError: ``format`` is not a chart format.
        ModuleNotFoundError: the library the format needs is missing (the ``chart`` extra).
    """
    if format not in _FORMATS:
        raise UsageError(
            f"{format!r} is not a chart format: give one of {', '.join(map(repr, _FORMATS))}"
        )
    try:
        return importlib.import_module(f"statetree.chart.load_{format}")
    except ModuleNotFoundError as missing:
        message = f"{format} charts need {missing.name}: {_EXTRA}"
        raise ModuleNotFoundError(message, name=missing.name) from None


def format_of(path: str | Path) -> Format | None:
    """The chart format of a file name, from its extension (``None`` if not a chart's)."""
    return EXTENSIONS.get(Path(path).suffix.lower())


def read_document(text: str, format: Format, file: str = "<text>") -> Document:
    """Parse ``text`` in ``format`` into a document (data and lines), without checking it.

    Raises:
        ChartError: the text does not parse, or is not a plain text of at most
            ``MAX_CHART_SIZE`` characters (see the errors guide for every limit).
        UsageError: ``format`` is not a chart format, or ``text`` is not a string.
    """
    if not isinstance(text, str):
        hint = (
            ": decode the bytes first (UTF-8), or use load() on the file"
            if isinstance(text, (bytes, bytearray, memoryview))
            else ""
        )
        raise UsageError(f"a chart's text is a str, got {type(text).__name__}{hint}")
    read: Callable[[str, str], Document] = format_module(format).read
    return check_strings(read(check_text(text, file), file))


def read_head(path: str | Path, limit: int = MAX_CHART_SIZE) -> bytes:
    """The bytes of the file at ``path``, up to one past ``limit`` (never more).

    Raises:
        OSError: the file cannot be read, or is not a regular file (a named pipe, a device
            or a folder, which are refused before anything is read from them).
    """
    # Opened without blocking: opening a named pipe for reading waits for a writer, and a
    # chart path that became one must not hang its reader (an editor, a watcher).
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    handle = os.open(path, flags)
    try:
        regular = stat.S_ISREG(os.fstat(handle).st_mode)
    except BaseException:
        os.close(handle)
        raise
    if not regular:
        os.close(handle)
        raise OSError(errno.EINVAL, "not a regular file")
    with open(handle, "rb") as file:
        return file.read(limit + 1)


def read_chart_file(path: str | Path, what: str = "a chart") -> str:
    """The text of the chart file at ``path``, as :func:`load` reads it (for editors; for
    ``what`` other file, such as an events script, under the same limits).

    Raises:
        ChartError: the file cannot be read, is larger than ``MAX_CHART_SIZE`` bytes, or
            is not UTF-8 (the line of the first bad byte is named).
    """
    try:
        data = read_head(path)
    except OSError as error:
        raise cannot_read(path, error) from None
    return decode(data, str(path), what)


def cannot_read(path: str | Path, error: OSError) -> ChartError:
    """The error for a chart file that cannot be read."""
    reason = error.strerror or str(error)
    return ChartError([Problem(f"cannot read: {reason}", file=str(path))])


def read_file(path: str) -> Document:
    """The document of the chart file at ``path``, not checked yet (how imports are read).

    Raises:
        ChartError: the file cannot be read, is not a chart file by its extension, or
            does not parse.
    """
    return read_document(read_chart_file(path), chart_format(path), path)


def parse_chart(document: Document, registry: Registry = DEFAULT_REGISTRY) -> Chart:
    """The chart model of ``document``, its patterns expanded, not validated yet.

    Raises:
        ChartError: an import, a pattern or a use is wrong, or the expanded document does
            not have the shape of a chart.
        UsageError: ``registry`` is not a :class:`Registry`.
    """
    return parse_expanded(expand_document(document, read_file), require_registry(registry))


def parse_expanded(expanded: Expanded, registry: Registry = DEFAULT_REGISTRY) -> Chart:
    """The chart model of a document whose patterns are expanded, not validated yet.

    Raises:
        ChartError: the expanded document does not have the shape of a chart.
    """
    chart = parse_document(expanded.document, registry, expanded.origin)
    return dataclasses.replace(chart, patterns=expanded.patterns, imports=expanded.imports)


def chart_format(path: str | Path, format: Format | None = None) -> Format:
    """``format``, or else the format of ``path`` by its extension.

    Raises:
        ChartError: ``format`` is not given and the extension is not a chart's.
    """
    chosen = format or format_of(path)
    if chosen is None:
        extensions = ", ".join(EXTENSIONS)
        problem = Problem(f"not a chart file: use one of {extensions}", file=str(path))
        raise ChartError([problem])
    return chosen


def loads(
    text: str,
    format: Format,
    registry: Registry = DEFAULT_REGISTRY,
    *,
    file: str = "<text>",
    check_types: bool = True,
) -> Chart:
    """The chart in ``text``, written in ``format``.

    Its imports are read relative to ``file`` (relative to the current folder for text
    that is no file's), and must lie in that file's folder tree.

    Args:
        check_types: see :func:`~statetree.chart.validation`.

    Raises:
        ChartError: the text does not parse, is not a chart, or the chart is invalid.
        UsageError: ``format`` is not a chart format (``"yaml"``, ``"toml"``, ``"json"``),
            or ``text`` is not a string.
    """
    chart = parse_chart(read_document(text, format, file), registry)
    return validate(chart, registry, check_types=check_types)


def load(
    path: str | Path,
    registry: Registry = DEFAULT_REGISTRY,
    *,
    format: Format | None = None,
    check_types: bool = True,
) -> Chart:
    """The chart in the file at ``path`` (format from its extension unless given).

    Args:
        check_types: see :func:`~statetree.chart.validation`.

    Raises:
        ChartError: the file cannot be read, its extension is not a chart format, or the
            chart does not parse or is invalid; errors name the file and line.
    """
    chosen = chart_format(path, format)
    text = read_chart_file(path)
    return loads(text, chosen, registry, file=str(path), check_types=check_types)


def from_data(
    data: object, registry: Registry = DEFAULT_REGISTRY, *, file: str = "<data>"
) -> Chart:
    """The chart described by plain Python data (dicts and lists, as in the files).

    Its imports are read relative to ``file``, as for :func:`loads`.

    Raises:
        ChartError: the data is not a chart, or the chart is invalid.
    """
    return validate(parse_chart(check_strings(Document(data, file)), registry), registry)
