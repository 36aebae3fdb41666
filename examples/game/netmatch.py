"""Running networked matches: both players and the server in one process, or a server alone
and clients joining it from other processes or computers; the network's options."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from game import bot
from game.hero import HERO_CODEC
from game.inputs import IDLE, Input, script
from game.match import MatchView
from game.netplay import (
    BAD_LINK,
    PLAYERS,
    Host,
    InputSource,
    Player,
    Settings,
    join,
    open_host,
    scripted,
)
from game.snapshot import Body
from game.world import plural
from statetree import net

FrameHook = Callable[[Host | None, Sequence[Player]], bool]
"""Called once per tick (to draw, say); returning False ends the match (the player quit)."""
DEFAULT_PORT = 7777


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
    """A networked match: how it ended, each client, the snapshot sizes, the server's address.

    ``checked`` is False when a player quit before the end: the clients are then not
    compared with the server (they could not have caught up), and nothing diverged.
    """

    players: tuple[PlayerReport, ...]
    frames: int
    snapshot_bytes: tuple[int, ...]
    address: net.Address
    server_malformed: int
    headline: str
    checked: bool = True

    @property
    def converged(self) -> bool:
        return not self.checked or all(player.converged for player in self.players)

    def lines(self) -> list[str]:
        sizes = self.snapshot_bytes or (0,)
        lines = [
            f"server on {self.address[0]}: {self.frames} frames, snapshots of "
            f"{sum(sizes) / len(sizes):.0f} bytes on average ({min(sizes)} to {max(sizes)})",
            f"match: {self.headline}" + ("" if self.checked else " (a player quit)"),
        ]
        for player in self.players:
            verdict = ""
            if self.checked:
                verdict = ", converged" if player.converged else ", DIVERGED"
            counts = (player.confirmed, player.frames, player.mispredictions, player.resimulated)
            lines.append(f"{player.name}: {predicted(*counts)}{verdict}")
        return lines


class Pacer:
    """Ticks every ``tick`` seconds, however long the work between them takes (a tick late
    by more than a tick's length is not caught up: the next one is due a tick later)."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.due = -float("inf")

    async def wait(self) -> None:
        now = asyncio.get_running_loop().time()
        self.due = now + self.tick if self.due < now - self.tick else self.due + self.tick
        await asyncio.sleep(max(0.0, self.due - now))


async def play_local(
    settings: Settings, sources: Sequence[InputSource], on_tick: FrameHook | None = None
) -> Report:
    """A server and ``len(sources)`` players in this process.

    Without ``on_tick`` it ends once every player is done (the match over, or every frame
    confirmed), or after ``settings.timeout`` seconds (not converged). With it, the match
    goes on (drawn, its result shown) until ``on_tick`` returns False.
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
        finished = await _run(settings, host, players, on_tick)
        return _report(host, players, server, finished)
    finally:
        for player in players:
            if player.client is not None:
                player.client.close()
        server.close()


async def _run(
    settings: Settings, host: Host, players: Sequence[Player], on_tick: FrameHook | None
) -> bool:
    """Tick the server and the players; returns whether every player was done."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.timeout
    pacer = Pacer(settings.tick)
    while loop.time() < deadline:
        done = host.finished and all(player.done for player in players)
        if done and on_tick is None:
            return True
        host.broadcast()
        for player in players:
            player.tick()
        if on_tick is not None and not on_tick(host, players):
            return done
        await pacer.wait()
    return False


def _report(
    host: Host, players: Sequence[Player], server: net.StateServer[Input], finished: bool
) -> Report:
    truth = host.snapshots.of_world(host.world)
    reports = []
    for player in players:
        rollback = player.rollback
        assert player.client is not None
        reports.append(
            PlayerReport(
                player.name,
                rollback.frame if rollback else 0,
                rollback.confirmed_frame if rollback else 0,
                rollback.stats.mispredictions if rollback else 0,
                rollback.stats.resimulated if rollback else 0,
                player.view == truth and _same_hero(host, player),
                player.client.endpoint.stats.malformed,
            )
        )
    return Report(
        tuple(reports),
        host.world.frame,
        tuple(host.sizes),
        server.endpoint.address,
        server.endpoint.stats.malformed,
        headline(host.world.match.view()),
        finished,
    )


def predicted(confirmed: int, frames: int, mispredictions: int, resimulated: int) -> str:
    """How a client's prediction did, in words."""
    return (
        f"confirmed {confirmed} of {frames} frames, {plural(mispredictions, 'misprediction')}, "
        f"{plural(resimulated, 'frame')} re-simulated"
    )


def headline(match: MatchView) -> str:
    """The match's headline and score, as the network's reports print it."""
    return f"{match.headline()}, score {match.score}"


def _same_hero(host: Host, player: Player) -> bool:
    """The player's hero is the server's: as predicted, or as mirrored once it is over."""
    hero = player.mirrors.get(player.slot) if player.over else player.hero
    if hero is None:
        return False
    server = host.world.heroes[player.slot]
    mine = (HERO_CODEC.capture(hero.machine), Body.of(hero))
    return mine == (HERO_CODEC.capture(server.machine), Body.of(server))


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
    group = options.add_argument_group("network (two players)")
    group.add_argument(
        "--net",
        choices=("local", "server", "client"),
        help="local: a server and both players in this process; server: host a match; "
        "client: join one (--connect)",
    )
    group.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address a server listens on (default 127.0.0.1, this computer only; "
        "0.0.0.0 for players on other computers)",
    )
    group.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"a server's port ({DEFAULT_PORT})",
    )
    group.add_argument(
        "--connect",
        type=server_address,
        default=("127.0.0.1", DEFAULT_PORT),
        metavar="HOST[:PORT]",
        help=f"the server a client joins (default 127.0.0.1:{DEFAULT_PORT})",
    )
    group.add_argument(
        "--bad-link",
        action="store_true",
        help="simulate a poor connection: "
        + ", ".join(f"{name} {getattr(BAD_LINK, name):g}" for name in _LINK_OPTIONS),
    )
    for name in _LINK_OPTIONS:
        unit = "seconds" if name in ("latency", "jitter") else "a chance from 0 to 1"
        group.add_argument(
            f"--{name}",
            type=_seconds if name in ("latency", "jitter") else _chance,
            help=f"simulated link: {name} ({unit}; off unless given)",
        )
    group.add_argument("--seed", type=int, default=Settings.seed, help="seed of the links")


