"""Watching a chart file: a changed file is loaded again (polling, no threads).

A file counts as changed when its modification time changed and its content hash too, so
saving without edits or touching the file does not reload. The bytes hashed are the bytes
loaded, read once, so a file replaced between the two steps cannot mix two saves. The files
the chart imports patterns from are watched too: a changed pattern file reloads the chart.
The file system calls are injectable, for tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from statetree.chart.errors import ChartError
from statetree.chart.expand import expand_document
from statetree.chart.library import MAX_IMPORTED_FILES
from statetree.chart.loading import (
    Format,
    cannot_read,
    chart_format,
    loads,
    read_document,
    read_file,
    read_head,
)
from statetree.chart.model import Chart
from statetree.chart.registry import DEFAULT_REGISTRY, Registry
from statetree.chart.stand_in import loads_stand_in
from statetree.chart.text import decode

__all__ = ["ChartWatcher", "input_lines"]


def _mtime(path: Path) -> int:
    return os.stat(path).st_mtime_ns


@dataclass(slots=True)
class _Seen:
    """What a watched file was when last looked at (``time`` is ``None``: unreadable)."""

    time: int | None = None
    digest: bytes = b""


class ChartWatcher:
    """Polls a chart file, and the files it imports, and loads the chart again when one of
    their contents changed.

    A broken save (a file that does not load, cannot be read, or vanished while an editor
    replaces it) is reported once by :meth:`poll`; the watcher keeps watching, and the
    next good save loads.

    Args:
        path: the chart file.
        registry: the registry to load it with; ``None`` takes the types the chart uses
            that are not built in as it uses them (see :mod:`statetree.chart.stand_in`).
        mtime: returns a file's modification time (``os.stat`` by default).
        read: returns a file's bytes (at most one more than the size limit of charts).

    Raises:
        ChartError: ``path`` is not a chart file (by its extension), or cannot be read (it
            does not exist, say).
    """

    def __init__(
        self,
        path: str | Path,
        registry: Registry | None = DEFAULT_REGISTRY,
        *,
        mtime: Callable[[Path], int] = _mtime,
        read: Callable[[Path], bytes] = read_head,
    ) -> None:
        self.path = Path(path)
        self.registry = registry
        self.format = chart_format(self.path)
        self._mtime = mtime
        self._read = read
        self._seen: dict[Path, _Seen] = {}
        self._imports: tuple[Path, ...] = ()
        try:  # a typo in the path is said now, not left to poll None for ever
            self._mtime(self.path)
        except OSError as error:
            raise cannot_read(self.path, error) from None
        data = self._looked_at(self.path)
        if data is not None:
            self._watch(self._imported(data))

    @property
    def files(self) -> tuple[Path, ...]:
        """The files watched: the chart's, then those it imported when last loaded."""
        return (self.path, *self._imports)

    def poll(self) -> Chart | None:
        """The chart, if its file or a file it imports changed since the last poll; else
        ``None``.

        Raises:
            ChartError: the chart file does not load after a change, or cannot be read
                (reported once: the file is not loaded again until it changes once more).
        """
        try:
            changed, data = self._changed(self.path)
        except OSError as error:
            raise cannot_read(self.path, error) from None
        imports = [path for path in self._imports if self._import_changed(path)]
        if not changed and not imports:
            return None
        try:
            data = self._read(self.path) if data is None else data
        except OSError as error:
            raise cannot_read(self.path, error) from None
        name = str(self.path)
        try:
            text = decode(data, name)
            if self.registry is None:
                chart = loads_stand_in(text, self.format, file=name)
            else:
                chart = loads(text, self.format, self.registry, file=name)
        except ChartError:
            # A file it names may be missing so far: watched, its arrival loads the chart.
            self._watch(dict.fromkeys([*map(str, self._imports), *self._named(data)]))
            raise
        self._watch(chart.origin.imported)
        return chart

    def _changed(self, path: Path) -> tuple[bool, bytes | None]:
        """Whether ``path`` changed since it was last looked at, and its bytes if read.

        Raises:
            OSError: it cannot be read, and could when last looked at (reported once).
        """
        seen = self._seen.setdefault(path, _Seen())
        try:
            mtime = self._mtime(path)
            if mtime == seen.time:
                return False, None
            data = self._read(path)
        except OSError:
            if seen.time is None:
                return False, None  # still missing: reported already
            seen.time = None
            raise
        seen.time = mtime
        digest = hashlib.sha256(data).digest()
        if digest == seen.digest:
            return False, data
        seen.digest = digest
        return True, data

    def _import_changed(self, path: Path) -> bool:
        """Whether an imported file changed; one that vanished did (the load says so)."""
        try:
            return self._changed(path)[0]
        except OSError:
            return True

    def _looked_at(self, path: Path) -> bytes | None:
        """The bytes of ``path``, noted as seen (``None``: it cannot be read now)."""
        try:
            return self._changed(path)[1]
        except OSError:
            return None

    def _imported(self, data: bytes) -> tuple[str, ...]:
        """The files the chart in ``data`` imports (none when it does not load so far)."""
        name = str(self.path)
        try:
            document = read_document(decode(data, name), self.format, name)
            return tuple(expand_document(document, read_file).origin.imported)
        except ChartError:
            return ()

    def _named(self, data: bytes) -> list[str]:
        """The files the chart in ``data`` imports, found or not, and those they import."""
        found: dict[str, None] = {}
        waiting = [(self.path, data)]
        while waiting and len(found) < MAX_IMPORTED_FILES:
            path, text = waiting.pop()
            for name in _imports_named(path, text, self.format if path == self.path else None):
                if name not in found:
                    found[name] = None
                    with contextlib.suppress(OSError):
                        waiting.append((Path(name), self._read(Path(name))))
        return list(found)

    def _watch(self, files: Iterable[str]) -> None:
        """Watch ``files`` besides the chart's, each as it is now."""
        self._imports = tuple(map(Path, files))
        for path in self._imports:
            if path not in self._seen:
                self._looked_at(path)


def input_lines(interval: float, stream: TextIO = sys.stdin) -> Iterator[str | None]:
    """Lines typed on ``stream``, with ``None`` whenever ``interval`` seconds pass without one.

    Where a stream cannot be waited on with a timeout, lines are read as they come.
    """
    while True:
        try:
            ready, _, _ = select.select([stream], [], [], interval)
        except (OSError, ValueError):
            ready = [stream]  # not a selectable stream (e.g. some consoles): just read
        if not ready:
            yield None
            continue
        line = stream.readline()
        if not line:
            return
        yield line


def _imports_named(path: Path, data: bytes, format: Format | None) -> list[str]:
    """The files the chart file ``path`` of bytes ``data`` names in its ``imports``."""
    try:
        found = read_document(decode(data, str(path)), format or chart_format(path), str(path))
    except ChartError:
        return []
    entries = found.data.get("imports") if isinstance(found.data, dict) else None
    if not isinstance(entries, list):
        return []
    return [os.path.normpath(path.parent / e) for e in entries if isinstance(e, str)]
