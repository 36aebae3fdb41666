"""Running networked matches: both players and the server in one process, on 127.0.0.1, or
a server alone and clients joining it from other processes."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from game import bot
from game.hero import HERO_CODEC
from game.inputs import IDLE, Input, script
from game.netplay import PLAYERS, Host, InputSource, Player, Settings, join, open_host, scripted
from game.snapshot import Body
from statetree import net

FrameHook = Callable[[Host | None, Sequence[Player]], bool]
"""Called once per tick (to draw, say); returning False ends the match."""


@dataclass(frozen=True)
class PlayerReport:
    """How one client did, compared with the server."""

    name: str
    frames: int
    confirmed: int
    mispredictions: int
    resimulated: int
    converged: bool
    malformed: int


@dataclass(frozen=True)
class Report:
    """A networked match: each client, the snapshot sizes, the server's address."""

    players: tuple[PlayerReport, ...]
    frames: int
    snapshot_bytes: tuple[int, ...]
    address: net.Address
    server_malformed: int

    @property
    def converged(self) -> bool:
        return all(player.converged for player in self.players)

    def lines(self) -> list[str]:
        sizes = self.snapshot_bytes or (0,)
        lines = [
            f"server on {self.address[0]}: {self.frames} frames, snapshots of "
            f"{sum(sizes) / len(sizes):.0f} bytes on average ({min(sizes)} to {max(sizes)})",
        ]
        for player in self.players:
            lines.append(
                f"{player.name}: confirmed {player.confirmed} of {player.frames} frames, "
                f"{player.mispredictions} mispredictions, {player.resimulated} frames "
                f"re-simulated, {'converged' if player.converged else 'DIVERGED'}"
            )
        return lines


async def play_local(
    settings: Settings, sources: Sequence[InputSource], on_tick: FrameHook | None = None
) -> Report:
    """A server and ``len(sources)`` players in this process, until every frame is confirmed.

    Ends early (not converged) after ``settings.timeout`` seconds, or when ``on_tick``
    returns False.
    """
    host = Host(settings)
    server = await open_host(settings, host)
    players = [
        Player(f"player{i}", source, host.snapshots, settings.frames)
        for i, source in enumerate(sources, 1)
    ]
    try:
        for salt, player in enumerate(players, 1):  # one after the other: slots in order
            await join(settings, player, server.endpoint.address, salt)
        await _run(settings, host, players, on_tick)
        return _report(host, players, server)
    finally:
        for player in players:
            if player.client is not None:
                player.client.close()
        server.close()


async def _run(
    settings: Settings, host: Host, players: Sequence[Player], on_tick: FrameHook | None
) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.timeout
    while loop.time() < deadline:
        if host.world.frame == settings.frames and all(player.done for player in players):
            return
        host.broadcast()
        for player in players:
            player.tick()
        if on_tick is not None and not on_tick(host, players):
            return
        await asyncio.sleep(settings.tick)


def _report(host: Host, players: Sequence[Player], server: net.StateServer[Input]) -> Report:
    truth = host.snapshots.of_world(host.world)
    reports = []
    for player in players:
        rollback, hero = player.rollback, player.hero
        assert player.client is not None
        converged = (
            rollback is not None
            and hero is not None
            and player.view == truth
            and (HERO_CODEC.capture(hero.machine), Body.of(hero)) == _server_side(host, player)
        )
        reports.append(
            PlayerReport(
                player.name,
                settings_frames(player),
                rollback.confirmed_frame if rollback else 0,
                rollback.stats.mispredictions if rollback else 0,
                rollback.stats.resimulated if rollback else 0,
                converged,
                player.client.endpoint.stats.malformed,
            )
        )
    address = server.endpoint.address
    return Report(
        tuple(reports),
        host.world.frame,
        tuple(host.sizes),
        address,
        server.endpoint.stats.malformed,
    )


def settings_frames(player: Player) -> int:
    return player.rollback.frame if player.rollback else 0


def _server_side(host: Host, player: Player) -> tuple[net.Configuration, Body]:
    hero = host.world.heroes[player.slot]
    return HERO_CODEC.capture(hero.machine), Body.of(hero)


def bot_source() -> InputSource:
    """A player played by the bot, from what its client sees."""

    def decide(player: Player) -> Input:
        if player.hero is None or player.view is None:
            return IDLE
        return bot.decide(player.hero, player.view.enemies)

    return decide


# -- the command line -----------------------------------------------------------------------


def add_options(options: argparse.ArgumentParser) -> None:
    """The network options of ``python examples/game``."""
    group = options.add_argument_group("network (two players on 127.0.0.1)")
    group.add_argument(
        "--net",
        choices=("local", "server", "client"),
        help="local: a server and both players in this process; server: host a match; "
        "client: join one (--connect)",
    )
    group.add_argument("--connect", default="127.0.0.1:7777", help="the server's HOST:PORT")
    group.add_argument("--port", type=int, default=7777, help="the port a server listens on")
    defaults = Settings()
    for name in ("loss", "latency", "jitter", "duplicate", "reorder"):
        group.add_argument(
            f"--{name}",
            type=float,
            default=getattr(defaults, name),
            help=f"link conditioner: {name} (default {getattr(defaults, name)})",
        )
    group.add_argument("--seed", type=int, default=defaults.seed, help="seed of the links")


def settings_from(args: argparse.Namespace) -> Settings:
    return replace(
        Settings(),
        frames=args.frames,
        enemies=args.enemies if args.enemies != 300 else Settings.enemies,
        loss=args.loss,
        latency=args.latency,
        jitter=args.jitter,
        duplicate=args.duplicate,
        reorder=args.reorder,
        seed=args.seed,
        port=args.port if args.net == "server" else 0,
    )


def run_headless(settings: Settings) -> Report:
    """Both players scripted, seeded inputs, as the tests play it."""
    sources = [scripted(script(settings.seed + slot, settings.frames)) for slot in range(PLAYERS)]
    return asyncio.run(play_local(settings, sources))
