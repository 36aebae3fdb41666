"""ChartMachine.stop: every active state exits, innermost first, as a batch's despawn does."""

from __future__ import annotations

import pytest

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    ChartBatch,
    ChartMachine,
    Event,
)
from statetree.chart import builder as b
from statetree.chart.placement import RunningTimer, running_timers
from statetree.errors import UsageError

GO = Event("input", "Go")
DOOR = b.chart(
    "Door",
    b.state(
        "Top",
        b.state("A", transitions=[b.on(b.input("Go"), "B")], exit=[b.action("note")]),
        b.state(
            "B",
            b.state("B1", enter=[b.start_timer("T", 1.0)], exit=[b.action("note")]),
            exit=[b.action("note")],
        ),
        exit=[b.action("note")],
    ),
    registry=DEFAULT_REGISTRY.with_actions(ActionType("note")),
)


def test_stop_exits_innermost_first_and_a_start_resumes_by_history() -> None:
    calls: list[str] = []
    machine = ChartMachine(DOOR, {"note": lambda call: calls.append(str(call))}, name="door7")
    assert machine.name == "door7"
    machine.stop()  # not started: nothing to exit
    assert (machine.active, calls) == ((), [])
    machine.send(GO)
    machine.tick(0.5)
    calls.clear()
    machine.stop()
    assert calls == ["exit Top.B.B1: note()", "exit Top.B: note()", "exit Top: note()"]
    assert (machine.active, running_timers(machine), machine.clock) == ((), (), 0.5)
    machine.start()  # Top resumes B, whose timer starts anew
    assert machine.active == ("Top", "Top.B", "Top.B.B1")
    assert running_timers(machine) == (RunningTimer("T", "Top.B.B1", 1.5, 2),)


def test_stop_from_a_handler_is_refused_and_changes_nothing() -> None:
    refused: list[str] = []

    def note(call: ActionCall) -> None:
        try:
            machine.stop()
        except UsageError as error:
            refused.append(str(error))

    machine = ChartMachine(DOOR, {"note": note})
    machine.send(GO)  # A's exit note tries to stop the machine mid-transition
    assert refused == ["stop() called while chart 'Door' processes"]
    assert machine.active == ("Top", "Top.B", "Top.B.B1")


def test_a_send_from_a_stops_exit_is_refused_to_the_handler() -> None:
    refused: list[str] = []

    def note(call: ActionCall) -> None:
        try:
            machine.send(GO)
        except UsageError as error:
            refused.append(str(error).split(",")[0])

    machine = ChartMachine(DOOR, {"note": note})
    machine.start()
    machine.stop()
    message = "send(input Go) called while chart 'Door' exits states for a reload or stop()"
    assert refused == [message, message]  # from A's exit, then from Top's
    assert machine.active == ()


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_a_stop_makes_the_calls_a_despawn_makes(backend: str) -> None:
    pytest.importorskip(backend, reason=f"the {backend} pass needs {backend} (the batch extra)")
    despawned: list[str] = []
    batch = ChartBatch(
        DOOR, 2, {"note": lambda call: despawned.append(str(call.action))}, backend=backend
    )
    batch.start()
    batch.send(GO, [1])
    stopped: list[str] = []
    for agent in range(2):
        machine = ChartMachine(DOOR, {"note": lambda call: stopped.append(str(call))})
        machine.start()
        if agent:
            machine.send(GO)
        stopped.clear()
        machine.stop()
        despawned.clear()
        batch.despawn([agent])
        assert despawned == stopped
