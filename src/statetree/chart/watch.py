"""Watching a chart file: a changed file is loaded again (polling, no threads).

A file counts as changed when its modification time changed and its content hash too, so
saving without edits or touching the file does not reload. The bytes hashed are the bytes
loaded, read once, so a file replaced between the two steps cannot mix two saves. The file
system calls are injectable, for tests.
"""

from __future__ import annotations

import hashlib
import os
import select
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from statetree.chart.load import cannot_read, chart_format, loads, read_head
from statetree.chart.model import Chart
from statetree.chart.registry import DEFAULT_REGISTRY, Registry
from statetree.chart.stand_in import loads_stand_in
from statetree.chart.text import decode

__all__ = ["ChartWatcher", "input_lines"]


def _mtime(path: Path) -> int:
    return os.stat(path).st_mtime_ns


class ChartWatcher:
    """Polls a chart file and loads it again when its content changed.

    A broken save (a file that does not load, cannot be read, or vanished while an editor
    replaces it) is reported once by :meth:`poll`; the watcher keeps watching, and the
    next good save loads.

    Args:
        path: the chart file.
        registry: the registry to load it with; ``None`` takes the types the chart uses
            that are not built in as it uses them (see :mod:`statetree.chart.stand_in`).
        mtime: returns the file's modification time (``os.stat`` by default).
        read: returns the file's bytes (at most one more than the size limit of charts).

    Raises:
        ChartError: ``path`` is not a chart file (by its extension).
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
        self._time: int | None = None  # None: missing or unreadable when last polled
        self._digest = b""
        try:
            self._time = mtime(self.path)
            self._digest = hashlib.sha256(read(self.path)).digest()
        except OSError:
            self._time = None

    def poll(self) -> Chart | None:
        """The chart, if the file changed since the last poll; else ``None``.

        Raises:
            ChartError: the changed file does not load, or cannot be read (reported once:
                the file is not loaded again until it changes once more).
        """
        try:
            mtime = self._mtime(self.path)
            if mtime == self._time:
                return None
            data = self._read(self.path)
        except OSError as error:
            if self._time is None:
                return None  # still missing: reported already
            self._time = None
            raise cannot_read(self.path, error) from None
        self._time = mtime
        digest = hashlib.sha256(data).digest()
        if digest == self._digest:
            return None
        self._digest = digest
        name = str(self.path)
        text = decode(data, name)
        if self.registry is None:
            return loads_stand_in(text, self.format, file=name)
        return loads(text, self.format, self.registry, file=name)


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
