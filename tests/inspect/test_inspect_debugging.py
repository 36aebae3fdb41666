"""Debugging on the hub: breakpoints, time travel, the last page resuming the program, and
changes queued for a safe point of programs that do not call frame()."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from inspect_samples import Lamp, soldier
from inspector_demo import platformer

from statetree.chart import Event
from statetree.inspect import Hub, InspectError
from statetree.inspect.trail import Travelled
from statetree.inspect.watcher import Watcher

pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")


def driven(hub: Hub, *ids: str) -> Watcher:
    """A page watching ``ids`` of a program that calls frame() (listeners attached)."""
    page = Watcher()
    hub.opened()
    hub.frame()
    hub.watch(page, ids)
    hub.frame()
    return page


def test_a_breakpoint_pauses_the_program_at_the_end_of_the_frame_that_hit_it() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine])
    driven(hub, "Lamp")
    hub.set_breakpoint("Lamp", "enter", "LampStates.On", True)

    lamp.tick()
    assert hub.frame()  # nothing hit
    lamp.on = True
    lamp.tick()  # enters On in frame 3: the frame ends, the next one does not start
    assert hub.status()[1:] == (True, True, 0, (1, "Lamp", "enter", "LampStates.On", 3))
    assert not hub.frame()
    assert hub.breakpoints("Lamp") == [("enter", "LampStates.On")]

    hub.gate.step(1)
    assert hub.frame()
    hub.set_breakpoint("Lamp", "enter", "LampStates.On", False)
    lamp.on = False
    lamp.tick()
    lamp.on = True
    lamp.tick()
    assert hub.status()[4] == (1, "Lamp", "enter", "LampStates.On", 3)  # no new hit


def test_breakpoints_on_exits_flags_and_events(tmp_path: Path) -> None:
    machine = soldier()
    chart = platformer(tmp_path / "platformer.yaml")
    hub = Hub([machine, chart])
    driven(hub, "Soldier", "Platformer")
    hub.set_breakpoint("Soldier", "exit", "Alive", True)
    hub.set_breakpoint("Platformer", "event", "input Jump", True)

    machine.try_activate("Alive")
    hub.frame()  # polled: activations are no exits
    assert not hub.gate.paused
    chart.chart_machine.send(Event("input", "Jump"))
    assert hub.gate.hit == (1, "Platformer", "event", "input Jump", 3)

    hub.gate.pause(False)
    machine.deactivate("Alive")
    hub.frame()  # the bitmask machine is read here: its change hits the breakpoint
    assert hub.gate.hit == (2, "Soldier", "exit", "Alive", 3)

    for wrong in ("bogus", "inptu Jump", "input  Jump", "input Jump extra", "input "):
        with pytest.raises(InspectError) as caught:
            hub.set_breakpoint("Platformer", "event", wrong, True)
        assert str(caught.value).startswith(
            "an event breakpoint is 'TYPE NAME', TYPE one of the event types machine "
            "'Platformer' responds to (input, "
        )
        assert str(caught.value).endswith(f"got {wrong!r}")
    assert hub.breakpoints("Platformer") == [("event", "input Jump")]


@pytest.mark.parametrize(
    ("on", "target", "message"),
    [
        ("enter", "LampStates.Dim", "machine 'Lamp' has no state 'LampStates.Dim'"),
        ("event", "input Jump", "machine 'Lamp' gets no events to stop at"),
    ],
)
def test_a_breakpoint_must_name_something_the_machine_has(
    on: str, target: str, message: str
) -> None:
    hub = Hub([Lamp().machine])
    driven(hub, "Lamp")
    with pytest.raises(InspectError) as caught:
        hub.set_breakpoint("Lamp", on, target, True)
    assert str(caught.value) == message
    assert hub.breakpoints("Lamp") == []


def test_breakpoints_need_a_watched_machine_of_a_driven_program() -> None:
    hub = Hub([Lamp().machine, Lamp("Other").machine])
    with pytest.raises(InspectError) as caught:
        hub.set_breakpoint("Lamp", "enter", "LampStates.On", True)
    assert str(caught.value) == (
        "breakpoints pause the program: its loop must call Inspector.frame() before each frame"
    )
    driven(hub, "Lamp")
    with pytest.raises(InspectError) as caught:
        hub.set_breakpoint("Other", "enter", "LampStates.On", True)
    assert str(caught.value) == "watch machine 'Other' before setting breakpoints on it"


def test_the_last_page_leaving_resumes_the_program_and_clears_breakpoints() -> None:
    hub = Hub([Lamp().machine])
    first = driven(hub, "Lamp")
    second = Watcher()
    hub.opened()
    hub.watch(second, ["Lamp"])
    hub.set_breakpoint("Lamp", "exit", "LampStates.Off", True)
    hub.gate.pause(True)

    hub.closed(first)
    assert hub.gate.paused
    assert hub.breakpoints("Lamp") == [("exit", "LampStates.Off")]
    hub.closed(second)
    assert not hub.gate.paused
    assert hub.breakpoints("Lamp") == []
    assert hub.frame()


def test_time_travel_gives_the_states_after_each_row_and_the_values_of_its_frame() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine])
    driven(hub, "Lamp")
    lamp.tick()  # frame 2: Init Power, Entry Off
    hub.frame()
    lamp.on = True
    lamp.tick()  # frame 3: Pop Off, Sibling On
    hub.frame()
    rows = hub.flush()

    assert [(row[0], row[1], row[4], row[5]) for row in rows] == [
        (1, 2, "Init", "LampStates.Power"),
        (2, 2, "Entry", "LampStates.Off"),
        (3, 3, "Pop", "LampStates.Off"),
        (4, 3, "Sibling", "LampStates.On"),
    ]
    assert hub.travel("Lamp", 2) == Travelled(
        2,
        2,
        ("LampStates.Power", "LampStates.Off"),
        (("state values", "brightness", 0.0), ("fields", "on", False), ("fields", "broken", False)),
    )
    assert hub.travel("Lamp", 3).active == ("LampStates.Power",)
    after = hub.travel("Lamp", 4)
    assert after.active == ("LampStates.Power", "LampStates.On")
    assert after.values is not None
    assert after.values[:2] == (("state values", "brightness", 1.0), ("fields", "on", True))
    with pytest.raises(InspectError) as caught:
        hub.travel("Lamp", 99)
    assert (
        str(caught.value)
        == "step #99 of this machine is not in its history (the oldest kept is #1)"
    )


def test_a_program_that_does_not_call_frame_travels_without_values() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine])
    hub.watch(Watcher(), ["Lamp"])
    lamp.tick()
    hub.flush()

    assert hub.travel("Lamp", 2) == Travelled(2, 0, ("LampStates.Power", "LampStates.Off"), None)


def test_without_frame_a_chart_change_waits_for_the_charts_next_call(tmp_path: Path) -> None:
    chart = platformer(tmp_path / "platformer.yaml")
    hub = Hub([chart])
    machine = chart.chart_machine
    done = hub.call(lambda: machine.send(Event("input", "Attack")), "Platformer")

    assert not done.done()  # queued: the machine is driven by the program's thread only
    machine.tick(0.01)
    assert done.result() is None
    assert "Hero.Arms.Slashing" in machine.active

    dropped = hub.call(lambda: machine.send(Event("anim_finished", "Slash")), "Platformer")
    dropped.cancel()
    machine.tick(0.01)
    assert "Hero.Arms.Slashing" in machine.active


def test_edits_of_a_program_without_frame_are_never_refused(tmp_path: Path) -> None:
    chart = platformer(tmp_path / "platformer.yaml")
    hub = Hub([chart])
    machine = chart.chart_machine
    stop = threading.Event()

    def game() -> None:  # processes all the time, as a busy game loop does
        while not stop.is_set():
            machine.send(Event("input", "Attack"))
            machine.tick(0.01)

    thread = threading.Thread(target=game)
    thread.start()
    try:
        for number in range(20):
            prepared = chart.prepare(
                {
                    "op": "rename-state",
                    "path": f"Hero.Arms.{'Slashing' if number % 2 == 0 else 'Cut'}",
                    "name": "Cut" if number % 2 == 0 else "Slashing",
                }
            )
            hub.call(lambda p=prepared: chart.commit(p), "Platformer").result(timeout=10)
    finally:
        stop.set()
        thread.join(5)
    assert chart.chart_machine.chart.find("Hero.Arms.Slashing") is not None
