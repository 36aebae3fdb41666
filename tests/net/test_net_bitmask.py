"""Bitmask machines behind the common codec interface: the same bytes as the bitmask
package, its checks on decoding, causes mapped for its hooks, and rollback over it."""

from __future__ import annotations

import pytest
from bitmask_player import PLAYER_STATES, Alive, Crouching, Player, Punching

import statetree as st
from statetree.bitmask import BitCause, BitmaskDefinition, BitmaskMachine
from statetree.errors import DecodeError, UsageError
from statetree.net import BitmaskCodec, MachineCodec, Rollback

CODEC = BitmaskCodec(PLAYER_STATES)


def test_it_counts_the_masks_the_rules_allow() -> None:
    # The empty mask; with Alive and without InDialogue, Moving and Crouching freely times
    # {nothing, Aiming, Aiming+Shooting} each with or without Punching (a punch terminates
    # aiming, but aiming may start again during it): 2 * 2 * 6; with InDialogue, which
    # excludes all but Crouching: 2. That is 1 + 24 + 2.
    assert CODEC.configurations == 27
    assert (CODEC.minimum_bits, CODEC.header_bits) == (5, 8)


def test_bytes_and_checks_are_the_bitmask_packages() -> None:
    player = Player("server")
    player.machine.try_activate(Alive)
    player.machine.try_activate(Crouching)
    assert CODEC.encode(player.machine) == player.machine.encode() == b"\x05"
    assert CODEC.decode(b"\x05") == CODEC.capture(player.machine) == 0b101
    with pytest.raises(DecodeError, match="Crouching is active but requires Alive"):
        CODEC.decode(b"\x04")


def test_apply_gives_the_hooks_the_matching_bit_cause() -> None:
    player = Player("client")
    CODEC.apply(player.machine, 0b1001)
    CODEC.apply(player.machine, 0b0001, cause=st.Cause.RESIMULATION)
    assert player.events == [
        "+Alive (from the network)",
        "+Aiming (from the network)",
        "-Aiming (rolled back)",
    ]


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
    outcome = rollback.confirm(2, CODEC.decode(server.machine.encode()), 0)
    assert outcome.mispredicted
    assert client.machine.active_states == ("Alive", "Punching")
    assert client.events[-2:] == ["-Aiming (from the network)", "+Punching (from the network)"]


def test_definitions_too_large_to_count_say_so() -> None:
    wide = BitmaskCodec(BitmaskDefinition.from_data({f"S{i}": {} for i in range(21)}))
    assert wide.header_bits == 24
    with pytest.raises(UsageError, match=r"^counting the legal masks of 21 states means trying"):
        _ = wide.configurations
