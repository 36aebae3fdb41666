"""A batch on the wire: one packed stream of every agent, equal to the per-agent codec's.

Hypothesis draws a chart, runs a server's and a client's agents (a ChartBatch and one
ChartMachine per agent each) through their own random steps, then sends the server's agents
to the client: the batch's stream must be the bytes ``net.pack`` writes for the server's
machines, it must decode into the configurations ``net.unpack`` reads, and applying it must
move the client's batch exactly as ``Codec.apply`` moves each of its machines (active states,
timers and ordered host calls), and both must run on alike afterwards.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_strategies import HELD, MAX_AGENTS, Step, batch_charts, steps
from batch_support import Twins
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from statetree import net
from statetree.chart import (
    BatchCodec,
    Chart,
    ChartBatch,
    ChartMachine,
    CompiledChart,
    Event,
    compile_chart,
    from_data,
)
from statetree.chart import builder as b
from statetree.chart.structure import compiled_structure
from statetree.errors import UsageError

SCRIPT = st.lists(steps(spawning=False), max_size=8)


def codec_of(compiled: CompiledChart) -> net.Codec:
    """The per-agent codec of ``compiled``, where any composite state may settle empty."""
    composite = {path: True for path, state, _ in compiled.chart.walk() if state.states}
    return net.Codec.auto(compiled_structure(compiled), settles_empty=composite)


@settings(max_examples=examples(60))
@given(batch_charts(), st.integers(1, MAX_AGENTS), SCRIPT, SCRIPT, SCRIPT)
def test_a_batch_stream_is_the_agents_machines_packed_and_applies_as_they_do(
    chart: Chart, count: int, served: list[Step], received: list[Step], after: list[Step]
) -> None:
    compiled = compile_chart(chart)  # the machines' classes are the codec's
    server, client = Twins(compiled, count), Twins(compiled, count)
    server.play(Step("start", tuple(range(count))))
    for step in served:
        server.play(step)
    server.play(Step("start", tuple(range(count))))  # agents stopped since: only started ones send
    for step in received:
        client.play(step)
    codec = codec_of(compiled)
    wire = BatchCodec(codec, compiled)
    machines = [server.machines[agent].machine for agent in range(count)]

    data = wire.encode(server.batch)
    assert data == net.pack((codec, machine) for machine in machines)
    configurations = wire.decode(data, count)
    assert list(configurations) == net.unpack(data, [codec] * count)

    client.quiet = True  # a received state is set, not processed: nothing is sent back
    wire.apply(client.batch, configurations)
    for agent, configuration in enumerate(configurations):
        codec.apply(client.machines[agent].machine, configuration)
    client.quiet = False
    client.check("applying the server's stream")
    assert wire.encode(client.batch) == data
    for number, step in enumerate(after):
        client.play(step)
        client.check(f"step {number} after applying: {step}")


LEGS = {
    "name": "Legs",
    "root": {
        "name": "Legs",
        "states": [
            {"name": "Idle", "transitions": [{"on": {"input": "Go"}, "to": "Walk"}]},
            {"name": "Walk", "transitions": [{"on": {"input": "Stop"}, "to": "Idle"}]},
        ],
    },
}


def legs(count: int) -> tuple[ChartBatch, BatchCodec]:
    chart = from_data(LEGS)
    batch = ChartBatch(chart, count)
    batch.start()
    return batch, BatchCodec.auto(chart)


def test_agents_share_bytes_with_no_rounding_and_a_stamp_guards_the_schema() -> None:
    batch, wire = legs(5)
    batch.send(Event("input", "Go"), [1, 4])
    assert wire.bits == 1
    data = wire.encode(batch)
    assert data == bytes([0b01001000])  # five 1-bit headers, padded once
    stamped = wire.encode(batch, stamp_bits=8)
    assert len(stamped) == 2
    assert [str(c) for c in wire.decode(stamped, 5, stamp_bits=8)] == [
        "Legs/Idle",
        "Legs/Walk",
        "Legs/Idle",
        "Legs/Idle",
        "Legs/Walk",
    ]
    other = BatchCodec.auto(from_data({**LEGS, "root": {**LEGS["root"], "name": "Arms"}}))
    with pytest.raises(net.PacketError, match=r"stamp 0x[0-9a-f]{2} is not this reader's"):
        other.decode(stamped, 5, stamp_bits=8)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "at bit 0, machine 0: 1 more bit(s) needed, but the packet ends 0 bit(s) further"),
        (b"\x48\x00", "at bit 5: 1 byte(s) of trailing data after the end"),
        (b"\x49", "at bit 5: the padding bits of the last byte are not zero"),
    ],
)
def test_a_bad_stream_raises_and_changes_no_agent(data: bytes, message: str) -> None:
    batch, wire = legs(5)
    before = batch.snapshot().to_bytes()
    with pytest.raises(net.PacketError) as failure:
        wire.receive(batch, data)
    assert str(failure.value) == f"bad packet {message}"
    assert batch.snapshot().to_bytes() == before


def test_a_header_naming_no_configuration_names_the_agent_and_bit() -> None:
    chart = from_data(
        {
            "name": "Three",
            "root": {
                "name": "R",
                "states": [
                    {"name": "A", "transitions": [{"on": {"input": "Next"}, "to": "B"}]},
                    {"name": "B", "transitions": [{"on": {"input": "Next"}, "to": "C"}]},
                    {"name": "C"},
                ],
            },
        }
    )
    batch = ChartBatch(chart, 3)
    batch.start()
    wire = BatchCodec.auto(chart)
    assert wire.bits == 2
    before = batch.snapshot().to_bytes()
    with pytest.raises(net.PacketError) as failure:
        wire.receive(batch, bytes([0b00001100]))  # A, A, then 3: no fourth child
    assert failure.value.machine == 2
    assert str(failure.value).startswith("bad packet at bit 4, machine 2: ")
    assert batch.snapshot().to_bytes() == before


def test_of_two_bad_agents_the_first_is_named() -> None:
    names = "ABCDE"
    states = [
        {"name": n, "transitions": [{"on": {"input": "Next"}, "to": m}]}
        for n, m in zip(names, names[1:] + names[0], strict=True)
    ]
    chart = from_data({"name": "Five", "root": {"name": "R", "states": states}})
    wire = BatchCodec.auto(chart)
    assert wire.bits == 3
    writer = net.BitWriter()
    for header in (0, 7, 0, 5):  # agents 1 and 3 name no configuration, 7 above 5
        writer.write_uint(header, 3)
    with pytest.raises(net.PacketError) as failure:
        wire.decode(writer.to_bytes(), 4)
    assert failure.value.machine == 1
    assert str(failure.value).startswith("bad packet at bit 3, machine 1: ")


def test_a_stream_for_another_count_or_chart_is_refused() -> None:
    batch, wire = legs(3)
    configurations = wire.decode(wire.encode(batch), 3)
    with pytest.raises(UsageError, match=r"3 configuration\(s\) for 2 agent\(s\)"):
        wire.apply(batch, configurations, [0, 1])
    other = ChartBatch(from_data({**LEGS, "name": "Other", "root": {"name": "X"}}), 3)
    with pytest.raises(UsageError, match="runs chart 'Other', whose structure is not the one of"):
        wire.encode(other)
    with pytest.raises(UsageError) as refused:
        BatchCodec(wire.codec, other.compiled)
    assert str(refused.value) == (
        "the codec encodes states chart 'Other' lacks: ['Legs', 'Legs.Idle', 'Legs.Walk']"
    )


def test_configurations_another_codec_read_are_refused_and_change_nothing() -> None:
    # Same tree, same names, another chart: its codec's classes are not this codec's.
    batch, wire = legs(3)
    batch.send(Event("input", "Go"), [1])
    twin, twin_wire = legs(3)
    twin.send(Event("input", "Go"))
    read = twin_wire.decode(twin_wire.encode(twin), 3)
    before = batch.snapshot().to_bytes()
    with pytest.raises(UsageError, match=r"^the configurations hold a state Legs of another chart"):
        wire.apply(batch, read)
    assert batch.snapshot().to_bytes() == before


def test_an_agent_not_started_cannot_be_sent_but_a_received_state_starts_it() -> None:
    batch, wire = legs(3)
    (fresh,) = batch.spawn(1).tolist()
    with pytest.raises(UsageError, match=f"agent {fresh} cannot be sent: it has not started"):
        wire.encode(batch)
    data = wire.encode(batch, [0, 1, 2])
    batch.send(Event("input", "Go"), [0])
    wire.receive(batch, data, [0, 1, fresh])
    assert [batch.active(agent) for agent in (0, 1, fresh)] == [("Legs", "Legs.Idle")] * 3
    assert np.array_equal(batch.is_active("Legs.Walk"), [False] * 4)


def test_a_held_level_is_kept_when_states_are_received() -> None:
    chart = from_data(
        {
            "name": "Hold",
            "root": {
                "name": "R",
                "states": [
                    {"name": "Up", "transitions": [{"on": {"held": "H"}, "to": "Down"}]},
                    {"name": "Down"},
                ],
            },
        }
    )
    batch = ChartBatch(chart, 2)
    batch.start()
    batch.hold(HELD, [0])
    assert batch.active(0) == ("R", "R.Down")
    wire = BatchCodec.auto(chart)
    wire.receive(batch, wire.encode(batch, [1]), [0])
    assert batch.active(0) == ("R", "R.Up")
    batch.send(Event("input", "Poke"), [0])  # the next processing sees the level still held
    assert batch.active(0) == ("R", "R.Down")


def test_wide_charts_past_64_states_and_64_header_bits_go_through() -> None:
    regions = [
        {
            "name": f"R{region}",
            "states": [
                {
                    "name": f"S{leaf}",
                    "transitions": [{"on": {"input": f"N{region}"}, "to": f"S{(leaf + 1) % 8}"}],
                }
                for leaf in range(8)
            ],
        }
        for region in range(22)
    ]
    chart = from_data(
        {"name": "Wide", "root": {"name": "W", "policy": "concurrent", "states": regions}}
    )
    compiled = compile_chart(chart)
    codec = net.Codec.auto(compiled_structure(compiled))
    wire = BatchCodec(codec, compiled)
    assert (len(compiled.classes), wire.bits) == (199, 66)
    server, machines = ChartBatch(compiled, 4), [ChartMachine(compiled) for _ in range(4)]
    server.start()
    for machine in machines:
        machine.start()
    for region in range(22):
        for agent in range(region % 4 + 1):
            server.send(Event("input", f"N{region}"), range(agent, 4))
            for machine in machines[agent:]:
                machine.send(Event("input", f"N{region}"))
    data = wire.encode(server)
    assert data == net.pack((codec, machine.machine) for machine in machines)
    client = ChartBatch(compiled, 4)
    wire.receive(client, data)
    assert [client.active(agent) for agent in range(4)] == [m.active for m in machines]


def test_a_batch_whose_chart_has_the_same_paths_but_another_structure_is_refused() -> None:
    def guard(policy: str | None = None) -> Chart:
        return b.chart("Guard", b.state("Top", b.state("Patrol"), b.state("Chase"), policy=policy))

    wire = BatchCodec.auto(guard())
    both = ChartBatch(guard("concurrent"), 1)
    both.start()

    with pytest.raises(UsageError) as refused:
        wire.encode(both)

    assert str(refused.value) == (
        "batch 'Guard' runs chart 'Guard', whose structure is not the one of the codec's chart "
        "'Guard'"
    )
    same, original = ChartBatch(guard(), 1), ChartBatch(wire.compiled, 1)
    for batch in (same, original):  # an equal chart, compiled again, is the codec's
        batch.start()
    assert wire.encode(same) == wire.encode(original)
