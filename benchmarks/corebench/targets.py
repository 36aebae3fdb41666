"""The speed and size targets the project sets itself, judged on one run's tables."""

from __future__ import annotations

from dataclasses import dataclass

from corebench.contenders import baseline, statetree_impl
from corebench.report import Table, Target
from corebench.workloads import MACHINE_ONLY

__all__ = ["Results", "judge"]

STATETREE = statetree_impl.CONTENDER.name
BASELINE = baseline.CONTENDER.name


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
    character = results.character
    idle = results.idle
    machine_bytes = results.memory.value(MACHINE_ONLY)
    return [
        Target(
            "workload 2: statetree within 1.5x of the hand-written baseline",
            f"{character.ratio(STATETREE):.2f}x",
            character.ratio(STATETREE) <= 1.5,
        ),
        _fastest_peer(character),
        Target(
            "workload 3: settled 3-deep frame within 2x of 3 direct transition() calls",
            f"{idle.ratio(STATETREE):.2f}x",
            idle.ratio(STATETREE) <= 2.0,
        ),
        Target(
            "workload 4: under 500 bytes per statetree machine (machine + stack + states)",
            f"{machine_bytes:.0f} bytes",
            machine_bytes < 500,
        ),
    ]


def _fastest_peer(character: Table) -> Target:
    goal = "workload 2: statetree at least 40x faster than the fastest peer"
    peers = [row for row in character.rows if row.name not in (STATETREE, BASELINE)]
    if not peers:
        return Target(goal, "no peer installed", False)
    fastest = min(peers, key=lambda row: row.value)
    speedup = fastest.value / character.value(STATETREE)
    return Target(goal, f"{speedup:.1f}x (fastest peer: {fastest.name})", speedup >= 40)
