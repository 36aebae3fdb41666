"""Latching, levels and timers: the rules of docs/chart-events.md, one by one."""

from __future__ import annotations

import pytest
from chart_samples import Recorder

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    Chart,
    ChartBatch,
    ChartMachine,
    Event,
)
from statetree.chart import builder as b
from statetree.errors import UsageError

GO = Event("input", "Go")
_PING = DEFAULT_REGISTRY.with_actions(ActionType("ping"))


def explicit_pair() -> Chart:
    """Top{A -(input Go)-> B -(input Go)-> A}."""
    return b.chart(
        "Pair",
        b.state(
            "Top",
            b.state("A", transitions=[b.on(b.input("Go"), "B")]),
            b.state("B", transitions=[b.on(b.input("Go"), "A")]),
        ),
    )


def test_one_event_fires_one_explicit_transition_not_a_chain() -> None:
    # B was entered after Go was latched, so Go does not send it back to A.
    machine = ChartMachine(explicit_pair())
    machine.send(GO)
    assert machine.active == ("Top", "Top.B")
    machine.send(GO)
    assert machine.active == ("Top", "Top.A")


def test_an_event_counts_only_for_the_processing_it_starts() -> None:
    chart = b.chart(
        "Latch",
        b.state(
            "Top",
            b.state("Flash", pre=b.input("Go")),
            b.state("Idle"),
            policy="priority",
        ),
    )
    machine = ChartMachine(chart)
    machine.send(GO)
    assert machine.is_active("Top.Flash")  # pre holds during this processing
    machine.send(Event("input", "Other"))
    assert machine.is_active("Top.Idle")  # the next processing no longer sees Go


def sequence_chart() -> Chart:
    """A sequence whose steps end on the named event Next, raised by each step's enter."""
    step = {"post": b.event("Next"), "enter": [b.raise_event("Next")]}
    return b.chart(
        "Steps",
        b.state(
            "Top",
            b.state("One", **step),  # type: ignore[arg-type]
            b.state("Two", **step),  # type: ignore[arg-type]
            b.state("Three"),
            policy="sequential",
        ),
    )


def test_an_internal_event_completes_only_states_entered_before_it() -> None:
    # One raises Next on entry: One was entered before, so it completes; Two is entered
    # after it and raises its own Next, which completes Two; Three stays.
    recorder = Recorder(sequence_chart())
    recorder.machine.start()
    assert recorder.actions() == [
        "enter Top.One: raise(name='Next')",
        "enter Top.Two: raise(name='Next')",
    ]
    assert recorder.machine.active == ("Top", "Top.Three")


def test_a_handler_sending_during_processing_latches_into_it() -> None:
    chart = b.chart(
        "Echo",
        b.state(
            "Top",
            b.state("A", enter=[b.action("ping")], transitions=[b.on(b.event("Pong"), "B")]),
            b.state("B"),
        ),
        registry=_PING,
    )
    sent: list[ChartMachine] = []

    def ping(call: ActionCall) -> None:
        sent[0].send(Event("event", "Pong"))

    machine = ChartMachine(chart, {"ping": ping})
    sent.append(machine)
    machine.start()
    assert machine.active == ("Top", "Top.B")


def test_level_triggers_hold_until_released() -> None:
    chart = b.chart(
        "Held",
        b.state(
            "Top",
            b.state("Run", pre=b.held("Right")),
            b.state("Stand"),
            policy="priority",
        ),
    )
    machine = ChartMachine(chart)
    held = Event("held", "Right")
    machine.hold(held)
    machine.send(Event("input", "Unrelated"))
    machine.tick(1.0)
    assert machine.is_active("Top.Run")
    machine.release(held)
    assert machine.is_active("Top.Stand")
    with pytest.raises(UsageError, match="is a level trigger: use hold"):
        machine.send(held)
    with pytest.raises(UsageError, match="is not a level trigger"):
        machine.hold(GO)


TYPO = Event("inptu", "Go")
UNKNOWN = (
    "inptu Go: unknown event kind 'inptu' (did you mean 'input'?); this chart's kinds are "
    "input, anim_finished, timer, event, held"
)


