"""Adapters: what the inspector reads from class-based and bitmask machines."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import pytest
from inspect_samples import Lamp, LampStates, soldier

import statetree as st
from statetree.bitmask import NoSuchStateError
from statetree.inspect import (
    BitmaskAdapter,
    DiagramView,
    Event,
    Flag,
    InspectError,
    StateMachineAdapter,
    adapt,
    capabilities,
)
from statetree.structure import derive


def test_adapt_picks_the_adapter_of_each_kind() -> None:
    lamp = Lamp()
    machine = soldier()

    assert isinstance(adapt(lamp.machine), StateMachineAdapter)
    assert isinstance(adapt(machine), BitmaskAdapter)
    adapter = BitmaskAdapter(machine)
    assert adapt(adapter) is adapter
    assert capabilities(adapt(lamp.machine)) == []
    assert capabilities(adapter) == ["explain", "packets"]


def test_adapt_refuses_other_objects() -> None:
    with pytest.raises(InspectError) as caught:
        adapt(42)
    assert str(caught.value) == (
        "cannot inspect 42: give a StateMachine, a BitmaskMachine, a chart machine, a "
        "ChartBatch, a batch's agent or an object implementing statetree.inspect.WatchedMachine"
    )


def test_class_adapter_draws_the_derived_structure_and_names_active_states() -> None:
    lamp = Lamp()
    adapter = StateMachineAdapter(lamp.machine)

    assert (adapter.name, adapter.kind) == ("Lamp", "state-machine")
    assert adapter.view() == DiagramView(derive(LampStates.Power))
    assert adapter.active() == ()
    lamp.on = True
    lamp.tick()
    assert adapter.active() == ("LampStates.Power", "LampStates.On")


class Shelf(st.State[None]):
    def transition(self) -> st.Transition:
        return st.inner_entry(self.get_state_override(Book))


class Book(st.State[None]):
    pass


class SignedBook(Book):
    pass


def test_a_state_an_override_pushes_outside_the_structure_is_left_unlit() -> None:
    from statetree.inspect import Hub
    from statetree.inspect.views import Views

    machine = st.StateMachine(Shelf, name="Shelf")
    machine.add_state_override(Book, SignedBook)
    machine.process_state_transitions()
    hub = Hub([machine])
    active = hub.adapter("Shelf").active()

    assert active == ("Shelf", "SignedBook")
    assert Views(hub).describe("active", "Shelf", active) == {
        "states": ["Shelf"],
        "links": [],
        "order": ["Shelf", "SignedBook"],
    }


def test_class_adapter_listens_only_while_attached() -> None:
    lamp = Lamp()
    adapter = StateMachineAdapter(lamp.machine)
    seen: list[Any] = []

    adapter.attach(seen.append)
    lamp.tick()
    assert lamp.machine._listeners() == (seen.append,)
    adapter.detach()
    lamp.on = True
    lamp.tick()

    assert [adapter.describe(step) for step in seen] == [
        Event("enter", "Init", "LampStates.Power", 0),
        Event("enter", "Entry", "LampStates.Off", 1),
    ]
    assert lamp.machine._listeners() == ()
    assert lamp.machine._extras is None or lamp.machine._extras.tracer is None


def test_class_adapter_describes_exits() -> None:
    lamp = Lamp()
    adapter = StateMachineAdapter(lamp.machine, name="Kitchen lamp")
    lamp.tick()
    seen: list[Any] = []
    adapter.attach(seen.append)
    lamp.on = True
    lamp.tick()

    assert adapter.name == "Kitchen lamp"
    assert [adapter.describe(step) for step in seen] == [
        Event("exit", "Pop", "LampStates.Off", 1),
        Event("enter", "Sibling", "LampStates.On", 1),
    ]


def test_bitmask_adapter_shows_flags_with_their_rules() -> None:
    adapter = BitmaskAdapter(soldier())

    assert adapter.kind == "bitmask"
    assert adapter.view().flags == (
        Flag("Alive"),
        Flag("Armed", requires=("Alive",)),
        Flag("Firing", requires=("Alive", "Armed"), blocked_by=("Stunned",)),
        Flag("Stunned", requires=("Alive",), terminates=("Firing",)),
    )
    assert adapter.view() is adapter.view()


def test_bitmask_adapter_reports_changes_from_the_history_when_polled() -> None:
    machine = soldier()
    adapter = BitmaskAdapter(machine)
    machine.try_activate("Alive")
    seen: list[Any] = []
    adapter.attach(seen.append)
    machine.try_activate("Armed")
    machine.try_activate("Firing")
    machine.try_activate("Stunned")

    adapter.poll()
    adapter.poll()

    assert [adapter.describe(change) for change in seen] == [
        Event("enter", "Activated", "Armed", -1, "requested"),
        Event("enter", "Activated", "Firing", -1, "requested"),
        Event("exit", "Deactivated", "Firing", -1, "terminated by Stunned"),
        Event("enter", "Activated", "Stunned", -1, "requested"),
    ]
    assert adapter.active() == ("Alive", "Armed", "Stunned")


def test_bitmask_adapter_counts_changes_that_left_a_short_history() -> None:
    machine = soldier(history=2)
    adapter = BitmaskAdapter(machine)
    seen: list[Any] = []
    adapter.attach(seen.append)
    for state in ("Alive", "Armed", "Firing"):
        machine.try_activate(state)
    machine.deactivate("Firing")

    adapter.poll()

    assert [adapter.describe(change) for change in seen] == [
        Event(
            "event",
            "Missed",
            "",
            -1,
            "2 change(s) left the machine's history before they were read",
        ),
        Event("enter", "Activated", "Firing", -1, "requested"),
        Event("exit", "Deactivated", "Firing", -1, "requested"),
    ]


def test_bitmask_adapter_compares_masks_without_history() -> None:
    machine = soldier(history=0)
    adapter = BitmaskAdapter(machine)
    seen: list[Any] = []
    adapter.attach(seen.append)
    machine.try_activate("Alive")
    machine.try_activate("Armed")
    adapter.poll()
    machine.deactivate("Alive")
    adapter.poll()

    assert [adapter.describe(change) for change in seen] == [
        Event("enter", "Activated", "Alive"),
        Event("enter", "Activated", "Armed"),
        Event("exit", "Deactivated", "Alive"),
        Event("exit", "Deactivated", "Armed"),
    ]


def test_bitmask_adapter_reports_nothing_once_detached() -> None:
    machine = soldier()
    adapter = BitmaskAdapter(machine)
    seen: list[Any] = []
    adapter.attach(seen.append)
    adapter.detach()
    machine.try_activate("Alive")
    adapter.poll()

    assert seen == []
    assert not adapter.attached


def test_bitmask_adapter_explains_states() -> None:
    machine = soldier()
    adapter = BitmaskAdapter(machine)
    machine.try_activate("Alive")

    refused = adapter.explain("Firing")
    assert (refused.state, refused.possible) == ("Firing", False)
    assert refused.text == "Firing cannot activate: it requires Armed, not active."
    assert refused.reasons == ("it requires Armed, not active",)
    assert adapter.explain("Armed").text == "Armed can activate."
    with pytest.raises(NoSuchStateError):
        adapter.explain("Flying")


def test_bitmask_adapter_decodes_its_packets_bit_by_bit() -> None:
    machine = soldier()
    adapter = BitmaskAdapter(machine)
    machine.try_activate("Alive")
    machine.try_activate("Stunned")

    packet = adapter.decode_packet(machine.encode())

    assert packet.data == b"\x09"
    assert [(f.name, f.start, f.width, f.value) for f in packet.fields] == [
        ("Alive", 0, 1, "1"),
        ("Armed", 1, 1, "0"),
        ("Firing", 2, 1, "0"),
        ("Stunned", 3, 1, "1"),
        ("padding", 4, 4, "0"),
    ]
    assert (packet.bit_order, packet.summary, packet.error) == ("lsb", "active: Alive, Stunned", "")


def test_bitmask_adapter_reports_bad_packets_without_raising() -> None:
    adapter = BitmaskAdapter(soldier())

    packet = adapter.decode_packet(b"\x02")

    assert packet.error == (
        "bitmask 'soldier': Armed is active but requires Alive, which is not active"
    )
    assert packet.fields[1].value == "1"
    assert adapter.decode_packet(b"\x01\x00").error == (
        "bitmask 'soldier': expected 1 byte(s) for 4 states, got 2"
    )


class Mood(enum.Enum):
    CALM = 1


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int


def test_owner_values_keep_what_cannot_change_and_write_down_the_rest() -> None:
    from statetree.inspect.values import owner_values, text_of

    class Broken:
        def __repr__(self) -> str:
            raise ValueError("no")

    class Owner:
        __slots__ = ("__dict__", "slotted")

        def __init__(self) -> None:
            self.slotted = 3
            self.mood = Mood.CALM
            self.at = Point(1, 2)
            self.bag = list(range(100))
            self.odd = Broken()
            self.speed = st.StateValue(2.5)
            self._hidden = 1
            self.act = print

    owner = Owner()
    values = owner_values(owner)
    owner.bag.append(100)  # written down before: the snapshot keeps the frame's list

    texts = [(group, name, text_of(value)) for group, name, value in values]
    assert texts[4][2].startswith("<Broken instance at 0x")  # its repr raised
    assert texts[:4] + texts[5:] == [
        ("state values", "speed", "2.5"),
        ("fields", "mood", "Mood.CALM"),
        ("fields", "at", "Point(x=1, y=2)"),
        ("fields", "bag", "[0, 1, 2, 3, 4, 5, 6, 7, ...]"),
        ("fields", "slotted", "3"),
    ]
    assert values[2][2] is owner.at  # frozen: kept as it is, written down when asked


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (91.36666666666405, "91.3667"),  # a clock summed from 1/30 s frames
        (2.0, "2.0"),
        (0.1 + 0.2, "0.3"),
        (1e-7, "1e-07"),
        (float("inf"), "inf"),
        ((1.23456789, [0.1 + 0.2], {"x": 2.5}), "(1.23457, [0.3], {'x': 2.5})"),
        (7, "7"),
    ],
)
def test_numbers_are_rounded_for_people(value: object, text: str) -> None:
    from statetree.inspect.values import text_of

    assert text_of(value) == text
