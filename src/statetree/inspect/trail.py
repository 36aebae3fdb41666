"""Time travel: what a watched machine looked like after each of its timeline rows.

The hub feeds a :class:`Trail` on its own thread, in the order things happened: each row
(an enter adds its state to the configuration, an exit removes it) and, for programs that
call ``Inspector.frame()``, a :class:`Snapshot` after each frame that changed the machine:
its exact active states (which also corrects the configuration after records were lost)
and its owner's values. The page then asks for the configuration at any row it still
shows, with the values of that row's frame.
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass

from statetree.inspect.adapters import Event, InspectError, Value

__all__ = ["Snapshot", "Trail", "Travelled"]

TRAIL_ROWS = 5000
"""How many rows back a page may travel, per machine (as many as it keeps)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A machine at the end of a frame, read on the program's thread."""

    active: tuple[str, ...]
    values: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class Travelled:
    """A machine as it was just after one row.

    Attributes:
        seq: the row.
        frame: its frame.
        active: the active states then.
        values: the owner's values at the end of that frame, if they were read.
    """

    seq: int
    frame: int
    active: tuple[str, ...]
    values: tuple[Value, ...] | None


class Trail:
    """The configurations of one machine after each of its recent rows.

    Args:
        active: the active states when the page started watching.
        limit: how many rows are kept.
    """

    def __init__(self, active: tuple[str, ...] = (), limit: int = TRAIL_ROWS) -> None:
        self.active = active
        self._seqs: deque[int] = deque(maxlen=limit)
        self._rows: deque[tuple[int, tuple[str, ...]]] = deque(maxlen=limit)
        self._frames: deque[int] = deque(maxlen=limit)
        self._values: deque[tuple[Value, ...]] = deque(maxlen=limit)

    def row(self, seq: int, frame: int, event: Event) -> None:
        """Follow one timeline row: an enter or an exit changes the configuration."""
        active = self.active
        if event.category == "enter" and event.state not in active:
            active = (*active, event.state)
        elif event.category == "exit" and event.state in active:
            active = tuple(state for state in active if state != event.state)
        self.active = active
        self._seqs.append(seq)
        self._rows.append((frame, active))

    def snapshot(self, frame: int, snapshot: Snapshot) -> None:
        """Take the exact state at the end of ``frame``."""
        self.active = snapshot.active
        if self._frames and self._frames[-1] == frame:
            self._frames.pop()
            self._values.pop()
        self._frames.append(frame)
        self._values.append(snapshot.values)

    def at(self, seq: int) -> Travelled:
        """The machine just after row ``seq``.

        Raises:
            InspectError: the row is not one of this machine's, or is too old.
        """
        index = bisect.bisect_left(self._seqs, seq)
        if index == len(self._seqs) or self._seqs[index] != seq:
            oldest = f" (the oldest kept is #{self._seqs[0]})" if self._seqs else ""
            raise InspectError(f"step #{seq} of this machine is not in its history{oldest}")
        frame, active = self._rows[index]
        found = bisect.bisect_left(self._frames, frame)
        values = None
        if found < len(self._frames) and self._frames[found] == frame:
            values = self._values[found]
        return Travelled(seq, frame, active, values)
