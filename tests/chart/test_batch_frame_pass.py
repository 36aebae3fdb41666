"""The pass of agents that run one timer at a time, with what only a real crowd makes happen:
more agents than its buffers hold, clocks of agents spawned at different frames, situation
numbers that outgrow one byte. Each agent must end every frame as its own machine."""

from __future__ import annotations

import re

import numpy as np
import pytest
from batch_strategies import EVENTS, REGISTRY, Step
from batch_support import Twins

from statetree.chart import BatchCall, Chart, ChartBatch, ChartMachine, Event
from statetree.chart import builder as b

FIGHTER = b.chart(
    "Fighter",
    b.state(
        "Fighter",
        b.state("Idle", transitions=[b.on(b.input("X"), "Wind")]),
        b.state(
            "Wind",
            enter=[b.action("host", tag=1), b.start_timer("T", 0.3)],
            transitions=[b.on(b.timer("T"), "Strike"), b.on(b.input("Y"), "Idle")],
        ),
        b.state(
            "Strike",
            enter=[b.action("host", tag=2), b.start_timer("T", 0.2)],
            exit=[b.action("host", tag=3)],
            transitions=[b.on(b.timer("T"), "Idle"), b.on(b.event("F"), "Idle")],
        ),
    ),
    registry=REGISTRY,
)


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_a_crowd_spawned_over_frames_plays_frames_as_its_machines(backend: str) -> None:
    pytest.importorskip(backend, reason=f"the {backend} pass needs {backend} (the batch extra)")
    twins = Twins(FIGHTER, 300, backend=backend)  # more host calls a frame than 64 rows
    twins.play(Step("start", tuple(range(300))))
    random = np.random.default_rng(7)
    for frame in range(60):
        if frame % 10 == 5:  # agents spawned now tick on a clock of their own
            for _ in range(20):
                twins.play(Step("spawn"))
        size = twins.batch.size
        choices = np.where(random.random(size) < 0.3, random.integers(0, len(EVENTS), size), -1)
        dt = float(random.choice([0.05, 0.1, 0.25]))
        twins.play(Step("frame", tuple(range(size)), dt=dt, choices=tuple(choices.tolist())))
        twins.check(f"frame {frame}")
    assert twins.batch.agent(0).clock != twins.batch.agent(twins.batch.size - 1).clock


def _rooms(count: int) -> Chart:
    """``count`` rooms of three spots: ``next`` moves to the next spot, ``go`` to the next
    room, which resumes the spot it was left in (so situations multiply)."""
    rooms = []
    for room in range(count):
        spots = [
            b.state(f"S{spot}", transitions=[b.on(b.event("next"), f"S{(spot + 1) % 3}")])
            for spot in range(3)
        ]
        target = f"R{(room + 1) % count}"
        rooms.append(b.state(f"R{room}", *spots, transitions=[b.on(b.event("go"), target)]))
    return b.chart("Rooms", b.state("Rooms", *rooms))


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_situation_numbers_past_one_byte_keep_every_agent_as_its_machine(backend: str) -> None:
    pytest.importorskip(backend, reason=f"the {backend} pass needs {backend} (the batch extra)")
    chart = _rooms(6)
    batch = ChartBatch(chart, 6, backend=backend)
    machines = [ChartMachine(chart) for _ in range(6)]
    batch.start()
    for machine in machines:
        machine.start()
    events = [Event("event", "next"), Event("event", "go")]
    random = np.random.default_rng(3)
    for frame in range(300):
        choices = random.integers(-1, 2, 6)
        batch.frame(0.1, events, choices)
        for agent, machine in enumerate(machines):
            if choices[agent] >= 0:
                machine.send(events[choices[agent]])
            machine.tick(0.1)
        assert [batch.active(n) for n in range(6)] == [m.active for m in machines], frame
    met = re.search(r"a table of (\d+) situations", batch.engine)
    assert met is not None and int(met.group(1)) > 255, batch.engine


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_a_frame_without_choices_is_a_tick(backend: str) -> None:
    pytest.importorskip(backend, reason=f"the {backend} pass needs {backend} (the batch extra)")
    calls: dict[str, list[tuple[int, list[int]]]] = {"frame": [], "tick": []}
    batches = {}
    for call, made_calls in calls.items():

        def host(made: BatchCall, log: list[tuple[int, list[int]]] = made_calls) -> None:
            log.append((int(made.params["tag"]), made.entities.tolist()))

        batch = ChartBatch(FIGHTER, 6, {"host": host, "echo": host}, backend=backend)
        batch.send(Event("input", "X"), [0, 2, 4])
        batches[call] = batch
    for dt in (0.1, 0.25, 0.3):
        batches["frame"].frame(dt)
        batches["tick"].tick(dt)
        assert batches["frame"].snapshot().to_bytes() == batches["tick"].snapshot().to_bytes()
    assert calls["frame"] == calls["tick"] == [(1, [0, 2, 4]), (2, [0, 2, 4]), (3, [0, 2, 4])]


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_clocks_of_many_spawn_waves_are_compacted_and_keep_every_agent(backend: str) -> None:
    pytest.importorskip(backend, reason=f"the {backend} pass needs {backend} (the batch extra)")
    twins = Twins(FIGHTER, 0, backend=backend)
    random = np.random.default_rng(11)
    for frame in range(150):  # a wave a frame: more clocks than the batch keeps unused
        twins.play(Step("spawn"))
        twins.play(Step("spawn"))
        if frame % 3 == 0:  # free slots are reused by later waves, on clocks of their own
            twins.play(
                Step(
                    "despawn",
                    tuple(random.choice(sorted(twins.machines), 2, replace=False).tolist()),
                )
            )
        size = twins.batch.size
        choices = np.where(random.random(size) < 0.4, random.integers(0, len(EVENTS), size), -1)
        twins.play(Step("frame", tuple(range(size)), dt=0.07, choices=tuple(choices.tolist())))
        twins.check(f"frame {frame}")
        saved = twins.batch.snapshot()  # free slots read too
        restored = ChartBatch.restore(saved, FIGHTER, twins.batch._handlers, backend=backend)
        assert restored.snapshot().to_bytes() == saved.to_bytes()
    clocks = {round(twins.batch.agent(agent).clock, 9) for agent in twins.machines}
    assert len(clocks) > 64  # so the batch kept more clocks than it keeps unused
    assert twins.batch._agents.clocks.size < 2 * len(clocks)
