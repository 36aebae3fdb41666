"""``--inspect``: the live inspector on the heroes, their status effects and a few enemies."""

from __future__ import annotations

from game.brains import MachineBrains
from game.world import World
from statetree.inspect import Inspector, serve

WATCHED_ENEMIES = 8
"""Enemies shown one by one (the page lists them all when they are machines)."""


def serve_world(world: World, port: int = 8765) -> Inspector:
    """Start the inspector's server in a background thread and print its address."""
    machines: list[object] = []
    for hero in world.heroes:
        machines += [hero.machine, hero.status]
    brains = world.crowd.brains
    if isinstance(brains, MachineBrains):
        machines += brains.machines
    inspector = serve(machines, port=port)
    print(f"statetree inspector: {inspector.url}")
    return inspector
