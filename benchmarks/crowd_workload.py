"""The crowd workload of the batch benchmarks, needing nothing but NumPy and statetree.

The character is ``examples/charts/crowd.json``; a frame gives about 10% of the agents an
input (attack, jump, move, stop, die, respawn), then advances every clock by 1/60 s.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np

from statetree.chart import Event, load

__all__ = ["CHART", "DT", "EVENTS", "INPUTS", "Frame", "frames"]

ROOT = Path(__file__).resolve().parents[1]
GAME = runpy.run_path(str(ROOT / "examples" / "charts" / "game.py"))["REGISTRY"]
CHART = load(ROOT / "examples" / "charts" / "crowd.json", GAME)
INPUTS = (
    (Event("input", "Attack"), 0.40),
    (Event("input", "Jump"), 0.20),
    (Event("input", "Move"), 0.15),
    (Event("input", "Stop"), 0.15),
    (Event("event", "Died"), 0.05),
    (Event("input", "Respawn"), 0.05),
)
EVENTS = [event for event, _ in INPUTS]
DT = 1 / 60
Frame = np.ndarray  # type: ignore[type-arg]


def frames(agents: int, count: int, seed: int = 1) -> list[Frame]:
    """``count`` frames of inputs: each agent's event index, or -1 (about 90%)."""
    random = np.random.default_rng(seed)
    odds = np.array([odds for _, odds in INPUTS])
    return [
        np.where(random.random(agents) < 0.1, random.choice(len(EVENTS), agents, p=odds), -1)
        for _ in range(count)
    ]
