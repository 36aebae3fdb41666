"""Machines replicated with a net codec: their packets decoded field by field for the page,
bad packets shown with the codec's error, and charts' events on the timeline."""

from __future__ import annotations

from typing import Any

import pytest
from net_character import CODEC, Character, Inputs

from statetree import net
from statetree.chart import ChartMachine, Event, from_data
from statetree.inspect import (
    ChartAdapter,
    DecodedPacket,
    Hub,
    InspectError,
    NetMachineAdapter,
    PacketField,
    StateMachineAdapter,
    adapt,
    capabilities,
)
from statetree.inspect import Event as Line
from statetree.inspect.views import Views
from statetree.inspect.watcher import Watcher

MOVE_RIGHT = b"\x60"  # leaf index 01 (Alive/Locomotion/Move), then 1 for RIGHT, then padding
ACTIVE = ("CharacterStates.Alive", "CharacterStates.Locomotion", "CharacterStates.Move")


def moving_hero() -> Character:
    hero = Character("Hero")
    hero.step(1, Inputs(right=True))
    return hero


def test_adapt_with_a_codec_wraps_the_machines_own_adapter() -> None:
    hero = moving_hero()

    adapter = adapt(hero.machine, codec=CODEC)

    assert isinstance(adapter, NetMachineAdapter)
    assert isinstance(adapter.inner, StateMachineAdapter)
    assert (adapter.name, adapter.kind, adapter.codec) == ("Hero", "state-machine", CODEC)
    assert capabilities(adapter) == ["packets"]
    assert adapter.view() == adapter.inner.view()
    assert adapter.active() == ACTIVE
    assert NetMachineAdapter(adapter.inner, CODEC, name="Server hero").name == "Server hero"


def test_a_packet_is_decoded_field_by_field() -> None:
    hero = moving_hero()
    adapter = NetMachineAdapter(StateMachineAdapter(hero.machine), CODEC)
    assert CODEC.encode(hero.machine) == MOVE_RIGHT

    packet = adapter.decode_packet(MOVE_RIGHT)

    assert packet == DecodedPacket(
        MOVE_RIGHT,
        (
            PacketField("leaf index", 0, 2, "leaf 1 of 4: Alive/Locomotion/Move"),
            PacketField("Move.direction: Enum(Direction)", 2, 1, "Direction.RIGHT"),
            PacketField("padding", 3, 5, "zero bits up to a whole byte"),
        ),
        "msb",
        "active: Alive/Locomotion/Move(Direction.RIGHT)",
    )


def test_a_bad_packet_shows_the_codecs_error() -> None:
    adapter = adapt(moving_hero().machine, codec=CODEC)

    packet = adapter.decode_packet(b"\x80\x00")  # Jump, its 16-bit start frame cut short

    assert packet == DecodedPacket(
        b"\x80\x00",
        (),
        "msb",
        "",
        "bad packet at bit 2, state Alive/Jump, field Jump.started: 16 more bit(s) needed, "
        "but the packet ends 14 bit(s) further",
    )


def test_the_page_gets_the_hex_and_the_fields_of_the_last_packet() -> None:
    hero = moving_hero()
    adapter = adapt(hero.machine, codec=CODEC)
    hub = Hub([adapter])
    hub.watch(Watcher(), ["Hero"])

    hub.packet(adapter, CODEC.encode(hero.machine))
    hub.flush()

    assert hub.latest["packets"] == {"Hero": (1, MOVE_RIGHT)}
    assert Views(hub).describe("packets", "Hero", (1, MOVE_RIGHT)) == {
        "hex": "60",
        "size": 1,
        "bit_order": "msb",
        "fields": [
            {
                "name": "leaf index",
                "start": 0,
                "width": 2,
                "value": "leaf 1 of 4: Alive/Locomotion/Move",
            },
            {
                "name": "Move.direction: Enum(Direction)",
                "start": 2,
                "width": 1,
                "value": "Direction.RIGHT",
            },
            {"name": "padding", "start": 3, "width": 5, "value": "zero bits up to a whole byte"},
        ],
        "summary": "active: Alive/Locomotion/Move(Direction.RIGHT)",
        "error": "",
    }


def test_the_timeline_is_the_inner_adapters() -> None:
    hero = moving_hero()
    adapter = adapt(hero.machine, codec=CODEC)
    seen: list[Any] = []

    adapter.attach(seen.append)
    hero.step(2, Inputs())
    adapter.poll()
    adapter.detach()
    hero.step(3, Inputs(right=True))

    assert [adapter.describe(raw) for raw in seen] == [
        Line("exit", "Pop", "CharacterStates.Move", 2),
        Line("enter", "Sibling", "CharacterStates.Stand", 2),
    ]
    assert hero.machine._listeners() == ()


def test_only_adapters_and_net_codecs_are_taken() -> None:
    hero = moving_hero()

    with pytest.raises(InspectError) as caught:
        NetMachineAdapter(hero.machine, CODEC)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"{hero.machine!r} is not an adapter; give adapt(machine), or call "
        "adapt(machine, codec=codec)"
    )
    with pytest.raises(InspectError) as caught:
        adapt(hero.machine, codec=net.BitmaskCodec)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"{net.BitmaskCodec!r} is not a statetree.net.Codec (bitmask machines decode their "
        "own packets: give them no codec)"
    )


DUO = {
    "name": "Duo",
    "root": {
        "name": "Hero",
        "policy": "concurrent",
        "states": [
            {
                "name": "Legs",
                "policy": "priority",
                "states": [
                    {"name": "Jumping", "pre": {"input": "Jump"}, "post": {"input": "Land"}},
                    {"name": "Standing"},
                ],
            },
            {
                "name": "Arms",
                "states": [
                    {
                        "name": "Relaxed",
                        "transitions": [{"on": {"input": "Attack"}, "to": "Slashing"}],
                    },
                    {
                        "name": "Slashing",
                        "transitions": [{"on": {"input": "Done"}, "to": "Relaxed"}],
                    },
                ],
            },
        ],
    },
}


def test_a_replicated_chart_shows_its_packets_and_its_events() -> None:
    chart = ChartMachine(from_data(DUO))
    codec = net.Codec.auto(chart.structure, settles_empty={"Hero.Legs": False})
    adapter = adapt(chart, codec=codec)
    assert isinstance(adapter, NetMachineAdapter)
    assert type(adapter.inner) is ChartAdapter
    seen: list[Any] = []
    adapter.attach(seen.append)

    chart.send(Event("input", "Jump"))
    packet = adapter.decode_packet(codec.encode(chart.machine))

    assert packet.summary == "active: Hero{Legs/Jumping | Arms/Relaxed}"
    assert packet.fields == (
        PacketField("path header", 0, 2, "Jumping 0 + Relaxed 0*2 = 0"),
        PacketField("padding", 2, 6, "zero bits up to a whole byte"),
    )
    lines = [adapter.describe(raw) for raw in seen]
    assert Line("event", "input", "", -1, "Jump") in lines
    assert lines[lines.index(Line("event", "input", "", -1, "Jump")) + 1] == Line(
        "exit", "Pop", "Hero.Legs.Standing", 2
    )
