"""Batches of charts whose flags fill a 64-bit word or more (33 to 63 states, and past 64):
they step, snapshot and restore as their machines."""

from __future__ import annotations

import pytest

from statetree.chart import Chart, ChartBatch, ChartMachine, Event
from statetree.chart import builder as b

SPOTS = 4


def wide_chart(rooms: int) -> Chart:
    """``rooms`` rooms of four spots each (``5 * rooms + 1`` states): ``next`` moves to the
    next spot, ``go`` to the next room, which resumes the spot it was left in."""
    built = []
    for room in range(rooms):
        spots = [
            b.state(f"S{spot}", transitions=[b.on(b.event("next"), f"S{(spot + 1) % SPOTS}")])
            for spot in range(SPOTS)
        ]
        target = f"R{(room + 1) % rooms}"
        built.append(b.state(f"R{room}", *spots, transitions=[b.on(b.event("go"), target)]))
    return b.chart("Wide", b.state("Wide", *built))


@pytest.mark.parametrize("backend", ["numba", "numpy"])
@pytest.mark.parametrize("rooms", [12, 13])  # 61 and 66 states
def test_a_wide_batch_steps_snapshots_and_restores_as_its_machines(
    rooms: int, backend: str
) -> None:
    chart = wide_chart(rooms)
    batch = ChartBatch(chart, 3, backend=backend)
    machines = [ChartMachine(chart) for _ in range(3)]
    batch.start()
    for machine in machines:
        machine.start()
    steps = ["next", "go", "next", "next", "go", "go", "next"] + ["go"] * rooms
    rooms_seen = set()
    for number, name in enumerate(steps):
        agents = [number % 3, (number + 1) % 3]
        batch.send(Event("event", name), agents)
        for agent in agents:
            machines[agent].send(Event("event", name))
        assert [batch.agent(n).active for n in range(3)] == [m.active for m in machines]
        rooms_seen.update(m.active[1] for m in machines)
        if number == len(steps) // 2:
            batch = ChartBatch.restore(batch.snapshot(), chart, backend=backend)
    assert len({m.active for m in machines}) > 1  # the agents went different ways
    assert rooms_seen == {f"Wide.R{room}" for room in range(rooms)}  # past the 32nd state
