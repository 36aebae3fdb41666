"""Two players over loopback: snapshots of every actor, prediction, rollback, bad packets,
the end of a match on every screen, and the command line's network options."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from game import config
from game.app import main as game_main
from game.app import parser
from game.enemies import load_chart
from game.hero import HERO_CODEC
from game.inputs import IDLE, Input, script
from game.match import MATCH_CODEC, Result, Rules
from game.netcli import join_hint, most_enemies
from game.netmatch import link_from, play_local, settings_from
from game.netplay import BAD_LINK, PLAYERS, Host, Player, Settings, local_address, scripted
from game.scene import scene_of_player
from game.snapshot import Body, Snapshots
from game.world import World
from game_support import play

from statetree import net

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_two_players_over_a_link_losing_30_percent_converge() -> None:
    settings = Settings(
        frames=150, enemies=40, link=net.LinkProfile(loss=0.3), tick=0.002, timeout=60.0
    )
    sources = [scripted(script(settings.seed + slot, settings.frames)) for slot in (0, 1)]
    report = asyncio.run(play_local(settings, sources))
    assert report.frames == 150 and report.checked
    assert [(p.confirmed, p.frames, p.malformed) for p in report.players] == [(150, 150, 0)] * 2
    assert report.converged, "\n".join(report.lines())
    assert report.server_malformed == 0
    assert max(report.snapshot_bytes) <= net.MAX_STATE


def test_a_match_that_ends_shows_its_result_on_both_screens(tmp_path: Path) -> None:
    import pygame
    from game.render import BACKGROUND, save_frame

    settings = Settings(frames=10**6, enemies=20, rules=Rules(lives=1), tick=0.002, timeout=120)
    seen: list[tuple[Host, Sequence[Player]]] = []

    def heroes_fall(host: Host | None, players: Sequence[Player]) -> bool:
        assert host is not None
        if not seen and host.world.frame >= 30:
            for hero in host.world.heroes:
                assert hero.hurt(config.HERO_HEALTH)
        seen[:] = [(host, players)]
        return not all(player.done for player in players)

    report = asyncio.run(play_local(settings, [lambda player: IDLE] * 2, heroes_fall))
    ((host, players),) = seen
    world = host.world
    assert world.over and report.frames == world.frame, "\n".join(report.lines())
    assert report.lines()[1] == "match: defeated in wave 1 of 5, score 0"
    assert report.checked and report.converged, "\n".join(report.lines())
    for player in players:
        scene = scene_of_player(player)
        assert scene is not None and player.over
        assert (scene.frame, scene.match.result, scene.match.score, scene.prompt) == (
            world.frame,
            Result.LOST,
            world.match.score,
            "Esc: quit",
        )
        assert [(hero.name, hero.lives, hero.path) for hero in scene.heroes] == [
            ("Hero1", 0, ("Dead",)),
            ("Hero2", 0, ("Dead",)),
        ]
        image = pygame.image.load(str(save_frame(scene, tmp_path / f"{player.name}.png")))
        arena = {
            tuple(image.get_at((x, y)))[:3] for x in range(0, 960, 3) for y in range(0, 640, 3)
        }
        assert BACKGROUND not in arena  # dimmed under the result
        assert (240, 90, 80) in arena  # DEFEATED


@pytest.fixture(scope="module")
def snapshots() -> Snapshots:
    return Snapshots(load_chart(), 2)


def test_a_snapshot_carries_every_actor_exactly(snapshots: Snapshots) -> None:
    world = play(World(2, 120), 400)
    data = snapshots.write(world)
    received = snapshots.read(world.frame, data)
    for hero, state in zip(world.heroes, received.heroes, strict=True):
        assert state.body == Body.of(hero)
        assert state.configuration == HERO_CODEC.capture(hero.machine)
    assert received.match == MATCH_CODEC.capture(world.match.machine)
    assert (received.waves, received.score) == (5, world.match.score)
    assert world.crowd.in_play.any()
    assert np.array_equal(received.enemies.anim, world.crowd.anim)
    assert np.array_equal(received.enemies.x, np.rint(world.crowd.x))
    assert received.kills == world.crowd.kills


def test_each_enemy_takes_25_bits_of_a_snapshot(snapshots: Snapshots) -> None:
    # A 5-bit leaf index (18 settled configurations) and a 10-bit coordinate each way.
    small, large = (snapshots.write(World(2, count)) for count in (120, 240))
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


def test_a_player_who_leaves_is_played_by_the_bot() -> None:
    host = Host(Settings(enemies=10))
    first, second = ("10.0.0.1", 5000), ("10.0.0.2", 5000)
    heard: list[str] = []
    host.announce = heard.append
    host.on_join(first)
    host.on_join(second)
    host.on_inputs(first, [(1, Input(1, 0)), (2, Input(1, 0)), (3, Input(1, 0))])
    assert host.world.frame == 0  # waiting for the second player's inputs
    host.on_inputs(second, [(1, IDLE)])
    assert host.world.frame == 1
    host.on_leave(second)
    assert host.world.frame == 3  # the bot played frames 2 and 3 for it
    assert not host.finished
    host.on_leave(first)
    assert host.finished and host.world.frame == 3  # no one is left to play for
    assert heard == [
        "Hero1 joined from 10.0.0.1:5000",
        "Hero2 joined from 10.0.0.2:5000",
        "Hero2 left: the bot plays on",
        "Hero1 left: the match ends",
    ]


# -- the command line ---------------------------------------------------------------------


def test_the_simulated_bad_link_is_off_unless_asked_for() -> None:
    def link(*argv: str) -> net.LinkProfile | None:
        return link_from(parser().parse_args(["--net", "local", *argv]))

    assert link() is None
    settings = settings_from(parser().parse_args(["--net", "local"]))
    assert settings.link is None and settings.conditioner(0) is None
    assert link("--bad-link") == BAD_LINK
    assert link("--bad-link", "--loss", "0.5") == net.LinkProfile(0.01, 0.005, 0.5, 0.02, 0.05)
    assert link("--latency", "0.05") == net.LinkProfile(latency=0.05)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--loss", "2"], "argument --loss: a chance is from 0 to 1, got '2'"),
        (["--jitter", "soon"], "argument --jitter: expected a number, got 'soon'"),
        (["--connect", "host:port"], "argument --connect: expected HOST or HOST:PORT, got"),
        (["--connect", ":7777"], "argument --connect: expected HOST or HOST:PORT, got"),
        (["--frames", "0"], "argument --frames: needs a whole number of at least 1, got '0'"),
        (["--port", "70000"], "argument --port: a port is a number from 0 to 65535, got '70000'"),
    ],
)
def test_a_bad_network_option_is_refused_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        parser().parse_args(["--net", "client", *argv])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err.splitlines()[-1]


def test_a_network_match_refuses_more_enemies_than_a_state_message_carries(
    capsys: pytest.CaptureFixture[str],
) -> None:
    most = most_enemies()
    chart = load_chart()
    snapshots = Snapshots(chart, PLAYERS)
    fresh = len(snapshots.write(World(PLAYERS, most, chart=chart)))
    # Room is kept for the heroes' and the match's largest payloads (an attack, a respawn
    # time), all at once: a fresh world's snapshot is smaller, by a few enemies' bytes.
    assert net.MAX_STATE - 32 < fresh <= net.MAX_STATE
    # The whole match at the most, its heroes fighting, dodging and falling: every frame fits.
    settings = Settings(frames=300, enemies=most, tick=0.002, timeout=120)
    sources = [scripted(script(settings.seed + slot, settings.frames)) for slot in (0, 1)]
    report = asyncio.run(play_local(settings, sources))
    assert report.converged and max(report.snapshot_bytes) <= net.MAX_STATE

    with pytest.raises(SystemExit) as exited:
        game_main(["--net", "local", "--headless", "--enemies", str(most + 1)])

    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"python examples/game: error: --enemies {most + 1} is too many for a network match: "
        f"at most {most} fit in one state message"
    )


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("shot.txt", "--screenshot needs a .png file name, got 'shot.txt'"),
        ("missing/shot.png", "--screenshot: there is no folder 'missing'"),
        ("folder.png", "--screenshot: 'folder.png' is a folder"),
    ],
)
def test_a_screenshot_that_could_not_be_saved_is_refused_before_the_match(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    path: str,
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.png").mkdir()

    with pytest.raises(SystemExit) as exited:
        game_main(["--headless", "--frames", "1", "--screenshot", path])

    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"python examples/game: error: {message}"


@pytest.mark.parametrize("given", ["[::1", "[::1]9000", "[]:9000"])
def test_an_ipv6_address_needs_its_brackets_closed(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["--net", "client", "--connect", given])
    assert f"expected HOST or HOST:PORT, got {given!r}" in capsys.readouterr().err


def test_the_join_hint_of_an_ipv6_server_reads_back_as_its_address() -> None:
    hint = join_hint(("::1", 40993))
    written = hint.split("--connect ")[1].split(" ")[0]
    assert written == "[::1]:40993"
    assert parser().parse_args(["--connect", written]).connect == ("::1", 40993)


def test_a_server_address_reads_as_the_client_binds() -> None:
    parse = parser().parse_args
    assert parse(["--connect", "192.168.1.7"]).connect == ("192.168.1.7", 7777)
    assert parse(["--connect", "arena.lan:9000"]).connect == ("arena.lan", 9000)
    assert parse(["--connect", "[::1]:9000"]).connect == ("::1", 9000)
    assert local_address("127.0.0.1") == ("127.0.0.1", 0)
    assert local_address("192.168.1.7") == ("0.0.0.0", 0)  # the route to it picks the address
    assert local_address("fe80::1") == ("::", 0)


def test_a_server_on_the_host_it_is_given_and_two_clients_end_with_the_same_match() -> None:
    environment = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    game = [sys.executable, str(EXAMPLES / "game"), "--enemies", "20", "--frames", "240"]
    server = subprocess.Popen(
        [*game, "--net", "server", "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert first.startswith("serving Shrine Arena on 0.0.0.0:"), first
        port = first.split(":")[1].split()[0]
        assert server.stdout.readline().startswith("players join with: ")
        client = [*game, "--net", "client", "--headless", "--connect", f"127.0.0.1:{port}"]
        clients = [
            subprocess.Popen(client, stdout=subprocess.PIPE, text=True, env=environment)
            for _ in range(2)
        ]
        outputs = [process.communicate(timeout=120)[0].splitlines() for process in clients]
        said, _ = server.communicate(timeout=120)
    finally:
        server.kill()
    assert [process.returncode for process in (*clients, server)] == [0, 0, 0]
    assert outputs[0][0] == outputs[1][0] == "match: wave 1 of 5, score 0"
    assert sorted(lines[1].split(":")[0] for lines in outputs) == ["Hero1", "Hero2"]
    assert [lines[1].split(": ")[1][:25] for lines in outputs] == ["confirmed 240 of 240 fram"] * 2
    assert said.splitlines()[2].startswith("frame 240 (4.0 s): wave 1 of 5, score 0"), said


def test_escape_in_a_local_network_match_quits_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pygame
    from game import netcli
    from game.window import Window

    class EscapeAfterASecond(Window):
        shown = 0

        def show(self, scene: object) -> bool:
            self.shown += 1
            if self.shown == config.FPS:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
            return super().show(scene)  # type: ignore[arg-type]

    monkeypatch.setattr(netcli, "Window", EscapeAfterASecond)
    args = parser().parse_args(["--net", "local", "--enemies", "20"])
    assert netcli.run(args, display=True) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "match: wave 1 of 5 coming, score 0 (a player quit)"
    assert [line.split(":")[0] for line in lines[2:]] == ["player1", "player2"]
    assert not any("DIVERGED" in line or "converged" in line for line in lines)
