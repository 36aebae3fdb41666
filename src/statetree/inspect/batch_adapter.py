"""The adapter of chart batches (:class:`~statetree.chart.ChartBatch`): a population view.

A batch runs one chart for thousands of agents as arrays; it has no per-agent steps to put
on a timeline. The page shows its chart with the number of agents in each state, and those
numbers over time: the adapter counts the agents at each frame (every few frames for a
very large batch, since counting a batch costs a few array passes) while a page watches.
NumPy is needed only by the batch itself: this module imports nothing of it.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from statetree.inspect.adapters import Event, Note, PopulationView, Sample

if TYPE_CHECKING:
    from statetree.chart.batch import ChartBatch

__all__ = ["ChartBatchAdapter"]

AGENTS_PER_FRAME_COUNTED = 10_000
"""By default a batch is counted every ``size // 10,000`` frames (every frame up to that)."""


class ChartBatchAdapter:
    """Watch a :class:`~statetree.chart.ChartBatch` as a population.

    Args:
        batch: the batch.
        name: the label on the page (default: the chart's name).
        every: count the agents every this many frames (default: from the batch's size).
        keep: how many samples are kept for pages that open later.
    """

    kind = "chart-batch"

    def __init__(
        self,
        batch: ChartBatch,
        *,
        name: str | None = None,
        every: int | None = None,
        keep: int = 600,
    ) -> None:
        self.batch = batch
        self.name = name if name is not None else batch.chart.name
        self.every = every or max(1, batch.size // AGENTS_PER_FRAME_COUNTED)
        self._samples: deque[Sample] = deque(maxlen=keep)
        self._frames = 0
        self._note: Note | None = None
        self._shown: tuple[object, PopulationView] | None = None

    def view(self) -> PopulationView:
        """The chart's diagram (a new one after a reload), with counts."""
        chart = self.batch.chart
        if self._shown is None or self._shown[0] is not chart:
            self._shown = (chart, PopulationView(self.batch.structure))
        return self._shown[1]

    def active(self) -> tuple[str, ...]:
        """The states at least one agent is in, at the last sample."""
        names = self.view().structure.names
        if not self._samples:
            counts = self.batch.counts()
            return tuple(name for name in names if counts.get(name))
        last = self._samples[-1][1]
        return tuple(name for name, count in zip(names, last, strict=False) if count)

    def attach(self, note: Note) -> None:
        """Start counting the agents (from the next poll); a page watches."""
        self._note = note
        self._frames = 0
        self._samples.clear()

    def detach(self) -> None:
        """Stop counting."""
        self._note = None

    def poll(self) -> None:
        """One frame went by: count the agents if it is time to."""
        if self._note is None:
            return
        if self._frames % self.every == 0:
            self._count()
        self._frames += 1

    def _count(self) -> None:
        counts = self.batch.counts()
        names = self.view().structure.names
        self._samples.append((self._frames, tuple(counts.get(name, 0) for name in names)))

    def samples(self, since: int) -> tuple[Sample, ...]:
        """The samples taken after frame ``since``, oldest first."""
        return tuple(sample for sample in self._samples if sample[0] > since)

    def describe(self, raw: Any) -> Event:
        """A batch reports no steps; a record is shown as it is."""
        return Event("event", "Batch", "", -1, repr(raw))
