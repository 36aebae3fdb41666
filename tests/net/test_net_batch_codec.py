"""A bad batch packet is refused with the error reading it agent by agent gives: the first
problem in the stream, named by agent and bit, whether or not the packet is also cut short."""

from __future__ import annotations

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as hs

from statetree import net
from statetree.chart import BatchCodec, Chart, from_data
from statetree.errors import UsageError


def ring(name: str, count: int) -> dict[str, object]:
    """A composite state ``name`` of ``count`` children, each going to the next."""
    children = [f"{name}{n}" for n in range(count)]
    return {
        "name": name,
        "states": [
            {"name": child, "transitions": [{"on": {"input": "Next"}, "to": after}]}
            for child, after in zip(children, children[1:] + children[:1], strict=True)
        ],
    }


FIVE = from_data({"name": "Five", "root": {"name": "R", "states": ring("S", 5)["states"]}})
DUO = from_data(
    {
        "name": "Duo",
        "root": {"name": "R", "policy": "concurrent", "states": [ring("L", 3), ring("A", 5)]},
    }
)


def headers(*values: int, width: int = 3, extra: str = "") -> bytes:
    """A stream of 3-bit headers, then the bits of ``extra``."""
    writer = net.BitWriter()
    for value in values:
        writer.write_uint(value, width)
    for bit in extra:
        writer.write_uint(int(bit), 1)
    return writer.to_bytes()


def refusal(read: object) -> str:
    assert callable(read)
    with pytest.raises(net.PacketError) as failure:
        read()
    error = failure.value
    return f"{error} [machine {error.machine}, bit {error.bit}]"


@pytest.mark.parametrize(
    ("data", "count", "message"),
    [
        (  # agent 1 names no configuration, and the packet ends in agent 5
            headers(0, 7, 0),
            6,
            "bad packet at bit 3, machine 1: path header 7 is above the largest value 4 "
            "[machine 1, bit 3]",
        ),
        (  # the same, with more whole agents after the bad one
            headers(0, 6, 0, 1, extra="01"),
            6,
            "bad packet at bit 3, machine 1: path header 6 is above the largest value 4 "
            "[machine 1, bit 3]",
        ),
        (  # every whole agent is good: the cut is the problem
            headers(0, 1, 2, 3, 4),
            6,
            "bad packet at bit 15, machine 5: 3 more bit(s) needed, but the packet ends "
            "1 bit(s) further [machine 5, bit 15]",
        ),
        (
            b"",
            2,
            "bad packet at bit 0, machine 0: 3 more bit(s) needed, but the packet ends "
            "0 bit(s) further [machine 0, bit 0]",
        ),
    ],
)
def test_a_bad_batch_packet_names_the_first_problem_as_unpack_does(
    data: bytes, count: int, message: str
) -> None:
    wire = BatchCodec.auto(FIVE)
    assert wire.bits == 3
    assert refusal(lambda: wire.decode(data, count)) == message
    assert refusal(lambda: net.unpack(data, [wire.codec] * count)) == message


@settings(max_examples=examples(300))
@given(
    hs.sampled_from([FIVE, DUO]),
    hs.binary(max_size=6),
    hs.integers(1, 14),
    hs.sampled_from([0, 8]),
)
def test_a_batch_packet_decodes_as_its_agents_do_one_by_one(
    chart: Chart, data: bytes, count: int, stamp_bits: int
) -> None:
    wire = BatchCodec.auto(chart)
    codecs = [wire.codec] * count
    try:
        expected = net.unpack(data, codecs, stamp_bits=stamp_bits)
    except net.PacketError:
        message = refusal(lambda: net.unpack(data, codecs, stamp_bits=stamp_bits))
        assert refusal(lambda: wire.decode(data, count, stamp_bits=stamp_bits)) == message
    else:
        assert list(wire.decode(data, count, stamp_bits=stamp_bits)) == expected


@pytest.mark.parametrize("count", [True, 3.0, None, "3", -1])
def test_a_count_that_is_no_whole_number_is_refused_before_reading(count: object) -> None:
    wire = BatchCodec.auto(FIVE)
    data = headers(0, 1, 2)
    with pytest.raises(UsageError) as caught:
        wire.decode(data, count)  # type: ignore[arg-type]
    assert str(caught.value).startswith("read() needs a count of at least 0 agents")
    assert str(caught.value).endswith(f"got {count!r}")
    assert len(wire.decode(data, np.int64(3))) == 3  # NumPy's integers are counts too
