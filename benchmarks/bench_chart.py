"""Charts against the core runtime, the hand-written baseline and the event-driven peers.

The character of the core benchmark (``corebench/script.py``), Alive{Locomotion{Stand,
Move}, Jump}, Dead, written as a chart whose explicit transitions fire on the script's
named events, and a flat Off/On chart toggled by an event. Both run through the core
workloads, which check that every contender does the same work before timing it:

1. flat toggle: one op is one ``send`` of ``toggle``;
2. character: one op is one scripted step, the step's event sent to the chart;
3. settled frame: one op is an event no transition listens to (the peers' guarded
   ``tick``), which still runs one processing pass over the three active states.

Run ``python benchmarks/bench_chart.py`` (``--profile`` adds where a chart's time goes).
The target: on workload 2, a chart machine within 1.3x of the same machine written as State
classes (the ``statetree`` row).
"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys

from corebench import workloads
from corebench.api import Contender
from corebench.contenders import load
from corebench.report import format_table
from corebench.script import EVENTS, Counters

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    Chart,
    ChartMachine,
    CompiledChart,
    Event,
    Param,
    StateDef,
    compile_chart,
)
from statetree.chart import builder as b

NAME = "statetree chart"
TARGET = 1.3

COUNTING = DEFAULT_REGISTRY.with_actions(
    ActionType("entered", (Param("name"),)), ActionType("exited", (Param("name"),))
)


def _state(name: str, event: str, target: str, *children: StateDef) -> StateDef:
    """A counted state that goes to ``target`` on the named ``event``.

    A state with children clears its history on exit: the other contenders enter their
    initial inner state every time (landing ends in Stand, reviving in Locomotion).
    """
    clear = (b.clear_history(),) if children else ()
    return b.state(
        name,
        *children,
        enter=[b.action("entered", name=name)],
        exit=[b.action("exited", name=name), *clear],
        transitions=[b.on(b.event(event), target)],
    )


def character_chart() -> Chart:
    """The core benchmark's character as a chart whose transitions fire on named events."""
    legs = (_state("Stand", "move", "Move"), _state("Move", "stop", "Stand"))
    body = (_state("Locomotion", "jump", "Jump", *legs), _state("Jump", "land", "Locomotion"))
    life = (_state("Alive", "die", "Dead", *body), _state("Dead", "revive", "Alive"))
    return b.chart("Character", b.state("Character", *life), registry=COUNTING)


def switch_chart() -> Chart:
    """Off and On, toggled by the named event ``toggle``."""
    off = b.state("Off", transitions=[b.on(b.event("toggle"), "On")])
    on = b.state("On", transitions=[b.on(b.event("toggle"), "Off")])
    return b.chart("Switch", b.state("Switch", off, on))


CHARACTER: CompiledChart = compile_chart(character_chart())
SWITCH: CompiledChart = compile_chart(switch_chart())
SCRIPT_EVENTS = tuple(Event("event", name) for name in EVENTS)
TOGGLE = Event("event", "toggle")
IDLE = Event("event", "tick")


class Switch:
    """Off/On, toggled by sending ``toggle``."""

    def __init__(self) -> None:
        self.machine = ChartMachine(SWITCH)
        self.machine.start()

    def play(self, toggles: int) -> None:
        send = self.machine.send
        for _ in range(toggles):
            send(TOGGLE)

    def is_on(self) -> bool:
        return self.machine.is_active("Switch.On")


class Character:
    """The character chart; the counting actions go to two small handlers."""

    def __init__(self, counters: Counters) -> None:
        entered, exited = counters.entered, counters.exited

        def enter(call: ActionCall) -> None:
            entered[call.params["name"]] += 1  # type: ignore[index]

        def leave(call: ActionCall) -> None:
            exited[call.params["name"]] += 1  # type: ignore[index]

        self.machine = ChartMachine(CHARACTER, {"entered": enter, "exited": leave})
        self.machine.start()

    def play(self, cycles: int) -> None:
        send = self.machine.send
        for _ in range(cycles):
            for event in SCRIPT_EVENTS:
                send(event)

    def idle(self, frames: int) -> None:
        send = self.machine.send
        for _ in range(frames):
            send(IDLE)

    def active(self) -> tuple[str, ...]:
        return tuple(path.rpartition(".")[2] for path in self.machine.active[1:])


CONTENDER = Contender(NAME, Switch, Character)


def profile(cycles: int = 20_000) -> str:
    """The functions where the chart character spends its time, most expensive first."""
    character = Character(Counters())
    profiler = cProfile.Profile()
    profiler.runcall(character.play, cycles)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
    return out.getvalue()


def main(argv: list[str]) -> int:
    lineup = load()
    for reason in lineup.skipped:
        print(f"skipped {reason}")
    contenders = list(lineup.contenders)
    contenders.insert(3, CONTENDER)  # after the two baselines and the class-based machine
    tables = [
        workloads.toggle(contenders),
        workloads.character(contenders),
        workloads.idle_frame(contenders),
    ]
    for table in tables:
        print(format_table(table), end="\n\n")
    character = tables[1]
    classes = character.ratio(NAME, "statetree")
    verdict = "PASS" if classes <= TARGET else "MISS"
    print("Targets")
    print(f"  {verdict}  workload 2: chart within {TARGET:g}x of the machine written as classes: ")
    print(f"        {classes:.2f}x ({character.ratio(NAME):.2f}x the event-driven baseline)")
    if "--profile" in argv:
        print(profile())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
