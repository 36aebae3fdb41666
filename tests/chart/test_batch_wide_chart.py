"""A batch of a chart with 33 to 63 states: its flags fill a 64-bit word, as its cases' keys."""

from __future__ import annotations

from statetree.chart import Chart, ChartBatch, ChartMachine, Event
from statetree.chart import builder as b

ROOMS = 8
SPOTS = 4


def wide_chart() -> Chart:
    """Eight rooms of four spots each (41 states): ``next`` moves to the next spot, ``go``
    to the next room, which resumes the spot it was left in."""
    rooms = []
    for room in range(ROOMS):
        spots = [
            b.state(f"S{spot}", transitions=[b.on(b.event("next"), f"S{(spot + 1) % SPOTS}")])
            for spot in range(SPOTS)
        ]
        target = f"R{(room + 1) % ROOMS}"
        rooms.append(b.state(f"R{room}", *spots, transitions=[b.on(b.event("go"), target)]))
    return b.chart("Wide", b.state("Wide", *rooms))


def test_a_batch_of_a_41_state_chart_steps_as_its_machines() -> None:
    chart = wide_chart()
    batch = ChartBatch(chart, 3)
    machines = [ChartMachine(chart) for _ in range(3)]
    batch.start()
    for machine in machines:
        machine.start()
    steps = ["next", "go", "next", "next", "go", "go", "next"] * 3
    for number, name in enumerate(steps):
        agents = [number % 3, (number + 1) % 3]
        batch.send(Event("event", name), agents)
        for agent in agents:
            machines[agent].send(Event("event", name))
        assert [batch.agent(n).active for n in range(3)] == [m.active for m in machines]
    assert len({m.active for m in machines}) > 1  # the agents went different ways