_LINK_OPTIONS = ("loss", "latency", "jitter", "duplicate", "reorder")


def network_options_given(args: argparse.Namespace) -> list[str]:
    """The network options of ``args`` given other values than their defaults (they mean
    something with ``--net`` only)."""
    given = [
        ("--host", args.host != "127.0.0.1"),
        ("--port", args.port != DEFAULT_PORT),
        ("--connect", args.connect != ("127.0.0.1", DEFAULT_PORT)),
        ("--bad-link", args.bad_link),
        *((f"--{name}", getattr(args, name) is not None) for name in _LINK_OPTIONS),
        ("--seed", args.seed != Settings.seed),
    ]
    return [flag for flag, differs in given if differs]


def server_address(text: str) -> net.Address:
    """``HOST``, ``HOST:PORT`` or ``[IPv6]:PORT`` as an address."""
    host, port = text, str(DEFAULT_PORT)
    if text.startswith("["):
        host, closed, rest = text[1:].partition("]")
        if not closed or (rest and not rest.startswith(":")):
            host = ""  # "[::1" or "[::1]9000": refused below
        port = rest.removeprefix(":") or port
    elif text.count(":") == 1:
        host, port = text.split(":")
    if not host or not port.isdigit() or not 0 < int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST or HOST:PORT, got {text!r}")
    return (host, int(port))


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, got {text!r}")
    return int(text)


def _chance(text: str) -> float:
    value = _number(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a chance is from 0 to 1, got {text!r}")
    return value


def _seconds(text: str) -> float:
    value = _number(text)
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"a delay is from 0 to 10 seconds, got {text!r}")
    return value


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def link_from(args: argparse.Namespace) -> net.LinkProfile | None:
    """The simulated link the options ask for: none unless ``--bad-link`` or one of its
    parts is given (a part given overrides ``--bad-link``'s)."""
    given = {name: getattr(args, name) for name in _LINK_OPTIONS if getattr(args, name) is not None}
    if not args.bad_link and not given:
        return None
    return replace(BAD_LINK if args.bad_link else net.LinkProfile(), **given)


def settings_from(args: argparse.Namespace) -> Settings:
    return replace(
        Settings(),
        frames=args.frames or Settings.frames,
        enemies=args.enemies,
        link=link_from(args),
        seed=args.seed,
        host=args.host,
        port=args.port if args.net == "server" else 0,
    )


def run_headless(settings: Settings) -> Report:
    """Both players scripted, seeded inputs, as the tests play it."""
    sources = [scripted(script(settings.seed + slot, settings.frames)) for slot in range(PLAYERS)]
    return asyncio.run(play_local(settings, sources))
