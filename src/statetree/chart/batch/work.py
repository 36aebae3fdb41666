"""A working set: the agents one call processes, their arrays gathered side by side.

Besides the persistent state it gathers (active states, histories, levels, clock, timers), a
working set holds what only lives during a processing: each state's entry serial, each edge
trigger's latch serial, the serial counter and the number of changes made. Serials count
from the processing's start (0), which is all the latching rules compare against.
"""

from __future__ import annotations

from typing import Any

from statetree.chart.batch.arrays import Bools, Floats, Indexes, NDArray, Serials, np

__all__ = ["Work"]


class Work:
    """The arrays of ``k`` agents, one column each (agents ascending).

    Attributes:
        ids: the agents' indexes in the batch.
        active: (states, k) whether each state is active.
        history: (states with children, k) the child each state resumes (or has active).
        levels: (level triggers, k) whether the host holds each level trigger.
        clock: the agents' clocks.
        due: (timer rows, k) each timer's deadline, NaN when none runs.
        sequence: (timer rows, k) when each timer started, to order equal deadlines (empty
            when timers cannot coexist).
        entry: (states, k) the serial at each state's entry in this processing (0: before).
        latched: (edge triggers, k) the serial that latched each trigger (0: not yet).
        serial: the last serial handed out in this processing.
        changes: the changes made in this processing.
        end: for a tick, the clock each agent reaches at its end.
    """

    __slots__ = (
        "active",
        "changes",
        "clock",
        "due",
        "end",
        "entry",
        "history",
        "ids",
        "latched",
        "levels",
        "sequence",
        "serial",
    )

    def __init__(
        self,
        ids: Indexes,
        parts: tuple[Bools, NDArray[Any], Bools, Floats, Floats, NDArray[np.int64]],
        edges: int,
    ) -> None:
        self.ids = ids
        self.active, self.history, self.levels, self.clock, self.due, self.sequence = parts
        count = ids.size
        self.entry: Serials = np.zeros((self.active.shape[0], count), np.int32)
        self.latched: Serials = np.zeros((edges, count), np.int32)
        self.serial: Serials = np.zeros(count, np.int32)
        self.changes: Serials = np.zeros(count, np.int32)
        self.end: Floats = self.clock

    @property
    def k(self) -> int:
        """How many agents the set holds."""
        return int(self.ids.size)

    def take(self, keep: Bools) -> Work:
        """The agents where ``keep`` is true, as a new working set."""
        taken = Work.__new__(Work)
        for name in Work.__slots__:
            setattr(taken, name, np.compress(keep, getattr(self, name), axis=-1))
        return taken
