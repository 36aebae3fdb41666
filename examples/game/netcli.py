"""``python examples/game --net ...``: networked matches from the command line.

``--net local`` runs the server and both players in this process (player 1 at the keyboard,
player 2 played by the bot; with ``--headless``, both scripted, and a report). ``--net
server`` hosts a match on ``--port``; ``--net client --connect HOST:PORT`` joins one.
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace

from game import config
from game.enemies import load_chart
from game.netmatch import Report, bot_source, play_local, run_headless, settings_from
from game.netplay import PLAYERS, Host, InputSource, Player, Settings, join, open_host
from game.snapshot import Snapshots
from game.window import Window
from statetree import net


def run(args: argparse.Namespace, display: bool) -> int:
    """Run the networked mode the options ask for; the exit status is 1 if a client diverged."""
    settings = settings_from(args)
    if args.net == "server":
        return asyncio.run(serve(settings))
    if args.net == "client":
        host, port = args.connect.rsplit(":", 1)
        return asyncio.run(client(settings, (host, int(port)), display, args.autoplay))
    if args.headless or not display:
        report = run_headless(settings)
    else:
        report = asyncio.run(local_window(settings, args.autoplay))
    print("\n".join(report.lines()))
    return 0 if report.converged else 1


async def local_window(settings: Settings, autoplay: bool) -> Report:
    """Player 1 at the keyboard in a window, player 2 played by the bot."""
    window = Window("Shrine Arena: two players over 127.0.0.1")
    keys = window.source(autoplay)
    unbounded = replace(settings, frames=10**9, timeout=float("inf"), tick=1 / config.FPS)
    try:
        return await play_local(unbounded, [keys, bot_source()], window.drawer(0))
    finally:
        window.close()


async def serve(settings: Settings) -> int:
    """Host a match until both players played every frame (or Ctrl-C)."""
    host = Host(settings)
    server = await open_host(settings, host)
    address = server.endpoint.address
    print(f"serving Shrine Arena on {address[0]}:{address[1]} for {PLAYERS} players")
    try:
        while host.world.frame < settings.frames:
            host.broadcast()
            await asyncio.sleep(settings.tick)
        for _ in range(50):  # the last snapshot, repeated for lossy links
            host.broadcast()
            await asyncio.sleep(settings.tick)
    finally:
        server.close()
    print("\n".join(host.world.summary().lines()))
    return 0


async def client(settings: Settings, server: net.Address, display: bool, autoplay: bool) -> int:
    """Join a server: in a window at the keyboard, or played by the bot without one."""
    snapshots = Snapshots(load_chart(), PLAYERS, settings.enemies)
    window = Window("Shrine Arena: client") if display else None
    source: InputSource = window.source(autoplay) if window else bot_source()
    player = Player("player", source, snapshots, settings.frames)
    await join(settings, player, server, 1)
    draw = window.drawer(0) if window is not None else None
    tick = 1 / config.FPS if window is not None else settings.tick
    try:
        while not player.done:
            player.tick()
            if draw is not None and not draw(None, [player]):
                break
            await asyncio.sleep(tick)
    finally:
        if player.client is not None:
            player.client.close()
        if window is not None:
            window.close()
    rollback = player.rollback
    if rollback is None:
        print("the server sent nothing")
        return 1
    stats = rollback.stats
    print(
        f"Hero{player.slot + 1}: confirmed {rollback.confirmed_frame} of {rollback.frame} "
        f"frames, {stats.mispredictions} mispredictions, {stats.resimulated} frames re-simulated"
    )
    return 0
