"""Shrine Arena: a small top-down arena game written with statetree and pygame-ce.

Each part of the game's behaviour is written the way the statetree guide teaches:

- the hero is a class-based machine in the style of the HSM book (:mod:`game.hero`);
- the enemies are a chart, ``enemy.yaml``, run for the whole crowd at once
  (:mod:`game.enemies`);
- status effects are a bitmask machine with required, terminated and blocking rules
  (:mod:`game.status`);
- two players can play over the network with ``statetree.net`` (:mod:`game.netplay`).

The simulation (:mod:`game.world`) is deterministic and needs no display; pygame-ce only
draws it (:mod:`game.render`). Run ``python examples/game`` (``--help`` for the options).
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame prints no banner on import
