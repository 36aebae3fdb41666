"""``--inspect``: the live inspector on the match, the heroes, their effects and the enemies.

Enemies run by per-enemy chart machines are inspected as they are. Enemies of a
``ChartBatch`` have no machine object: the inspector watches a few agents through the
batch's read-only views of them (``batch.agent(i)``).
"""

from __future__ import annotations

from game.brains import MachineBrains
from game.world import World
from statetree.inspect import Inspector, serve

WATCHED_AGENTS = 12
"""Agents of a batch offered to the page (machines are all offered)."""


def watched(world: World) -> list[object]:
    """What the inspector shows: the match, each hero's machine and effects, the enemies."""
    machines: list[object] = [world.match.machine]
    for hero in world.heroes:
        machines += [hero.machine, hero.status]
    brains = world.crowd.brains
    if isinstance(brains, MachineBrains):
        return machines + list(brains.machines)
    batch = brains.batch  # type: ignore[attr-defined]
    return machines + [batch.agent(i) for i in range(min(WATCHED_AGENTS, world.crowd.count))]


PORT = 8765
"""The inspector's port (the one ``statetree inspect`` and the demo use)."""


def serve_world(world: World, port: int | None = None) -> Inspector:
    """Start the inspector's server in a background thread and print its address.

    Raises:
        statetree.inspect.ServeError: the port (:data:`PORT` by default) is taken.
    """
    inspector = serve(watched(world), port=PORT if port is None else port)
    print(f"statetree inspector: {inspector.url}")
    return inspector
