"""Bitmask machines behind the common codec interface: a mask sent as its index among the
legal masks (the fewest bits), the rules checked on decoding, causes mapped for its hooks,
and rollback over it."""

from __future__ import annotations

import pytest
from bitmask_player import PLAYER_STATES, Alive, Crouching, Player, Punching

import statetree as st
from statetree.bitmask import BitCause, BitmaskDefinition, BitmaskMachine, mask_problem
from statetree.errors import DecodeError, UsageError
from statetree.net import (
    BitmaskCodec,
    BitReader,
    BitWriter,
    MachineCodec,
    PacketError,
    Rollback,
    pack_values,
)

CODEC = BitmaskCodec(PLAYER_STATES)


def test_it_counts_the_masks_the_rules_allow() -> None:
    # The empty mask; with Alive and without InDialogue, Moving and Crouching freely times
    # {nothing, Aiming, Aiming+Shooting} each with or without Punching (a punch terminates
    # aiming, but aiming may start again during it): 2 * 2 * 6; with InDialogue, which
    # excludes all but Crouching: 2. That is 1 + 24 + 2.
    assert CODEC.configurations == 27
    assert (CODEC.minimum_bits, CODEC.header_bits) == (5, 5)
    assert repr(CODEC) == "<BitmaskCodec 'Player' rank of 5 bit(s)>"


def test_a_mask_is_sent_as_its_index_among_the_legal_masks() -> None:
    # The legal masks in increasing order: 0, then Alive (0b1) is index 1, Alive+Moving
    # (0b11) index 2, Alive+Crouching (0b101) index 3: "00011" in five bits.
    player = Player("server")
    player.machine.try_activate(Alive)
    player.machine.try_activate(Crouching)
    assert CODEC.encode(player.machine) == bytes([0b00011_000])
    assert CODEC.decode(b"\x18") == CODEC.capture(player.machine) == 0b101
    with pytest.raises(PacketError, match=r"^bad packet at bit 0: mask index 27 is out of range"):
        CODEC.decode(bytes([27 << 3]))
    with pytest.raises(DecodeError, match=r"^bad packet at bit 5: the padding bits"):
        CODEC.decode(b"\x19")
    with pytest.raises(UsageError, match=r"^mask 0x4 is not one the rules of 'Player' allow$"):
        CODEC.write_value(BitWriter(), 0b100)


def test_every_legal_mask_round_trips_and_nothing_else_decodes() -> None:
    legal = [mask for mask in range(1 << 7) if mask_problem(PLAYER_STATES, mask) is None]
    writer = BitWriter()
    for mask in legal:
        CODEC.write_value(writer, mask)
    reader = BitReader(writer.to_bytes())
    assert [CODEC.read(reader) for _ in legal] == legal
    reader.finish()
    decoded = set()
    for index in range(32):
        try:
            decoded.add(CODEC.decode(bytes([index << 3])))
        except PacketError:
            assert index >= 27
    assert decoded == set(legal)


def test_large_definitions_send_one_bit_per_state_checked_by_the_rules() -> None:
    rules = {f"S{i}": {} for i in range(17)}
    rules["S1"] = {"requires": ["S0"]}
    wide = BitmaskCodec(BitmaskDefinition.from_data(rules))
    assert (wide.ranked, wide.header_bits) == (False, 17)
    assert wide.decode(pack_values([(wide, 0b11)])) == 0b11
    with pytest.raises(PacketError, match=r"^bad packet at bit 0: bitmask: S1 is active but"):
        wide.decode((0b10 << 7).to_bytes(3, "big"))


def test_apply_gives_the_hooks_the_matching_bit_cause() -> None:
    player = Player("client")
    CODEC.apply(player.machine, 0b1001)
    CODEC.apply(player.machine, 0b0001, cause=st.Cause.RESIMULATION)
    assert player.events == [
        "+Alive (from the network)",
        "+Aiming (from the network)",
        "-Aiming (rolled back)",
    ]


def test_apply_and_caused_by_take_a_bit_cause_as_it_is_and_refuse_other_causes() -> None:
    player = Player("client")
    CODEC.apply(player.machine, 0b0001, cause=BitCause.PREDICTED)
    with CODEC.caused_by(player.machine, BitCause.ROLLBACK):
        player.machine.try_activate("Aiming")
    assert player.events == ["+Alive (predicted)", "+Aiming (rolled back)"]
    before = (player.machine.mask, list(player.events))
    for call in (
        lambda: CODEC.apply(player.machine, 0, cause="network"),  # type: ignore[arg-type]
        lambda: CODEC.caused_by(player.machine, "network"),  # type: ignore[arg-type]
    ):
        with pytest.raises(UsageError) as caught:
            call()
        assert str(caught.value).endswith(
            "(cause=...) takes a statetree.net.Cause or a BitCause, got 'network'"
        )
    assert (player.machine.mask, player.events) == before


@pytest.mark.parametrize(
    ("mask", "message"),
    [
        (0b100000, "Punching is active but requires Alive, which is not active"),
        (1 << 9, "bit 9 is set but only 7 states are defined (bits 0-6)"),
        (-1, "a mask cannot be negative (-1)"),
        ("3", "a mask is an integer, got '3'"),
    ],
)
def test_apply_refuses_a_mask_the_rules_do_not_allow_as_a_usage_error(
    mask: object, message: str
) -> None:
    player = Player("client")
    CODEC.apply(player.machine, 0b1)
    before = (player.machine.mask, list(player.events))
    with pytest.raises(UsageError) as caught:  # a value given here, as Codec.apply refuses
        CODEC.apply(player.machine, mask)  # type: ignore[arg-type]
    assert str(caught.value) == f"bitmask 'Player': {message}"
    assert (player.machine.mask, player.events) == before


