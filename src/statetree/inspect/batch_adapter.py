"""The adapters of chart batches (:class:`~statetree.chart.ChartBatch`): a population
view of the batch, and a view of one of its agents.

A batch runs one chart for thousands of agents as arrays; it has no per-agent steps to put
on a timeline. The page shows its chart with the number of agents in each state, and those
numbers over time: the adapter counts the agents at each frame (every few frames for a
very large batch, since counting a batch costs a few array passes) while a page watches.
One agent (``batch.agent(i)``) is shown like a chart machine: its states, the states it
entered and left (found by comparing its active states after each frame) and its clock,
levels and timers. NumPy is needed only by the batch itself: this module imports nothing
of it.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from statetree.errors import UsageError
from statetree.inspect.adapters import DiagramView, Event, Note, PopulationView, Sample, Value

if TYPE_CHECKING:
    from statetree.chart.batch import AgentView, ChartBatch
    from statetree.structure import Structure

__all__ = ["ChartAgentAdapter", "ChartBatchAdapter"]

AGENTS_PER_FRAME_COUNTED = 10_000
"""By default a batch is counted every ``size // 10,000`` frames (every frame up to that)."""


class ChartBatchAdapter:
    """Watch a :class:`~statetree.chart.ChartBatch` as a population.

    Args:
        batch: the batch.
        name: the label on the page (default: the batch's name, as its agents are labelled).
        every: count the agents every this many frames (default: from the batch's size).
        keep: how many samples are kept for pages that open later (a reload drops them:
            they count the states of the chart before it).

    Raises:
        UsageError: ``every`` or ``keep`` is not a whole number of at least 1.
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
        for label, given in (("every", every), ("keep", keep)):
            if given is not None and (type(given) is not int or given < 1):
                raise UsageError(f"{label} is a whole number of at least 1, got {given!r}")
        self.batch = batch
        self.name = name if name is not None else batch.name
        self.every = every or max(1, batch.size // AGENTS_PER_FRAME_COUNTED)
        self._samples: deque[Sample] = deque(maxlen=keep)
        self._frames = 0
        self._note: Note | None = None
        self._shown: tuple[object, PopulationView] | None = None

    def view(self) -> PopulationView:
        """The chart's diagram (a new one after a reload), with counts."""
        chart = self.batch.chart
        if self._shown is None or self._shown[0] is not chart:
            if self._shown is not None:  # a reload: the counts so far are of other states
                self._samples.clear()
            self._shown = (chart, PopulationView(self.batch.structure, "nested"))
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


class ChartAgentAdapter:
    """Watch one agent of a :class:`~statetree.chart.ChartBatch` as a chart machine.

    A batch calls no listeners, so the agent's steps are found by comparing its active
    states each time the inspector polls it (after each frame of a program that calls
    ``Inspector.frame()``): states left are listed deepest first, then states entered.

    Args:
        agent: the agent's view, ``batch.agent(index)``.
        name: the label on the page (default: ``Chart[index]``).
    """

    kind = "chart-agent"

    def __init__(self, agent: AgentView, *, name: str | None = None) -> None:
        self.agent = agent
        self.name = name if name is not None else agent.name
        self._note: Note | None = None
        self._seen: tuple[str, ...] = ()
        self._shown: tuple[object, Structure] | None = None

    def view(self) -> DiagramView:
        """The chart's diagram (a new one after the batch reloads)."""
        chart = self.agent.chart
        if self._shown is None or self._shown[0] is not chart:
            self._shown = (chart, self.agent.structure)
        return DiagramView(self._shown[1], "nested")

    def active(self) -> tuple[str, ...]:
        """The agent's active states' paths, regions after their host (none once the
        agent is despawned: the game may do that while a page watches)."""
        try:
            return self.agent.active
        except UsageError:  # the agent's slot is free
            return ()

    def attach(self, note: Note) -> None:
        """Start reporting the agent's steps (from its states now)."""
        self._note, self._seen = note, self.active()

    def detach(self) -> None:
        """Stop reporting."""
        self._note = None

    def poll(self) -> None:
        """Report the states the agent left and entered since the last poll."""
        note = self._note
        if note is None:
            return
        now = self.active()
        if now == self._seen:
            return
        for path in reversed(self._seen):
            if path not in now:
                note(("exit", path))
        for path in now:
            if path not in self._seen:
                note(("enter", path))
        self._seen = now

    def describe(self, raw: Any) -> Event:
        """The timeline line of a state left or entered."""
        category, path = raw
        label = "Entered" if category == "enter" else "Exited"
        return Event(category, label, path, path.count("."))

    def values(self) -> tuple[Value, ...]:
        """The agent's clock (seconds), the levels held for it and its running timers
        (none once it is despawned)."""
        agent = self.agent
        try:
            clock, held, timers = agent.clock, agent.held, agent.timers
        except UsageError:  # the agent's slot is free
            return ()
        names = sorted(str(event) for event in held)
        return (
            ("chart", "clock", clock),
            *(("held", name, True) for name in names),
            *(("timers", f"{t.name} ({t.state})", t.due) for t in timers),
        )
