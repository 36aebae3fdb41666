"""The command line: a window to play in, a scripted headless match, or a network match.

``python examples/game`` opens a window when a display exists; ``--headless`` plays a
scripted match for ``--frames`` frames and prints a summary; ``--net`` plays two players
over the network on 127.0.0.1 (see :mod:`game.netcli`). ``--inspect`` serves the live
inspector on the game's machines. While the game runs, saving ``enemy.yaml`` reloads it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import statetree as st
from game import bot, config
from game.config import HELP
from game.netmatch import add_options
from game.reload import ChartReloader
from game.world import Summary, World

if TYPE_CHECKING:
    from statetree.inspect import Inspector


def parser() -> argparse.ArgumentParser:
    options = argparse.ArgumentParser(
        prog="python examples/game", description="Shrine Arena, a statetree game."
    )
    options.add_argument("--headless", action="store_true", help="play a scripted match")
    options.add_argument("--frames", type=int, default=900, help="frames of a scripted match")
    options.add_argument("--enemies", type=int, default=300, help="how many enemies")
    options.add_argument(
        "--players", type=int, choices=(1, 2), default=1, help="heroes (the second plays itself)"
    )
    options.add_argument(
        "--brains",
        choices=("batch", "machines"),
        default="batch",
        help="run the enemy chart as one ChartBatch, or as a ChartMachine per enemy",
    )
    options.add_argument(
        "--autoplay", action="store_true", help="the hero plays itself until a key is pressed"
    )
    options.add_argument("--trace", action="store_true", help="print the hero's transitions")
    options.add_argument("--inspect", action="store_true", help="serve the live inspector")
    options.add_argument("--screenshot", type=Path, help="save the last frame as a PNG")
    add_options(options)
    return options


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.net:
        from game.netcli import run

        return run(args, has_display() and not args.headless)
    world = World(
        args.players,
        args.enemies,
        brains=args.brains,
        trace=st.TraceLevel.BASIC if args.trace else st.TraceLevel.NONE,
        trace_sink=print,
    )
    inspector = _inspector(world) if args.inspect else None
    try:
        if args.headless or not has_display():
            summary = play_headless(world, args.frames, inspector)
            print("\n".join(summary.lines()))
            if args.screenshot:
                _save(world, args.screenshot)
        else:
            play_window(world, args.autoplay, inspector, args.screenshot)
    finally:
        if inspector is not None:
            inspector.stop()
    return 0


def has_display() -> bool:
    """Whether a window can be opened (a desktop, or an X or Wayland display)."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def play_headless(world: World, frames: int, inspector: Inspector | None = None) -> Summary:
    """The scripted match: the bot plays every hero for ``frames`` frames."""
    end = world.frame + frames
    while world.frame < end:
        if inspector is None or inspector.frame():  # False while the page pauses the game
            world.step([bot.decide(hero, world.crowd) for hero in world.heroes])
    return world.summary()


def play_window(
    world: World, autoplay: bool, inspector: Inspector | None, screenshot: Path | None
) -> None:
    """The game in a window, at a fixed 60 simulated frames per second."""
    import pygame

    from game.scene import scene_of
    from game.window import Window

    window = Window("Shrine Arena (statetree)")
    window.autoplay = autoplay
    reloader = ChartReloader(world.crowd)
    notes: tuple[str, ...] = (HELP,)
    clock = pygame.time.Clock()
    while window.open:
        if inspector is None or inspector.frame():
            played = [bot.decide(hero, world.crowd) for hero in world.heroes]
            world.step([window.pressed(played[0]), *played[1:]])
            said = reloader.poll(world.frame)
            if said:
                print(said)
                notes = (HELP, said)
        window.show(scene_of(world, notes))
        clock.tick(config.FPS)
    if screenshot:
        window.save(str(screenshot))
    window.close()


def _save(world: World, path: Path) -> None:
    from game.render import save_frame
    from game.scene import scene_of

    print(f"saved {save_frame(scene_of(world, (HELP,)), path)}")


def _inspector(world: World) -> Inspector:
    from game.inspecting import serve_world

    return serve_world(world)