def test_receive_decodes_and_applies_as_the_other_codecs_do() -> None:
    player, server = Player("client"), Player("server")
    server.machine.try_activate("Alive")
    server.machine.try_activate("Crouching")
    assert CODEC.receive(player.machine, CODEC.encode(server.machine)) == server.machine.mask
    assert player.machine.mask == server.machine.mask
    assert player.events == ["+Alive (from the network)", "+Crouching (from the network)"]
    with pytest.raises(PacketError):
        CODEC.receive(player.machine, b"")
    assert player.machine.mask == server.machine.mask


def test_rollback_drives_a_bitmask_machine_too() -> None:
    server, client = Player("server"), Player("client")
    codec: MachineCodec[BitmaskMachine[Player], int] = CODEC

    def step(frame: int, state: str) -> None:
        client.machine.try_activate(state, cause=BitCause.PREDICTED)

    rollback = Rollback(
        client.machine,
        codec,
        step,
        snapshot=lambda: client.time,
        restore=lambda time: setattr(client, "time", time),
    )
    for state in ("Alive", "Aiming"):
        rollback.advance(state)
        server.machine.try_activate(state)
    server.machine.try_activate(Punching)  # the server also saw a punch: Aiming terminated
    outcome = rollback.confirm(2, CODEC.decode(CODEC.encode(server.machine)), 0)
    assert outcome.mispredicted
    assert client.machine.active_states == ("Alive", "Punching")
    assert client.events[-2:] == ["-Aiming (from the network)", "+Punching (from the network)"]


def test_rollback_hooks_tell_a_prediction_from_a_replay() -> None:
    """The step passes no cause: hooks of a predicted frame get PREDICTED, those of a frame
    replayed after a rollback get ROLLBACK, as chart and state hooks see PREDICTION and
    RESIMULATION."""
    client = Player("client")

    def step(frame: int, state: str) -> None:
        client.machine.try_activate(state)

    rollback = Rollback(client.machine, CODEC, step, snapshot=lambda: 0, restore=lambda _: None)
    rollback.advance("Alive")
    rollback.advance("Aiming")
    assert client.events == ["+Alive (predicted)", "+Aiming (predicted)"]
    client.events.clear()
    outcome = rollback.confirm(1, PLAYER_STATES.mask_of(["Alive"]), 1)  # other data: replay
    assert outcome.resimulated == 1
    assert client.events == ["-Aiming (from the network)", "+Aiming (rolled back)"]
    client.machine.deactivate("Aiming")  # outside the rollback's calls: requested again
    assert client.events[-1] == "-Aiming (requested)"


def test_caused_by_gives_requests_without_a_cause_its_cause() -> None:
    player = Player("local")
    with player.machine.caused_by(BitCause.PREDICTED):
        player.machine.try_activate("Alive")
        player.machine.try_activate("Aiming", cause=BitCause.NETWORK)  # given: kept
        with player.machine.caused_by(BitCause.ROLLBACK):
            player.machine.deactivate("Aiming")
        player.machine.try_activate("Aiming")
    player.machine.deactivate("Aiming")
    assert player.events == [
        "+Alive (predicted)",
        "+Aiming (from the network)",
        "-Aiming (rolled back)",
        "+Aiming (predicted)",
        "-Aiming (requested)",
    ]
    with pytest.raises(UsageError, match="caused_by\\(\\) takes a BitCause, got 'x'"):
        player.machine.caused_by("x").__enter__()  # type: ignore[arg-type]


def test_definitions_too_large_to_count_say_so() -> None:
    wide = BitmaskCodec(BitmaskDefinition.from_data({f"S{i}": {} for i in range(21)}))
    assert wide.header_bits == 21
    assert wide.decode(pack_values([(wide, 0b101)])) == 0b101
    with pytest.raises(UsageError, match=r"^counting the legal masks of 21 states means trying"):
        _ = wide.configurations
    with pytest.raises(UsageError, match=r"^counting the legal masks of 21 states means trying"):
        _ = wide.minimum_bits
    # Its schema needs no count: a bit per state.
    schema = wide.schema()
    assert schema["header"] == {"mode": "mask", "bits": 21}
    assert schema["fingerprint"] == wide.fingerprint
    counted = BitmaskCodec(BitmaskDefinition.from_data({f"S{i}": {} for i in range(20)}))
    header = counted.schema()["header"]
    assert header == {"mode": "mask", "bits": 20, "configurations": 2**20, "minimum_bits": 20}


def test_a_codec_takes_a_definition_and_masks_that_are_whole_numbers() -> None:
    with pytest.raises(UsageError, match=r"^a BitmaskCodec is built from a BitmaskDefinition"):
        BitmaskCodec(BitmaskMachine(PLAYER_STATES))  # type: ignore[arg-type]
    for wrong in ("3", 1.5, None):
        with pytest.raises(UsageError) as refused:
            CODEC.write_value(BitWriter(), wrong)  # type: ignore[arg-type]
        assert str(refused.value) == f"a mask is a whole number, got {wrong!r}"
