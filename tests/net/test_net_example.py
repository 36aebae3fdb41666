"""The networked examples: two predicting clients over 127.0.0.1 with a lossy, reordering
link converge to the server's state, and predicted sounds are never replayed; a crowd is
mirrored from one packed snapshot per frame."""

from __future__ import annotations

import asyncio
import re

import net_character
import net_snapshot
import pytest
from net_character import CODEC, Character, CharacterStates, Inputs, Settings, run

import statetree as st
from statetree.net import HeaderMode


def test_clients_converge_to_the_server_despite_loss_and_reordering() -> None:
    settings = Settings(frames=80, loss=0.25, reorder=0.3, duplicate=0.1, damage_chance=0.05)
    report = asyncio.run(run(settings))
    assert report.converged
    assert report.server_address[0] == "127.0.0.1"
    assert report.server_malformed == 0
    for client in report.clients:
        assert (client.frames, client.confirmed_frame) == (80, 80)
        assert client.mispredictions > 0, "server-side damage is never predicted"
        assert client.resimulated > 0
        assert client.malformed == 0
        frames = [frame for frame, _ in client.sounds]
        assert len(frames) == len(set(frames)), "a jump sound played twice"
        assert {cause for _, cause in client.sounds} <= {st.Cause.PREDICTION}
    assert set(report.state_bytes) <= {1, 3}


def test_main_prints_bytes_mispredictions_and_resimulated_frames(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert net_character.main(["--frames", "40", "--loss", "0.2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("codec: leaf header of 2 bits for 4 configurations; server on 127.0.0.1")
    assert re.fullmatch(r"state: [\d.]+ bytes per update on average \(1 to 3\); .*", lines[1])
    for line, name in zip(lines[2:], ("ann", "bob"), strict=True):
        assert re.fullmatch(
            rf"{name}: 40 frames, confirmed 40, \d+ mispredictions, \d+ frames re-simulated, "
            r"\d+ jump sounds, converged at .*",
            line,
        )


def test_the_character_packets_are_one_to_three_bytes() -> None:
    assert CODEC.header_mode is HeaderMode.LEAF
    hero = Character("hero")
    assert CODEC.encode(hero.machine) == b"\x00"
    hero.step(1, Inputs(right=True))
    assert CODEC.encode(hero.machine) == bytes([0b01_1_00000])
    hero.step(2, Inputs(jump=True))
    assert CODEC.encode(hero.machine) == bytes([0b10_000000, 0b00000000, 0b10_000000])
    assert hero.sounds == [(2, st.Cause.TRANSITION)]
    assert isinstance(hero.machine.stack[-1], CharacterStates.Jump)


def test_inputs_outside_the_three_keys_are_refused() -> None:
    assert Inputs.unpack(Inputs(True, False, True).pack()) == Inputs(True, False, True)
    with pytest.raises(st.DecodeError, match="is not one input byte"):
        Inputs.unpack(b"\x08")


def test_a_crowd_is_mirrored_from_one_packed_snapshot_per_frame() -> None:
    report = asyncio.run(net_snapshot.run(actors=60, frames=12, seed=5))
    assert report.matched
    assert len(report.snapshot_bytes) == 12
    # Each actor takes its own bits in the snapshot, with no byte of its own.
    assert report.bits_per_actor < report.separate_bits_per_actor - 4
    assert report.fingerprint == CODEC.fingerprint


def test_the_snapshot_example_prints_its_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    assert net_snapshot.main(["--actors", "20", "--frames", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"20 actors, 5 frames, wire schema {CODEC.fingerprint}"
    assert re.fullmatch(r"snapshot: [\d.]+ bytes per frame on average \(\d+ to \d+\): .*", lines[1])
    assert lines[3] == "mirror matches the world"
