"""The command line: a window to play in, a scripted headless match, or a network match.

``python examples/game`` opens a window when a display exists; ``--headless`` lets the bot
play a whole match (or ``--frames`` frames of it) and prints a summary; ``--net`` plays two
players over the network (see :mod:`game.netcli`). ``--inspect`` serves the live inspector
on the game's machines. While the game runs, saving ``enemy.yaml`` reloads it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import statetree as st
from game import bot, config
from game.netmatch import add_options
from game.reload import ChartReloader
from game.world import Summary, World

if TYPE_CHECKING:
    from statetree.inspect import Inspector

MAX_FRAMES = 10 * 60 * config.FPS
"""A headless match stops after ten minutes of play, over or not."""
AUTOPLAY_RESTART = 6 * config.FPS
"""With ``--autoplay``, a match that is over starts again after this many frames."""


def parser() -> argparse.ArgumentParser:
    options = argparse.ArgumentParser(
        prog="python examples/game", description="Shrine Arena, a statetree game."
    )
    options.add_argument(
        "--headless", action="store_true", help="no window: the bot plays, then a summary"
    )
    options.add_argument(
        "--frames", type=_positive, help="stop after this many frames (default: the whole match)"
    )
    options.add_argument(
        "--enemies",
        type=_positive,
        default=config.ENEMIES,
        help=f"how many enemies the last wave brings (default {config.ENEMIES})",
    )
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
    options.add_argument(
        "--trace", action="store_true", help="print the transitions of the heroes and the match"
    )
    options.add_argument("--inspect", action="store_true", help="serve the live inspector")
    options.add_argument("--screenshot", type=Path, help="save the last frame as a PNG")
    add_options(options)
    return options


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"needs a whole number of at least 1, got {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.net:
        from game.netcli import run

        return run(args, has_display() and not args.headless)

    def new_world() -> World:
        return World(
            args.players,
            args.enemies,
            brains=args.brains,
            trace=st.TraceLevel.BASIC if args.trace else st.TraceLevel.NONE,
            trace_sink=print,
        )

    if args.headless or not has_display():
        world = new_world()
        inspector = _inspector(world) if args.inspect else None
        try:
            summary = play_headless(world, args.frames or MAX_FRAMES, inspector)
        finally:
            if inspector is not None:
                inspector.stop()
        print("\n".join(summary.lines()))
        if args.screenshot:
            _save(world, args.screenshot)
        return 0
    play_window(Session(new_world), args.autoplay, args.inspect, args.screenshot)
    return 0


def has_display() -> bool:
    """Whether a window can be opened (a desktop, or an X or Wayland display)."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def play_headless(world: World, frames: int, inspector: Inspector | None = None) -> Summary:
    """The scripted match: the bot plays every hero until the match is over, or for
    ``frames`` frames."""
    end = world.frame + frames
    while world.frame < end and not world.over:
        if inspector is None or inspector.frame():  # False while the page pauses the game
            world.step([bot.decide(hero, world.crowd) for hero in world.heroes])
    return world.summary()


class Session:
    """Matches played one after another in a window: the one on now, and the best score.

    Args:
        new_world: makes the world of a new match.
    """

    def __init__(self, new_world: Callable[[], World]) -> None:
        self.new_world = new_world
        self.world = new_world()
        self.best = 0
        self.shown = 0
        """Frames the result of the match has been on the screen."""

    def restart(self) -> World:
        """Keep the score if it is the best, and start a new match."""
        self.best = max(self.best, self.world.match.score)
        self.world = self.new_world()
        self.shown = 0
        return self.world


def play_window(session: Session, autoplay: bool, inspect: bool, screenshot: Path | None) -> None:
    """The game in a window, at a fixed 60 simulated frames per second. Once a match is
    over its result stays on the screen until R starts another (or, with ``autoplay``, a
    few seconds pass) or Escape quits."""
    import pygame

    from game.scene import scene_of
    from game.window import Window

    window = Window("Shrine Arena (statetree)")
    window.autoplay = autoplay
    inspector = _inspector(session.world) if inspect else None
    reloader = ChartReloader(session.world.crowd)
    notes: tuple[str, ...] = ()
    clock = pygame.time.Clock()
    try:
        while window.open:
            world = session.world
            if world.over:
                session.shown += 1
                again = window.autoplay and session.shown >= AUTOPLAY_RESTART
                if window.take_restart() or again:
                    world = session.restart()
                    reloader = ChartReloader(world.crowd)
                    if inspector is not None:
                        _watch(inspector, world)
            elif inspector is None or inspector.frame():
                played = [bot.decide(hero, world.crowd) for hero in world.heroes]
                world.step([window.pressed(played[0]), *played[1:]])
                said = reloader.poll(world.frame)
                if said:
                    print(said)
                    notes = (said,)
            window.show(scene_of(world, notes, session.best))
            clock.tick(config.FPS)
        if screenshot:
            window.save(str(screenshot))
    finally:
        window.close()
        if inspector is not None:
            inspector.stop()


def _save(world: World, path: Path) -> None:
    from game.render import save_frame
    from game.scene import scene_of

    print(f"saved {save_frame(scene_of(world), path)}")


def _inspector(world: World) -> Inspector:
    from game.inspecting import serve_world

    return serve_world(world)


def _watch(inspector: Inspector, world: World) -> None:
    from game.inspecting import watched

    for machine in watched(world):
        inspector.add(machine)
