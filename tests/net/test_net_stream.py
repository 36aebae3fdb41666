"""Packed streams: many machines (of one or several codecs) in one packet with no rounding
between them, read back all or nothing, every truncation refused, and stamps."""

from __future__ import annotations

from typing import Any

import pytest
from bitmask_player import PLAYER_STATES, Player
from hypothesis import given
from hypothesis import strategies as hs
from net_samples import HERO, Direction, Hero, chain, machine
from net_strategies import CODECS, SAMPLES, driven

from statetree import net
from statetree.bitmask import BitmaskMachine
from statetree.errors import UsageError
from statetree.net import BitmaskCodec, BitReader, BitWriter, Codec, PacketError

PLAYER = BitmaskCodec(PLAYER_STATES)


@hs.composite
def bitmask_players(draw: hs.DrawFn) -> BitmaskMachine[Player]:
    player = Player("p")
    for name in draw(hs.lists(hs.sampled_from(PLAYER_STATES.names), max_size=6)):
        player.machine.try_activate(name)
    return player.machine


@hs.composite
def crowds(draw: hs.DrawFn) -> list[tuple[net.MachineCodec[Any, Any], Any]]:
    """Up to 12 machines of the samples and bitmask players, each with one of its codecs."""
    crowd: list[tuple[net.MachineCodec[Any, Any], Any]] = []
    for _ in range(draw(hs.integers(0, 12))):
        name = draw(hs.sampled_from([*sorted(SAMPLES), "player"]))
        if name == "player":
            crowd.append((PLAYER, draw(bitmask_players())))
        else:
            crowd.append((draw(hs.sampled_from(CODECS[name])), draw(driven(name))))
    return crowd


def widths(crowd: list[tuple[net.MachineCodec[Any, Any], Any]]) -> list[int]:
    """The bits each machine takes alone, without the padding of a packet of its own."""
    sizes = []
    for codec, built in crowd:
        writer = BitWriter()
        codec.write(writer, built)
        sizes.append(writer.size)
    return sizes


