"""``--inspect``: the live inspector on the heroes, their status effects and the enemies.

Enemies run by per-enemy chart machines are inspected as they are. Enemies of a
``ChartBatch`` have no machine object: :class:`AgentAdapter` shows one agent of the batch
through the inspector's adapter protocol, from the batch's read-only view of it.
"""

from __future__ import annotations

from typing import Any

from game.brains import MachineBrains
from game.world import World
from statetree.chart import AgentView
from statetree.inspect import DiagramView, Event, Inspector, Note, serve

WATCHED_AGENTS = 12
"""Agents of a batch offered to the page (machines are all offered)."""


class AgentAdapter:
    """One agent of a ``ChartBatch``, as the inspector watches a machine.

    A batch has no per-agent listeners, so the changes of a watched agent are found by
    comparing its active states each time the inspector polls.
    """

    kind = "chart-agent"

    def __init__(self, agent: AgentView) -> None:
        self.agent = agent
        self.name = agent.name
        self._note: Note | None = None
        self._seen: tuple[str, ...] = ()

    def view(self) -> DiagramView:
        return DiagramView(self.agent.structure)

    def active(self) -> tuple[str, ...]:
        return self.agent.active

    def attach(self, note: Note) -> None:
        self._note, self._seen = note, self.agent.active

    def detach(self) -> None:
        self._note = None

    def poll(self) -> None:
        note, now = self._note, self.agent.active
        if note is None or now == self._seen:
            return
        for path in reversed(self._seen):
            if path not in now:
                note(("exit", path))
        for path in now:
            if path not in self._seen:
                note(("enter", path))
        self._seen = now

    def describe(self, raw: Any) -> Event:
        category, path = raw
        label = "Entered" if category == "enter" else "Exited"
        return Event(category, label, path, path.count("."))


def watched(world: World) -> list[object]:
    """What the inspector shows: each hero's machine and effects, then the enemies."""
    machines: list[object] = []
    for hero in world.heroes:
        machines += [hero.machine, hero.status]
    brains = world.crowd.brains
    if isinstance(brains, MachineBrains):
        return machines + list(brains.machines)
    batch = brains.batch  # type: ignore[attr-defined]
    return machines + [AgentAdapter(batch.agent(i)) for i in range(WATCHED_AGENTS)]


def serve_world(world: World, port: int = 8765) -> Inspector:
    """Start the inspector's server in a background thread and print its address."""
    inspector = serve(watched(world), port=port)
    print(f"statetree inspector: {inspector.url}")
    return inspector
