"""Two players over loopback: snapshots of every actor, prediction, rollback, bad packets."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import numpy as np
import pytest
from game.enemies import load_chart
from game.hero import HERO_CODEC
from game.inputs import IDLE, Input, script
from game.netmatch import play_local
from game.netplay import Player, Settings, scripted
from game.snapshot import Body, Snapshots
from game.world import World
from game_support import play

from statetree import net


def test_two_players_over_a_link_losing_30_percent_converge() -> None:
    settings = Settings(frames=150, enemies=80, loss=0.3, tick=0.002, timeout=60.0)
    sources = [scripted(script(settings.seed + slot, settings.frames)) for slot in (0, 1)]
    report = asyncio.run(play_local(settings, sources))
    assert report.frames == 150
    assert [(p.confirmed, p.frames, p.malformed) for p in report.players] == [(150, 150, 0)] * 2
    assert report.converged, "\n".join(report.lines())
    assert report.server_malformed == 0
    assert max(report.snapshot_bytes) <= net.MAX_STATE


@pytest.fixture(scope="module")
def snapshots() -> Snapshots:
    return Snapshots(load_chart(), 2, 120)


def test_a_snapshot_carries_every_actor_exactly(snapshots: Snapshots) -> None:
    world = play(World(2, 120), 200)
    data = snapshots.write(world)
    received = snapshots.read(world.frame, data)
    for hero, state in zip(world.heroes, received.heroes, strict=True):
        assert state.body == Body.of(hero)
        assert state.configuration == HERO_CODEC.capture(hero.machine)
    assert np.array_equal(received.enemies.anim, world.crowd.anim)
    assert np.array_equal(received.enemies.x, np.rint(world.crowd.x))
    assert received.kills == world.crowd.kills


def test_each_enemy_takes_25_bits_of_a_snapshot() -> None:
    # A 5-bit leaf index (17 settled configurations) and a 10-bit coordinate each way.
    chart = load_chart()
    small, large = (Snapshots(chart, 2, count).write(World(2, count)) for count in (120, 240))
    assert (len(large) - len(small)) * 8 == 120 * 25


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-1],  # cut short
        lambda data: data + b"\x00",  # trailing data
        lambda data: b"\xff" * len(data),  # headers past the last configuration
    ],
)
def test_a_damaged_snapshot_is_refused_and_changes_nothing(
    snapshots: Snapshots, damage: Callable[[bytes], bytes]
) -> None:
    world = play(World(2, 120), 60)
    player = Player("p", scripted([IDLE] * 10), snapshots, 10)
    player.on_state(net.StateMessage(world.frame, snapshots.write(world), b"\x00"))
    assert player.rollback is not None and player.hero is not None
    before = (player.view, player.rollback.frame, Body.of(player.hero))
    world.step([Input(1, 0), Input(0, 1)])
    with pytest.raises(net.PacketError):
        player.on_state(net.StateMessage(world.frame, damage(snapshots.write(world)), b"\x00"))
    assert (player.view, player.rollback.frame, Body.of(player.hero)) == before


def test_a_snapshot_with_a_hero_off_the_arena_is_refused(snapshots: Snapshots) -> None:
    world = World(2, 120)
    world.heroes[1].x = 5000.0
    with pytest.raises(net.PacketError, match=r"a hero at \(5000.0, 320.0\) facing"):
        snapshots.read(0, snapshots.write(world))
