"""Watching a chart file: a changed file is loaded again (polling, no threads).

A file counts as changed when its modification time changed and its content hash too, so
saving without edits or touching the file does not reload. The file system calls are
injectable, for tests.
"""

from __future__ import annotations

import hashlib
import os
import select
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from statetree.chart.load import load
from statetree.chart.model import Chart
from statetree.chart.registry import DEFAULT_REGISTRY, Registry

__all__ = ["ChartWatcher", "input_lines"]


def _mtime(path: Path) -> int:
    return os.stat(path).st_mtime_ns


class ChartWatcher:
    """Polls a chart file and loads it again when its content changed.

    Args:
        path: the chart file.
        registry: the registry to load it with.
        mtime: returns the file's modification time (``os.stat`` by default).
        read: returns the file's bytes.
    """

    def __init__(
        self,
        path: str | Path,
        registry: Registry = DEFAULT_REGISTRY,
        *,
        mtime: Callable[[Path], int] = _mtime,
        read: Callable[[Path], bytes] = Path.read_bytes,
    ) -> None:
        self.path = Path(path)
        self.registry = registry
        self._mtime = mtime
        self._read = read
        self._seen = (mtime(self.path), hashlib.sha256(read(self.path)).digest())

    def poll(self) -> Chart | None:
        """The chart, if the file changed since the last poll; else ``None``.

        Raises:
            ChartError: the changed file does not load (it is not polled again until it
                changes once more).
        """
        mtime = self._mtime(self.path)
        if mtime == self._seen[0]:
            return None
        digest = hashlib.sha256(self._read(self.path)).digest()
        changed = digest != self._seen[1]
        self._seen = (mtime, digest)
        return load(self.path, self.registry) if changed else None


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
