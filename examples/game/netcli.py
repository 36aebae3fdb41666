"""``python examples/game --net ...``: networked matches from the command line.

``--net local`` runs the server and both players in this process (player 1 at the keyboard,
player 2 played by the bot; with ``--headless``, both scripted, and a report). ``--net
server --host ADDRESS`` hosts a match; ``--net client --connect HOST:PORT`` joins one, from
this computer or another. A match ends with its result on every screen; Escape quits.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
from dataclasses import replace

from game import config
from game.enemies import load_chart
from game.netmatch import (
    Pacer,
    Report,
    bot_source,
    headline,
    play_local,
    predicted,
    run_headless,
    settings_from,
)
from game.netplay import (
    PLAYERS,
    Host,
    InputSource,
    Player,
    Settings,
    join,
    open_host,
    show,
)
from game.snapshot import Snapshots
from game.window import Window
from game.world import World
from statetree import net

UNBOUNDED = 10**9
"""The frames of a match played to its end."""
LINGER = 5.0
"""Seconds a server goes on sending the result, so that every screen gets it."""
SILENCE = 5.0
"""Seconds without a snapshot after which a client without a window gives up."""


def run(args: argparse.Namespace, display: bool) -> int:
    """Run the networked mode the options ask for; the exit status is 1 if a client
    diverged, or the server could not be opened or reached."""
    settings = settings_from(args)
    try:
        if args.net == "server":
            return asyncio.run(serve(replace(settings, frames=args.frames or UNBOUNDED)))
        if args.net == "client":
            unbounded = replace(settings, frames=args.frames or UNBOUNDED)
            return asyncio.run(client(unbounded, args.connect, display, args.autoplay))
        if args.headless or not display:
            report = run_headless(settings)
        else:
            report = asyncio.run(local_window(settings, args.autoplay))
    except net.HandshakeError as error:
        print(f"could not join {error.peer}: {error.reason}", file=sys.stderr)
        return 1
    except OSError as error:  # an address that cannot be bound or reached
        where = f"{settings.host}:{settings.port}" if args.net == "server" else args.connect[0]
        print(f"network error at {where}: {error.strerror or error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    print("\n".join(report.lines()))
    return 0 if report.converged else 1


def most_enemies() -> int:
    """The most enemies a networked match's snapshots carry (one state message each)."""
    chart = load_chart()
    return Snapshots(chart, PLAYERS).most_enemies(World(PLAYERS, 1, chart=chart))


async def local_window(settings: Settings, autoplay: bool) -> Report:
    """Player 1 at the keyboard in a window, player 2 played by the bot, until Escape."""
    window = Window("Shrine Arena: two players over the network")
    keys = window.source(autoplay)
    unbounded = replace(settings, frames=UNBOUNDED, timeout=float("inf"), tick=1 / config.FPS)
    try:
        return await play_local(unbounded, [keys, bot_source()], window.drawer(0))
    finally:
        window.close()


async def serve(settings: Settings) -> int:
    """Host a match until it is over (or ``settings.frames`` are played, or Ctrl-C), then
    send its result for a few seconds more."""
    host = Host(settings)
    host.announce = print
    server = await open_host(settings, host)
    address = server.endpoint.address
    print(f"serving Shrine Arena on {show(address)} for {PLAYERS} players")
    print(join_hint(address))
    loop = asyncio.get_running_loop()
    pacer = Pacer(settings.tick)
    try:
        while not host.finished:
            host.broadcast()
            await pacer.wait()
        end = loop.time() + LINGER
        while loop.time() < end and server.clients:
            host.broadcast()
            await pacer.wait()
    finally:
        server.close()
        print("\n".join(host.world.summary().lines()))
    return 0


def join_hint(address: net.Address) -> str:
    """How players join a server listening on ``address``."""
    host, port = address
    command = "python examples/game --net client --connect"
    if host in ("0.0.0.0", "::"):
        return f"players join with: {command} {lan_address() or 'THIS-COMPUTER'}:{port}"
    if host.startswith("127.") or host in ("::1", "localhost"):
        return (
            f"players on this computer join with: {command} {show((host, port))} "
            "(--host 0.0.0.0 lets other computers join)"
        )
    return f"players join with: {command} {show((host, port))}"


def lan_address() -> str | None:
    """This computer's address on its local network, if it has one (no datagram is sent:
    connecting a UDP socket only picks the route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: never reached
            found: str = probe.getsockname()[0]
    except OSError:
        return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found


async def client(settings: Settings, server: net.Address, display: bool, autoplay: bool) -> int:
    """Join a server: in a window at the keyboard (until Escape), or played by the bot
    without one (until the match is over)."""
    snapshots = Snapshots(load_chart(), PLAYERS)
    window = Window(f"Shrine Arena: joined {show(server)}") if display else None
    source: InputSource = window.source(autoplay) if window else bot_source()
    player = Player("player", source, snapshots, settings.frames)
    try:
        if window is not None:
            window.waiting(f"joining {show(server)}...")
        await join(settings, player, server, 1)
        if window is not None:
            await _play_in(window, player)
        elif not await _play_headless(player):
            print(f"the server at {show(server)} went silent", file=sys.stderr)
            return 1
    finally:
        if player.client is not None:
            player.client.close()
        if window is not None:
            window.close()
    print("\n".join(client_lines(player)))
    return 0


async def _play_in(window: Window, player: Player) -> None:
    draw, pacer = window.drawer(0), Pacer(1 / config.FPS)
    while draw(None, [player]):
        player.tick()
        await pacer.wait()


async def _play_headless(player: Player) -> bool:
    """Play until done, at a window's pace (a fair partner for a player at the keyboard);
    False if the server went silent for ``SILENCE`` seconds."""
    loop = asyncio.get_running_loop()
    heard, frame = loop.time(), -1
    pacer = Pacer(1 / config.FPS)
    while not player.done:
        player.tick()
        if player.view is not None and player.view.frame != frame:
            heard, frame = loop.time(), player.view.frame
        if loop.time() - heard > SILENCE:
            return False
        await pacer.wait()
    return True


def client_lines(player: Player) -> list[str]:
    """What a client prints as it ends: the match, and how its prediction did."""
    rollback, match = player.rollback, player.match
    if rollback is None or match is None:
        return ["the server sent nothing"]
    stats = rollback.stats
    counts = (rollback.confirmed_frame, rollback.frame, stats.mispredictions, stats.resimulated)
    return [f"match: {headline(match.view())}", f"Hero{player.slot + 1}: {predicted(*counts)}"]
