"""A platformer hero defined as a chart, with concurrent upper- and lower-body regions.

The game registers its own trigger type (``landed``) and actions (animations on a body
layer, speed, spawning), loads ``charts/platformer.yaml`` and plays
``charts/platformer.events``, printing each event, the trace and the actions performed.

Run it: ``python examples/chart_platformer.py``. The same chart runs from the command line
with ``statetree run examples/charts/platformer.yaml --registry
examples/chart_platformer.py --events examples/charts/platformer.events``.
"""

from __future__ import annotations

from pathlib import Path

from extras import needs

import statetree as st
from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    ChartMachine,
    Param,
    TriggerType,
    load,
    read_script,
)

CHARTS = Path(__file__).resolve().parent / "charts"

REGISTRY = DEFAULT_REGISTRY.with_triggers(TriggerType("landed")).with_actions(
    ActionType(
        "play_animation",
        (
            Param("name"),
            Param("layer", str, "full", choices=("full", "legs", "arms")),
            Param("loop", bool, False),
        ),
    ),
    ActionType("set_speed", (Param("value", float, minimum=0.0),)),
    ActionType("spawn", (Param("what"),)),
)
"""The built-ins plus what this game adds: a ``landed`` trigger and three actions."""


class Hero:
    """The game object: it performs the chart's actions and keeps what they change."""

    def __init__(self, out: list[str]) -> None:
        self.out = out
        self.speed = 0.0
        self.layers: dict[str, str] = {}
        chart = load(CHARTS / "platformer.yaml", REGISTRY)
        self.machine = ChartMachine(
            chart,
            {
                "play_animation": self.play_animation,
                "set_speed": self.set_speed,
                "spawn": self.spawn,
            },
            name="Hero",
            trace=st.TraceLevel.BASIC,
            trace_sink=out.append,
        )

    def play_animation(self, call: ActionCall) -> None:
        layer, name = str(call.params["layer"]), str(call.params["name"])
        self.layers[layer] = name
        self.out.append(f"  {layer}: play {name}")

    def set_speed(self, call: ActionCall) -> None:
        self.speed = float(call.params["value"])
        self.out.append(f"  speed {self.speed:g}")

    def spawn(self, call: ActionCall) -> None:
        self.out.append(f"  spawn {call.params['what']}")


def run() -> list[str]:
    """Play the events script on a new hero; return every line printed."""
    lines: list[str] = []
    hero = Hero(lines)
    hero.machine.start()
    script = CHARTS / "platformer.events"
    for step in read_script(script.read_text(encoding="utf-8"), str(script)):
        lines.append(f"> {step}")
        hero.machine.play(step)
    lines.append(f"active: {', '.join(hero.machine.active)}")
    return lines


def main() -> None:
    """Print the run."""
    print("\n".join(run()))


if __name__ == "__main__":
    with needs("chart"):
        main()