@given(crowds())
def test_a_crowd_round_trips_with_no_rounding_between_machines(
    crowd: list[tuple[net.MachineCodec[Any, Any], Any]],
) -> None:
    data = net.pack(crowd)
    assert len(data) == -(-sum(widths(crowd)) // 8)  # one padding, at the very end
    values = net.unpack(data, [codec for codec, _ in crowd])
    assert values == [codec.capture(built) for codec, built in crowd]


@given(crowds().filter(bool))
def test_every_truncation_and_every_extra_byte_is_refused(
    crowd: list[tuple[net.MachineCodec[Any, Any], Any]],
) -> None:
    codecs = [codec for codec, _ in crowd]
    data = net.pack(crowd)
    for end in range(len(data)):
        with pytest.raises(PacketError):
            net.unpack(data[:end], codecs)
    with pytest.raises(PacketError, match="trailing data after the end"):
        net.unpack(data + b"\x00", codecs)


def test_the_book_character_takes_its_bits_and_no_more() -> None:
    # Leaf header 2 bits, then the payloads: Stand 2, Move 2 + 1, Jump 2 + 16, Dead 2 + 16.
    codec = Codec.leaf(HERO)
    crowd = [
        machine(Hero.Alive),
        machine(Hero.Alive, move=Direction.RIGHT),
        machine(Hero.Alive, jump=True),
        machine(Hero.Alive, dead=True),
    ]
    assert widths([(codec, built) for built in crowd]) == [2, 3, 18, 18]
    assert len(net.pack((codec, built) for built in crowd)) == 6  # 41 bits; alone: 1+1+3+3
    assert sum(len(codec.encode(built)) for built in crowd) == 8


def test_a_bad_machine_anywhere_refuses_the_whole_packet_naming_it() -> None:
    codec = Codec.path(HERO)
    values = [chain(Hero.Alive, Hero.Locomotion, Hero.Stand), chain(Hero.Alive, (Hero.Jump, 8))]
    data = net.pack_values([(codec, value) for value in values])
    assert net.unpack(data, [codec, codec]) == values
    # 000 | 010 0000000000001000 | 00: set the last bit of the jump's frame (bit 21), which
    # makes it odd, and Jump's net_validate refuses odd frames.
    odd = data[:2] + bytes([data[2] | 0x80 >> 5])
    with pytest.raises(PacketError) as error:
        net.unpack(odd, [codec, codec])
    assert str(error.value) == (
        "bad packet at bit 6, machine 1, state Alive/Jump: Hero.Jump refuses (9,): jumps start "
        "on even frames"
    )
    assert error.value.machine == 1


def test_a_stamp_refuses_a_stream_written_with_other_codecs() -> None:
    hero, player = Codec.leaf(HERO), PLAYER
    stream = [(hero, chain(Hero.Alive, Hero.Locomotion, Hero.Stand)), (player, 0b1)]
    data = net.pack_values(stream, stamp_bits=8)
    assert net.unpack(data, [hero, player], stamp_bits=8) == [value for _, value in stream]
    assert data[0] == int(net.stream_fingerprint([hero, player]), 16) >> 56
    path = Codec.path(HERO)
    with pytest.raises(PacketError) as error:
        net.unpack(data, [path, player], stamp_bits=8)
    expected = int(net.stream_fingerprint([path, player]), 16) >> 56
    assert str(error.value).startswith(
        f"bad packet at bit 0: stamp {data[0]:#x} is not this reader's {expected:#x} (the "
        f"first 8 bit(s) of fingerprint {net.stream_fingerprint([path, player])}): the packet "
        "was written by a program with another wire schema"
    )


def test_a_stream_fingerprint_is_the_codecs_own_when_there_is_one() -> None:
    hero = Codec.leaf(HERO)
    assert net.stream_fingerprint([hero, hero]) == hero.fingerprint
    mixed = net.stream_fingerprint([hero, PLAYER])
    assert mixed not in (hero.fingerprint, PLAYER.fingerprint)
    assert net.stream_fingerprint([PLAYER, hero]) != mixed
    with pytest.raises(UsageError, match=r"^a stream fingerprint needs at least one codec$"):
        net.stream_fingerprint([])


def test_readers_and_writers_carry_values_around_a_games_own_fields() -> None:
    # A snapshot as a game writes it: a count, then each actor's id and state.
    codec = Codec.leaf(HERO)
    actors = {7: machine(Hero.Alive), 12: machine(Hero.Alive, jump=True)}
    writer = BitWriter()
    writer.write_uint(len(actors), 8)
    for actor, built in actors.items():
        writer.write_uint(actor, 16)
        codec.write(writer, built)
    reader = BitReader(writer.to_bytes())
    received = {}
    for _ in range(reader.read_uint(8)):
        actor = reader.read_uint(16)
        received[actor] = codec.read(reader)
    reader.finish()
    assert received == {actor: codec.capture(built) for actor, built in actors.items()}


@given(
    hs.binary(max_size=24), hs.lists(hs.sampled_from([*CODECS["hero"], *CODECS["body"], PLAYER]))
)
def test_random_bytes_are_refused_or_read_back_exactly(
    data: bytes, codecs: list[net.MachineCodec[Any, Any]]
) -> None:
    try:
        values = net.unpack(data, codecs)
    except PacketError:
        return
    assert net.pack_values(zip(codecs, values, strict=True)) == data


def test_pairs_and_codecs_of_the_wrong_shape_are_named() -> None:
    hero = machine(Hero.Alive)
    codec = Codec.path(HERO)
    with pytest.raises(UsageError) as caught:
        net.pack([codec, hero])  # type: ignore[list-item]
    assert str(caught.value).startswith("pack() takes (codec, machine) pairs; item 0 is ")
    with pytest.raises(UsageError) as caught:
        net.pack_values([(codec.capture(hero), codec)])
    assert str(caught.value).startswith("pack_values() takes (codec, value) pairs; item 0 is ")
    data = net.pack([(codec, hero)])
    with pytest.raises(UsageError) as caught:
        net.unpack(data, codec)  # type: ignore[arg-type]
    assert str(caught.value).startswith(
        "unpack() takes a sequence of codecs, one per machine in the packet; got "
    )
    with pytest.raises(UsageError, match=r"^unpack\(\): codecs\[1\] is 'hero', not a codec$"):
        net.unpack(data, [codec, "hero"])  # type: ignore[list-item]
    assert net.unpack(data, [codec]) == [codec.capture(hero)]
    with pytest.raises(
        UsageError, match=r"^pack\(\) takes a list of \(codec, machine\) pairs, got None$"
    ):
        net.pack(None)  # type: ignore[arg-type]
    for bits in ("8", 8.0, True, -1, 65):
        with pytest.raises(UsageError) as caught:
            net.pack([(codec, hero)], stamp_bits=bits)  # type: ignore[arg-type]
        assert str(caught.value) == f"a stamp takes 1 to 64 bits, not {bits}"


def test_a_schema_diff_compares_texts() -> None:
    with pytest.raises(
        UsageError, match=r"compares schema texts \(schema_text\(schema\)\), got dict"
    ):
        net.schema_diff({}, "", "a", "b")  # type: ignore[arg-type]
