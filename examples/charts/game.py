"""The host side of the seed's attack charts: the action types the game performs.

A game registers its own actions; the chart runtime only performs timers, history and
internal events itself. Run a chart with them from the command line::

    statetree run examples/charts/combo_attack.yaml \
        --registry examples/charts/game.py:REGISTRY --events examples/charts/combo_attack.events
"""

from __future__ import annotations

from statetree.chart import DEFAULT_REGISTRY, ActionType, Param

REGISTRY = DEFAULT_REGISTRY.with_actions(
    ActionType("play_animation", (Param("name"), Param("loop", bool, False))),
    ActionType("play_sound", (Param("name"), Param("loop", bool, False))),
    ActionType("enable_damage_collision", (Param("name"), Param("damage", float, minimum=0))),
    ActionType("disable_damage_collision", (Param("name"),)),
)
"""Built-in triggers and actions, plus animation, sound and damage-collision actions."""