@pytest.mark.parametrize("call", ["send", "hold", "release"])
def test_an_event_of_a_kind_the_registry_lacks_is_refused_not_ignored(call: str) -> None:
    machine = ChartMachine(explicit_pair())
    machine.send(GO)
    with pytest.raises(UsageError) as refused:
        getattr(machine, call)(TYPO)
    assert str(refused.value) == UNKNOWN
    assert (machine.active, machine.clock) == (("Top", "Top.B"), 0.0)
    machine.send(Event("input", "Unused"))  # a known kind no trigger uses: taken, no change
    machine.send(GO)
    assert machine.active == ("Top", "Top.A")


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_a_batch_refuses_an_unknown_kind_in_every_call_and_changes_nothing(
    backend: str,
) -> None:
    pytest.importorskip(backend, reason=f"the {backend} pass needs {backend} (the batch extra)")
    batch = ChartBatch(explicit_pair(), 3, backend=backend)
    batch.send(GO, [1])
    before = batch.snapshot().to_bytes()
    for call in (
        lambda: batch.send(TYPO),
        lambda: batch.send_each([GO, TYPO], [0, 0, 1]),
        lambda: batch.frame(0.5, [GO, TYPO], [0, 1, 0]),
        lambda: batch.hold(TYPO),
        lambda: batch.set_levels({TYPO: True}),
    ):
        with pytest.raises(UsageError) as refused:
            call()
        assert str(refused.value) == UNKNOWN
    assert batch.snapshot().to_bytes() == before


def timers_chart() -> Chart:
    """Timers owned by the root and by children, some cancelled, two due together."""
    return b.chart(
        "Timers",
        b.state(
            "Top",
            b.state(
                "Wait",
                enter=[b.start_timer("Late", 2.0), b.start_timer("Early", 0.5)],
                transitions=[b.on(b.timer("Early"), "Next")],
            ),
            b.state(
                "Next",
                enter=[b.start_timer("Soon", 0.5)],
                transitions=[b.on(b.timer("Late"), "Gone"), b.on(b.timer("Soon"), "Ready")],
            ),
            b.state("Ready", transitions=[b.on(b.timer("First"), "Tied")]),
            b.state("Tied", transitions=[b.on(b.timer("Second"), "Last")]),
            b.state("Gone"),
            b.state("Last"),
            enter=[b.start_timer("First", 1.5), b.start_timer("Second", 1.5)],
        ),
    )


def test_timers_fire_in_expiry_order_and_belong_to_their_state() -> None:
    # Early (0.5) enters Next, whose Soon timer counts from 0.5, the expiry that entered it:
    # due at 1.0. First and Second are both due at 1.5 and fire in the order they started.
    # Late was Wait's: it was cancelled when Wait exited, so Gone is never entered.
    recorder = Recorder(timers_chart())
    played = recorder.play("tick 2.5")
    entered = [line.split(": ")[-1] for line in played if line.startswith("HSM_")]
    assert entered == ["Top.Next", "Top.Ready", "Top.Tied", "Top.Last"]
    assert recorder.machine.clock == 2.5


@pytest.mark.parametrize(
    "ticks", [[2.5], [1.25, 1.25], [0.25] * 10, [0.3, 2.2], [0.75, 0.75, 1.0], [0.5, 0, 2]]
)
def test_timers_do_not_depend_on_the_size_of_ticks(ticks: list[float]) -> None:
    machine = ChartMachine(timers_chart())
    for dt in ticks:
        machine.tick(dt)
    assert machine.active == ("Top", "Top.Last")


def test_time_cannot_go_backwards() -> None:
    with pytest.raises(UsageError, match="time cannot go backwards"):
        ChartMachine(timers_chart()).tick(-1)


def test_restarting_a_timer_replaces_it() -> None:
    chart = b.chart(
        "Restart",
        b.state(
            "Top",
            b.state(
                "A",
                enter=[b.start_timer("T", 1.0), b.start_timer("T", 3.0)],
                transitions=[b.on(b.timer("T"), "B")],
            ),
            b.state("B"),
        ),
    )
    machine = ChartMachine(chart)
    machine.tick(2.0)
    assert machine.is_active("Top.A")
    machine.tick(1.0)
    assert machine.is_active("Top.B")
