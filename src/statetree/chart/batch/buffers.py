"""What one pass writes besides the agents' arrays: host call records, undo rows, failures.

The buffers live with the batch and are reused from call to call (a frame allocates
nothing); the compiled pass fills them and stops when one is full, the caller doubles it
and the pass goes on.
"""

from __future__ import annotations

from typing import Any

from statetree.chart.batch.arrays import Floats, Indexes, NDArray, np

__all__ = [
    "CODE",
    "CURSOR",
    "MISSING_S",
    "MISSING_X",
    "NFAIL",
    "NREC",
    "NUNDO",
    "POS",
    "Buffers",
]

POS, CODE, NREC, NUNDO, NFAIL, MISSING_S, MISSING_X, CURSOR = range(8)
"""Slots of ``status``: where a pass goes on, why it stopped, the buffers' counts, the
(situation, input) pair it is missing, and how many of the agents named are done."""


class Buffers:
    """Records ``(agent, processing number, entry)``; undo rows ``(agent, situation,
    epoch)`` with their timer rows; failures ``(agent, entry or -1)`` with their clocks; and
    the pass's ``status`` (see :mod:`~statetree.chart.batch.kernel`)."""

    def __init__(self, rows: int, ordered_rows: int, capacity: int = 64) -> None:
        self.rows, self.ordered_rows = rows, ordered_rows
        self.status = np.zeros(8, np.int64)
        self.records = np.zeros((capacity, 3), np.int32)
        self.undo = np.zeros((capacity, 3), np.int32)
        self.undo_due: Floats = np.zeros((capacity, rows))
        self.undo_order = np.zeros((capacity, ordered_rows), np.int64)
        self.fails = np.zeros((capacity, 2), np.int64)
        self.fail_clock: Floats = np.zeros(capacity)
        self.queue = np.zeros(0, np.int32)  # the agents a pass moves, listed first

    def reset(self) -> None:
        """Empty, for a new pass."""
        self.status[:] = 0

    def grow(self) -> None:
        """Double every buffer, keeping what is written."""
        for name in ("records", "undo", "undo_due", "undo_order", "fails", "fail_clock"):
            array = getattr(self, name)
            bigger = np.zeros((2 * array.shape[0], *array.shape[1:]), array.dtype)
            bigger[: array.shape[0]] = array
            setattr(self, name, bigger)

    def as_tuple(self, slots: int) -> tuple[NDArray[Any], ...]:
        """The buffers in the order the compiled pass reads them, for ``slots`` agent
        slots."""
        if self.queue.size < slots:
            self.queue = np.zeros(slots, np.int32)
        return (
            self.records,
            self.undo,
            self.undo_due,
            self.undo_order,
            self.fails,
            self.fail_clock,
            self.status,
            self.queue,
        )

    def _room(self, name: int, more: int) -> int:
        start = int(self.status[name])
        while start + more > min(self.records.shape[0], self.undo.shape[0], self.fails.shape[0]):
            self.grow()
        self.status[name] = start + more
        return start

    def put_records(self, agents: Indexes, numbers: Indexes, entries: Indexes) -> None:
        """Append records."""
        at = self._room(NREC, agents.size)
        self.records[at : at + agents.size] = np.stack([agents, numbers, entries], axis=1)

    def put_undo(
        self,
        agents: Indexes,
        situations: NDArray[Any],
        epochs: NDArray[Any],
        due: Floats,
        order: NDArray[np.int64],
    ) -> None:
        """Append undo rows (``due`` and ``order``: rows by agents)."""
        at = self._room(NUNDO, agents.size)
        end = at + agents.size
        self.undo[at:end] = np.stack([agents, situations, epochs], axis=1)
        self.undo_due[at:end] = due.T
        self.undo_order[at:end] = order.T

    def put_failures(self, agents: Indexes, entries: Indexes, clocks: Floats) -> None:
        """Append failures."""
        at = self._room(NFAIL, agents.size)
        self.fails[at : at + agents.size] = np.stack([agents, entries], axis=1)
        self.fail_clock[at : at + agents.size] = clocks

    # -- reading ---------------------------------------------------------------------------

    @property
    def record_rows(self) -> NDArray[np.int32]:
        """The records written."""
        return self.records[: self.status[NREC]]

    @property
    def undo_rows(self) -> NDArray[np.int32]:
        """The undo rows written."""
        return self.undo[: self.status[NUNDO]]
