"""The hub: nothing attached until a page watches, compact records, batches per page."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_samples import Lamp, soldier

from statetree.inspect import Hub, InspectError
from statetree.inspect.watcher import Watcher


def describe(channel: str, machine: str, value: object) -> Any:
    return value


def test_machines_get_unique_ids_and_a_catalog() -> None:
    hub = Hub([Lamp("Lamp").machine, Lamp("Lamp").machine, soldier("P 1/a")])

    assert hub.ids == ("Lamp", "Lamp-2", "P_1_a")
    assert hub.catalog() == [
        {"id": "Lamp", "name": "Lamp", "kind": "state-machine", "caps": []},
        {"id": "Lamp-2", "name": "Lamp", "kind": "state-machine", "caps": []},
        {"id": "P_1_a", "name": "P 1/a", "kind": "bitmask", "caps": ["explain", "packets"]},
    ]


def test_a_machine_added_again_keeps_its_id_and_is_listed_once() -> None:
    lamp = Lamp("Lamp")
    hub = Hub([lamp.machine])

    assert hub.add(lamp.machine) == "Lamp"
    assert hub.add(Lamp("Lamp").machine) == "Lamp-2"
    assert hub.ids == ("Lamp", "Lamp-2")
    watcher = Watcher()
    hub.watch(watcher, ["Lamp"])
    lamp.tick()
    hub.frame()
    assert len(lamp.machine._listeners()) == 1


def test_the_program_pays_nothing_until_a_page_watches() -> None:
    lamps = [Lamp(f"Lamp {n}") for n in range(3)]
    hub = Hub(lamp.machine for lamp in lamps)
    for lamp in lamps:
        lamp.tick()
    hub.frame()

    assert all(lamp.machine._extras is None for lamp in lamps)
    assert hub.flush() == []

    watcher = Watcher()
    hub.watch(watcher, ["Lamp_1"])
    hub.frame()
    assert [lamp.machine._listeners() != () for lamp in lamps] == [False, True, False]

    hub.unwatch(watcher, ["Lamp_1"])
    hub.frame()
    assert all(lamp.machine._listeners() == () for lamp in lamps)
    assert all(lamp.machine._extras.tracer is None for lamp in lamps if lamp.machine._extras)


def test_listeners_are_shared_by_pages_and_removed_with_the_last() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine])
    first, second = Watcher(), Watcher()

    assert hub.watch(first, ["Lamp"]) == ["Lamp"]
    assert hub.watch(first, ["Lamp"]) == []
    hub.watch(second, ["Lamp"])
    assert len(lamp.machine._listeners()) == 1
    hub.forget(first)
    assert hub.watched("Lamp")
    hub.forget(second)
    assert not hub.watched("Lamp")
    assert lamp.machine._listeners() == ()


def test_unknown_ids_subscribe_nothing() -> None:
    hub = Hub([Lamp().machine])
    watcher = Watcher()

    with pytest.raises(InspectError) as caught:
        hub.watch(watcher, ["Lamp", "Ghost"])
    assert str(caught.value) == "no machine with id 'Ghost' is inspected"
    assert watcher.machines == set()
    assert not hub.watched("Lamp")


def test_unknown_ids_unsubscribe_nothing() -> None:
    hub = Hub([Lamp().machine])
    watcher = Watcher()
    hub.watch(watcher, ["Lamp"])

    with pytest.raises(InspectError) as caught:
        hub.unwatch(watcher, ["Lamp", "Ghost"])
    assert str(caught.value) == "no machine with id 'Ghost' is inspected"
    assert watcher.machines == {"Lamp"}
    assert hub.watched("Lamp")


def test_flush_turns_records_into_rows_and_reads_active_states() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine])
    watcher = Watcher()
    hub.watch(watcher, ["Lamp"])

    assert hub.frame()
    lamp.tick()
    lamp.on = True
    assert hub.frame()
    lamp.tick()

    assert hub.flush() == [
        (1, 1, "Lamp", "enter", "Init", "LampStates.Power", 0, ""),
        (2, 1, "Lamp", "enter", "Entry", "LampStates.Off", 1, ""),
        (3, 2, "Lamp", "exit", "Pop", "LampStates.Off", 1, ""),
        (4, 2, "Lamp", "enter", "Sibling", "LampStates.On", 1, ""),
    ]
    assert hub.latest["active"] == {"Lamp": ("LampStates.Power", "LampStates.On")}
    assert hub.flush() == []


def test_a_full_buffer_drops_the_oldest_records_and_counts_them() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine], buffer=3)
    hub.watch(Watcher(), ["Lamp"])
    lamp.tick()
    for _ in range(2):
        lamp.on = not lamp.on
        lamp.tick()

    rows = hub.flush()

    assert [row[4] for row in rows] == ["Sibling", "Pop", "Sibling"]
    assert hub.lost == 3
    assert hub.status() == (0, False, False, 3, None)


def test_bitmask_machines_are_polled_at_flush() -> None:
    machine = soldier()
    hub = Hub([machine])
    hub.watch(Watcher(), ["Soldier"])
    machine.try_activate("Alive")

    assert hub.flush() == [(1, 0, "Soldier", "enter", "Activated", "Alive", -1, "requested")]
    assert hub.latest["active"] == {"Soldier": ("Alive",)}


def test_a_page_gets_the_rows_and_states_of_its_machines_only() -> None:
    lamps = [Lamp("A"), Lamp("B")]
    hub = Hub(lamp.machine for lamp in lamps)
    page = Watcher()
    hub.watch(page, ["B"])
    hub.watch(Watcher(), ["A"])
    for lamp in lamps:
        lamp.tick()

    page.offer(hub.flush())
    batch = page.batch(hub.latest, hub.status(), describe)

    assert batch is not None
    assert [row[2] for row in batch["records"]] == ["B", "B"]
    assert batch["active"] == {"B": ("LampStates.Power", "LampStates.Off")}
    assert batch["packets"] == {}
    assert (batch["frame"], batch["paused"], batch["driven"], batch["lost"]) == (0, False, False, 0)
    assert page.batch(hub.latest, hub.status(), describe) is None


def test_only_changed_states_are_sent_again() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine])
    page = Watcher()
    hub.watch(page, ["Lamp"])
    lamp.tick()
    page.offer(hub.flush())
    page.batch(hub.latest, hub.status(), describe)
    lamp.on = True
    lamp.tick()
    lamp.on = False
    lamp.tick()

    page.offer(hub.flush())
    batch = page.batch(hub.latest, hub.status(), describe)

    assert batch is not None
    assert len(batch["records"]) == 4
    assert batch["active"] == {}


def test_a_slow_page_loses_its_oldest_rows_not_the_program() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine])
    page = Watcher(limit=2)
    hub.watch(page, ["Lamp"])
    lamp.tick()
    lamp.on = True
    lamp.tick()

    page.offer(hub.flush())
    batch = page.batch(hub.latest, hub.status(), describe)

    assert batch is not None
    assert [row[0] for row in batch["records"]] == [3, 4]
    assert batch["lost"] == 2


def test_packets_are_kept_only_for_watched_machines() -> None:
    machine = soldier()
    hub = Hub([machine])
    hub.packet(machine, b"\x01")
    hub.flush()
    assert hub.latest["packets"] == {}

    hub.watch(Watcher(), ["Soldier"])
    hub.packet(machine, b"\x01")
    hub.flush()
    assert hub.latest["packets"] == {"Soldier": (1, b"\x01")}
    with pytest.raises(InspectError) as caught:
        hub.packet(object(), b"")
    assert str(caught.value).endswith("is not one of the inspected machines")


def test_pause_and_step_gate_the_frames_of_a_driven_program() -> None:
    hub = Hub([])
    gate = hub.gate
    with pytest.raises(InspectError) as caught:
        gate.step(1)
    assert str(caught.value) == (
        "this program cannot be stepped: its loop does not call Inspector.frame() before each frame"
    )

    assert hub.frame()
    with pytest.raises(InspectError) as caught:
        gate.step(1)
    assert str(caught.value) == "the program is running: pause it before stepping"
    gate.pause(True)
    assert not hub.frame()
    gate.step(2)
    assert [hub.frame() for _ in range(3)] == [True, True, False]
    gate.pause(False)
    assert hub.frame()
    assert hub.status() == (4, False, True, 0, None)


def test_a_driven_program_gets_its_listeners_changed_on_its_own_thread() -> None:
    lamp = Lamp()
    hub = Hub([lamp.machine])
    hub.frame()
    page = Watcher()

    hub.watch(page, ["Lamp"])
    assert lamp.machine._listeners() == ()
    hub.frame()
    assert len(lamp.machine._listeners()) == 1
    hub.forget(page)
    assert len(lamp.machine._listeners()) == 1
    hub.frame()
    assert lamp.machine._listeners() == ()


def test_close_removes_every_listener() -> None:
    lamp, machine = Lamp(), soldier()
    hub = Hub([lamp.machine, machine])
    hub.watch(Watcher(), ["Lamp", "Soldier"])

    hub.close()

    assert lamp.machine._listeners() == ()
    assert not hub.adapter("Soldier").attached  # type: ignore[attr-defined]
    assert not hub.watched("Lamp")


def test_a_driven_program_has_its_bitmask_machines_read_between_frames() -> None:
    machine = soldier()
    hub = Hub([machine])
    hub.frame()
    hub.watch(Watcher(), ["Soldier"])
    hub.frame()
    machine.try_activate("Alive")
    hub.frame()
    machine.try_activate("Armed")
    hub.frame()

    assert [(row[1], row[5]) for row in hub.flush()] == [(2, "Alive"), (3, "Armed")]


def test_the_programs_thread_never_derives_a_structure(monkeypatch: pytest.MonkeyPatch) -> None:
    # Deriving parses source code: slow, and (Python 3.11) unsafe on two threads at once.
    import threading

    from statetree.inspect import class_adapter

    threads: list[str] = []
    derive = class_adapter.derive

    def recorded(initial: Any) -> Any:
        threads.append(threading.current_thread().name)
        return derive(initial)

    monkeypatch.setattr(class_adapter, "_DERIVED", {})
    monkeypatch.setattr(class_adapter, "derive", recorded)
    lamp = Lamp()
    hub = Hub([lamp.machine])
    hub.frame()  # a driven program: listeners are attached at its next frame
    hub.watch(Watcher(), ["Lamp"])

    def program() -> None:
        hub.frame()
        lamp.on = True
        lamp.tick()
        hub.frame()

    game = threading.Thread(target=program, name="game")
    game.start()
    game.join()
    assert len(lamp.machine._listeners()) == 1
    assert threads == [threading.current_thread().name]
