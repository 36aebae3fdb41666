"""What one connected page watches, and the batches it is sent."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from statetree.inspect.gate import Hit

__all__ = ["Row", "Watcher"]

Row = tuple[int, int, str, str, str, str, int, str]
"""A timeline line: seq, frame, machine id, category, label, state, depth, detail."""

Status = tuple[int, bool, bool, int, Hit | None]
"""What the page shows of the program: frame, paused, driven, records lost, and the last
breakpoint hit."""


class Watcher:
    """One page's subscriptions, with the rows and states it has not been sent yet.

    A page that reads slowly does not slow the program or the other pages: its rows wait
    in a bounded queue (the oldest are dropped and counted) and only the latest active
    states are sent, whatever happened in between.

    Args:
        limit: how many rows may wait for this page.
    """

    def __init__(self, limit: int = 5000) -> None:
        self.machines: set[str] = set()
        self._rows: deque[Row] = deque(maxlen=limit)
        self._dropped = 0
        self._sent: dict[tuple[str, str], object] = {}
        self._status: Status | None = None

    def watch(self, ids: Iterable[str]) -> list[str]:
        """Add ``ids`` to the subscriptions; returns those that were not there."""
        added = [machine for machine in dict.fromkeys(ids) if machine not in self.machines]
        self.machines.update(added)
        return added

    def unwatch(self, ids: Iterable[str]) -> list[str]:
        """Remove ``ids`` from the subscriptions; returns those that were there."""
        removed = [machine for machine in dict.fromkeys(ids) if machine in self.machines]
        for machine in removed:
            self.machines.discard(machine)
            for key in [key for key in self._sent if key[1] == machine]:
                del self._sent[key]
        return removed

    def offer(self, rows: Iterable[Row]) -> None:
        """Queue the rows of the machines this page watches."""
        queue = self._rows
        for row in rows:
            if row[2] in self.machines:
                if len(queue) == queue.maxlen:
                    self._dropped += 1
                queue.append(row)

    def batch(
        self,
        channels: Mapping[str, Mapping[str, object]],
        status: Status,
        describe: Callable[[str, str, object], Any],
    ) -> dict[str, Any] | None:
        """The next message for this page, or ``None`` when it has nothing new.

        Args:
            channels: per channel (``active``, ``packets``, ``breaks``), the latest value
                of each machine; a value is sent when it differs from the last one sent.
            status: the program's frame, pause state, whether it is driven, records lost,
                the last breakpoint hit.
            describe: turns a channel, a machine id and a value into what the page gets.
        """
        changed = {
            channel: {
                machine: value
                for machine, value in values.items()
                if machine in self.machines and self._sent.get((channel, machine)) != value
            }
            for channel, values in channels.items()
        }
        status = (*status[:3], status[3] + self._dropped, status[4])
        if not self._rows and not any(changed.values()) and status == self._status:
            return None
        for channel, values in changed.items():
            self._sent.update(((channel, machine), value) for machine, value in values.items())
        self._status = status
        rows = list(self._rows)
        self._rows.clear()
        frame, paused, driven, lost, hit = status
        message: dict[str, Any] = {
            "type": "batch",
            "frame": frame,
            "paused": paused,
            "driven": driven,
            "lost": lost,
            "hit": hit,
            "records": rows,
        }
        for channel, values in changed.items():
            message[channel] = {
                machine: describe(channel, machine, value) for machine, value in values.items()
            }
        return message
