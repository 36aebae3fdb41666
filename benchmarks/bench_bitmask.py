"""Benchmarks for bitmask machines, printed as microseconds per operation and ratios.

Single entity: ``BitmaskMachine.try_activate`` / ``deactivate`` against a hand-written
bitwise version of the same seven player states (same rules, no hooks, no history).
Many entities: ``BitmaskBatch.apply`` against a loop over single machines, in entity-requests
per second, for the seven player states (one 64-bit word) and for 130 states (three words).

Run ``python benchmarks/bench_bitmask.py``; :func:`run` returns the rows for other scripts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Protocol

from statetree.bitmask import BitmaskBatch, BitmaskDefinition, BitmaskMachine

Row = tuple[str, float, float]
"""(case, microseconds per operation, ratio to the case's baseline)."""

PLAYER = BitmaskDefinition.from_data(
    [
        {"name": "Alive"},
        {"name": "Moving", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
        {"name": "Crouching", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
        {"name": "Aiming", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
        {"name": "Shooting", "requires": ["Alive", "Aiming"], "blocked_by": ["InDialogue"]},
        {
            "name": "Punching",
            "requires": ["Alive"],
            "terminates": ["Aiming"],
            "blocked_by": ["Shooting", "InDialogue"],
            "retriggerable": True,
        },
        {
            "name": "InDialogue",
            "requires": ["Alive"],
            "terminates": ["Moving", "Punching", "Aiming"],
        },
    ],
    name="Player",
)

# One request per line: (activate?, state index). Mixes successes, refusals and cascades.
SCRIPT = [
    (True, 0), (True, 1), (True, 2), (True, 3), (True, 4), (True, 5), (False, 4),
    (True, 5), (True, 5), (True, 3), (True, 6), (True, 1), (False, 6), (False, 0),
]  # fmt: skip


class HandWritten:
    """The player rules as constants and bit operations: the fastest plain-Python form."""

    __slots__ = ("mask",)

    ALIVE, MOVING, CROUCHING, AIMING, SHOOTING, PUNCHING, DIALOGUE = (1 << i for i in range(7))
    REQUIRES = (0, ALIVE, ALIVE, ALIVE, ALIVE | AIMING, ALIVE, ALIVE)
    BLOCKED = (0, DIALOGUE, DIALOGUE, DIALOGUE, DIALOGUE, SHOOTING | DIALOGUE, 0)
    DROPS = (0, 0, 0, 0, 0, AIMING | SHOOTING, MOVING | PUNCHING | AIMING | SHOOTING)
    DEPENDENTS = (0b1111110, 0, 0, SHOOTING, 0, 0, 0)
    RETRIGGER = (False, False, False, False, False, True, False)

    def __init__(self) -> None:
        self.mask = 0

    def try_activate(self, index: int) -> bool:
        mask = self.mask
        bit = 1 << index
        if mask & bit and not self.RETRIGGER[index]:
            return False
        if mask & self.BLOCKED[index] or self.REQUIRES[index] & ~mask:
            return False
        self.mask = (
            mask & ~self.DROPS[index] & ~(self.DEPENDENTS[index] if mask & bit else 0)
        ) | bit
        return True

    def deactivate(self, index: int) -> bool:
        bit = 1 << index
        if not self.mask & bit:
            return False
        self.mask &= ~(bit | self.DEPENDENTS[index])
        return True


class Case(Protocol):
    """A timed piece of work; ``prepare`` runs before the clock starts."""

    def prepare(self) -> None: ...

    def run(self) -> None: ...


def _interleaved(cases: Sequence[Case], repeats: int = 7) -> list[float]:
    # Alternating the cases and keeping each one's best time makes the ratios robust to
    # other load on the machine: every case sees the same conditions.
    best = [float("inf")] * len(cases)
    for _ in range(repeats):
        for i, case in enumerate(cases):
            case.prepare()
            start = time.perf_counter()
            case.run()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


class ScriptCase:
    """The request script, repeated, on one single-entity implementation."""

    def __init__(self, target: HandWritten | BitmaskMachine[None], loops: int) -> None:
        self.target = target
        self.loops = loops
        by_name = isinstance(target, BitmaskMachine)
        self.script = [(on, PLAYER.names[i] if by_name else i) for on, i in SCRIPT]

    def prepare(self) -> None:
        pass

    def run(self) -> None:
        activate, deactivate = self.target.try_activate, self.target.deactivate
        for _ in range(self.loops):
            for on, state in self.script:
                activate(state) if on else deactivate(state)


def single_entity(loops: int = 10_000) -> list[Row]:
    """Time the request script on a hand-written version and on machines."""
    ops = loops * len(SCRIPT)
    cases = [
        ScriptCase(HandWritten(), loops),
        ScriptCase(BitmaskMachine(PLAYER, history_size=0), loops),
        ScriptCase(BitmaskMachine(PLAYER, history_size=64), loops),
    ]
    base, *costs = _interleaved(cases)
    assert len({case.target.mask for case in cases}) == 1
    rows: list[Row] = [("single: hand-written bitwise", base / ops * 1e6, 1.0)]
    for label, cost in zip(("no history", "history 64"), costs, strict=True):
        rows.append((f"single: BitmaskMachine ({label})", cost / ops * 1e6, cost / base))
    return rows


def wide_definition(groups: int = 13, size: int = 10) -> BitmaskDefinition:
    """130 states: groups of ten, each a root and nine members that require it.

    Member ``i`` terminates member ``i + 1`` and is blocked by member ``i + 2`` of its group.
    """
    rules: list[dict[str, object]] = []
    for g in range(groups):
        rules.append({"name": f"G{g}S0"})
        for i in range(1, size):
            rule: dict[str, object] = {"name": f"G{g}S{i}", "requires": [f"G{g}S0"]}
            if i + 1 < size:
                rule["terminates"] = [f"G{g}S{i + 1}"]
            if i + 2 < size:
                rule["blocked_by"] = [f"G{g}S{i + 2}"]
            rules.append(rule)
    return BitmaskDefinition.from_data(rules, name="Wide")


Frame = tuple[list[int], list[int], list[bool]]


def make_frames(definition: BitmaskDefinition, entities: int, frames: int) -> list[Frame]:
    """One request per entity per frame; states without requirements are asked for often."""
    rng = random.Random(7)
    roots = [i for i in range(definition.size) if not definition.requires[i]]
    stream = []
    for _ in range(frames):
        states = [
            rng.choice(roots) if rng.random() < 0.3 else rng.randrange(definition.size)
            for _ in range(entities)
        ]
        activate = [rng.random() < 0.8 for _ in range(entities)]
        stream.append((list(range(entities)), states, activate))
    return stream


class LoopCase:
    """Frames of requests sent to one single machine per entity."""

    def __init__(self, definition: BitmaskDefinition, stream: list[Frame], entities: int) -> None:
        self.definition = definition
        self.stream = stream
        self.entities = entities
        self.machines: list[BitmaskMachine[None]] = []
        self.changed = 0

    def prepare(self) -> None:
        self.machines = [
            BitmaskMachine(self.definition, history_size=0) for _ in range(self.entities)
        ]

    def run(self) -> None:
        names, machines, changed = self.definition.names, self.machines, 0
        for rows, states, activate in self.stream:
            for e, s, on in zip(rows, states, activate, strict=True):
                m = machines[e]
                changed += m.try_activate(names[s]) if on else m.deactivate(names[s])
        self.changed = changed


class BatchCase:
    """The same frames applied to one batch."""

    def __init__(self, definition: BitmaskDefinition, stream: list[Frame], entities: int) -> None:
        import numpy as np

        self.definition = definition
        self.entities = entities
        # A game keeps its per-entity data in arrays already, so conversion is not timed.
        self.arrays = [tuple(np.asarray(column) for column in frame) for frame in stream]
        self.batch = BitmaskBatch(definition, entities)

    def prepare(self) -> None:
        self.batch = BitmaskBatch(self.definition, self.entities)

    def run(self) -> None:
        for rows, states, activate in self.arrays:
            self.batch.apply(rows, states, activate)


def many_entities(
    definition: BitmaskDefinition, entities: int = 10_000, frames: int = 5
) -> list[Row]:
    """Time frames of one request per entity: a loop of machines against one batch."""
    stream = make_frames(definition, entities, frames)
    ops = entities * frames
    loop, batch = LoopCase(definition, stream, entities), BatchCase(definition, stream, entities)
    slow, fast = _interleaved([loop, batch], repeats=3)
    assert all(batch.batch.mask_of(e) == m.mask for e, m in enumerate(loop.machines))
    label = f"{definition.size} states, {entities} entities, {loop.changed / ops:.0%} change"
    return [
        (f"batch: loop of machines ({label})", slow / ops * 1e6, 1.0),
        (f"batch: BitmaskBatch.apply ({label})", fast / ops * 1e6, fast / slow),
    ]


def run() -> list[Row]:
    """Run every benchmark (a few seconds) and return its rows."""
    return single_entity() + many_entities(PLAYER) + many_entities(wide_definition())


def main() -> None:
    """Print the benchmark table."""
    rows = run()
    width = max(len(name) for name, _, _ in rows)
    print(f"{'case':<{width}}  {'µs/op':>8}  {'ratio':>7}  {'ops/s':>12}")
    for name, micros, ratio in rows:
        print(f"{name:<{width}}  {micros:8.3f}  {ratio:7.3f}  {1e6 / micros:12,.0f}")
    print("ratio: cost relative to the first row of its group (hand-written, or loop of machines)")


if __name__ == "__main__":
    main()
