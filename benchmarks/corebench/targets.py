"""The speed and size targets the project sets itself, judged on one run's tables."""

from __future__ import annotations

from dataclasses import dataclass

from corebench.contenders import events, statetree_impl
from corebench.report import Table, Target
from corebench.workloads import MACHINE_ONLY

__all__ = ["Results", "judge"]

STATETREE = statetree_impl.CONTENDER.name
EVENTS_BASELINE = events.CONTENDER.name


@dataclass(frozen=True)
class Results:
    """The tables of one run."""

    toggle: Table
    character: Table
    idle: Table
    building: Table
    memory: Table


def judge(results: Results) -> list[Target]:
    """Every target with PASS or MISS (targets are reported, never asserted)."""
    machine_bytes = results.memory.value(MACHINE_ONLY)
    return [
        _within("workload 1: toggle", results.toggle, 10.0),
        _within("workload 2: character script", results.character, 5.0),
        _within("workload 3: settled 3-deep frame", results.idle, 4.0),
        _within("workload 4a: building a machine", results.building, 6.0),
        Target(
            "workload 4b: at most 400 bytes per statetree machine (machine, 3-deep stack, states)",
            f"{machine_bytes:.0f} bytes",
            machine_bytes <= 400,
        ),
        _fastest_peer(results.character),
    ]


def _within(workload: str, table: Table, bound: float) -> Target:
    ratio = table.ratio(STATETREE, EVENTS_BASELINE)
    return Target(
        f"{workload}: statetree within {bound:g}x of the event-driven baseline",
        f"{ratio:.2f}x",
        ratio <= bound,
    )


def _fastest_peer(character: Table) -> Target:
    goal = "workload 2: statetree at least 40x faster than the fastest peer"
    peers = [
        row
        for row in character.rows
        if row.name != STATETREE and row.name not in character.references
    ]
    if not peers:
        return Target(goal, "no peer installed", False)
    fastest = min(peers, key=lambda row: row.value)
    speedup = fastest.value / character.value(STATETREE)
    return Target(goal, f"{speedup:.1f}x (fastest peer: {fastest.name})", speedup >= 40)
