"""The command line: a window to play in, a scripted headless match, or a network match.

``python examples/game`` opens a window when a display exists; ``--headless`` (or a display
that SDL cannot open, which it says in one line) lets the bot play a whole match (or
``--frames`` frames of it) and prints a summary; ``--net`` plays two players over the network
(see :mod:`game.netcli`). ``--inspect`` serves the live inspector on the game's machines (a
port already taken is one line and exit status 1). While the game runs, saving
``enemy.yaml`` reloads it, F5 saves the match (every machine in it, with ``st.write_save``)
and F9 goes back to that save. Ctrl-C ends the game quietly (exit status 130).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import statetree as st
from game import bot, config
from game.enemies import load_chart
from game.netmatch import add_options, network_options_given
from game.reload import ChartReloader
from game.world import Summary, World
from statetree.chart import ChartError, CompiledChart

if TYPE_CHECKING:
    from game.window import Window
    from statetree.inspect import Inspector

MAX_FRAMES = 10 * 60 * config.FPS
"""A headless match stops after ten minutes of play, over or not."""
AUTOPLAY_RESTART = 6 * config.FPS
"""With ``--autoplay``, a match that is over starts again after this many frames."""
SAVE_FILE = Path("shrine-arena.save")
"""Where F5 saves the match (``--save-file`` chooses another file)."""
PROG = "python examples/game"
"""The program's name in its messages."""
DISPLAYS = ("DISPLAY", "WAYLAND_DISPLAY")
"""The environment variables that name a display."""


def parser() -> argparse.ArgumentParser:
    options = argparse.ArgumentParser(prog=PROG, description="Shrine Arena, a statetree game.")
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
    options.add_argument(
        "--save-file",
        type=Path,
        default=SAVE_FILE,
        help=f"where F5 saves the match and F9 loads it from (default {SAVE_FILE})",
    )
    add_options(options)
    return options


def _check_screenshot(options: argparse.ArgumentParser, path: Path) -> None:
    """Refuse a screenshot path that could not be written, before the match is played."""
    if path.suffix.lower() != ".png":
        options.error(f"--screenshot needs a .png file name, got {str(path)!r}")
    if not path.parent.is_dir():
        options.error(f"--screenshot: there is no folder {str(path.parent)!r}")
    if path.is_dir():
        options.error(f"--screenshot: {str(path)!r} is a folder")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"needs a whole number of at least 1, got {text!r}")
    return value


def _refuse_mixed(options: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse options of one kind of match given to the other (a usage error)."""
    if args.net:
        unused = [
            flag
            for flag, given in (
                ("--players", args.players != 1),
                ("--brains", args.brains != "batch"),
                ("--trace", args.trace),
                ("--inspect", args.inspect),
                ("--screenshot", args.screenshot is not None),
                ("--save-file", args.save_file != SAVE_FILE),
            )
            if given
        ]
        if unused:
            options.error(
                f"--net does not take {', '.join(unused)}: a network match is two players, "
                "each on a screen of their own"
            )
    networked = network_options_given(args)
    if networked and not args.net:
        options.error(
            f"{', '.join(networked)} {'is' if len(networked) == 1 else 'are'} for network "
            "matches: add --net local, --net server or --net client"
        )


def main(argv: Sequence[str] | None = None) -> int:
    options = parser()
    args = options.parse_args(argv)
    _refuse_mixed(options, args)
    if args.screenshot is not None:
        _check_screenshot(options, args.screenshot)
    if args.net:
        from game.netcli import most_enemies, run

        most = most_enemies()
        if args.enemies > most:
            options.error(
                f"--enemies {args.enemies} is too many for a network match: at most {most} "
                "fit in one state message"
            )
        return run(args, not args.headless and args.net != "server" and _window_opens())

    def new_world(chart: CompiledChart | None) -> World:
        return World(
            args.players,
            args.enemies,
            brains=args.brains,
            chart=chart,
            trace=st.TraceLevel.BASIC if args.trace else st.TraceLevel.NONE,
            trace_sink=print,
        )

    try:
        chart = load_chart()
    except ChartError as error:  # a typo in enemy.yaml: said in its own words, no traceback
        options.exit(1, f"{PROG}: error: {error}\n")
    if args.headless or not has_display():
        return _match(args, new_world(chart))
    from game.window import NoWindow

    session = Session(new_world, args.save_file, chart)
    try:
        play_window(session, args.autoplay, args.inspect, args.screenshot, args.frames)
    except NoWindow as error:  # DISPLAY names a display that is not there, say
        _no_window(error, "plays a scripted match")
        return _match(args, new_world(chart))
    return 0


def _window_opens() -> bool:
    """Whether a window can be opened here; if the display the environment names cannot
    be, say so in one line."""
    from game.window import NoWindow, check_display

    if not has_display():
        return False
    try:
        check_display()
    except NoWindow as error:
        _no_window(error, "plays")
        return False
    return True


def _no_window(error: Exception, bot: str) -> None:
    """Say in one line that no window opens, and that the bot ``bot`` instead."""
    print(f"No window ({_displays()}): {error}; the bot {bot} instead.", flush=True)


def _match(args: argparse.Namespace, world: World) -> int:
    """The scripted match of ``--headless``, its summary printed."""
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


def has_display() -> bool:
    """Whether a window can be opened (a desktop, or an X or Wayland display), as far as the
    environment says: a display it names may still be out of reach (then opening the
    window raises :class:`game.window.NoWindow`)."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _displays() -> str:
    """The displays the environment names, as ``DISPLAY=:0``."""
    named = [f"{name}={os.environ[name]}" for name in DISPLAYS if os.environ.get(name)]
    return ", ".join(named) or "no display named"


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
        new_world: makes the world of a new match, its enemies running the chart given
            (``None``: ``enemy.yaml`` as it is now).
        save_file: where a quick save goes.
        chart: the enemy chart of the first match (``None``: ``enemy.yaml``).
    """

    def __init__(
        self,
        new_world: Callable[[CompiledChart | None], World],
        save_file: Path = SAVE_FILE,
        chart: CompiledChart | None = None,
    ) -> None:
        self.new_world = new_world
        self.world = new_world(chart)
        self.best = 0
        self.shown = 0
        """Frames the result of the match has been on the screen."""
        self.save_file = save_file

    def restart(self) -> str:
        """Keep the score if it is the best, and start a new match, its enemies running
        ``enemy.yaml`` as it is now, or the chart they ran if the file does not load.

        Returns:
            What happened, for the screen (nothing when all went well).
        """
        self.best = max(self.best, self.world.match.score)
        self.shown = 0
        try:
            chart, said = load_chart(), ""
        except ChartError as error:
            chart = self.world.crowd.chart
            said = f"enemy chart not loaded, the new match keeps the last: {error.problems[0]}"
        self.world = self.new_world(chart)
        return said

    def quick_save(self) -> str:
        """Save the match as it is now, every machine in it, with the best score (F5).

        Returns:
            What happened, for the screen.
        """
        try:
            st.write_save(self.save_file, Saved(self.world, self.best))
        except (st.SaveError, OSError) as error:
            return f"not saved: {error}"
        return f"saved frame {self.world.frame} to {self.save_file} (F9 goes back to it)"

    def quick_load(self) -> str:
        """Go back to the match of the last quick save (F9): it goes on from there as it
        would have then.

        Returns:
            What happened, for the screen.
        """
        try:
            saved = st.read_save(self.save_file)
        except FileNotFoundError:
            return f"nothing saved in {self.save_file} yet: F5 saves the match"
        except (st.LoadError, OSError) as error:
            return f"not loaded: {error}"
        if not isinstance(saved, Saved):
            return f"not loaded: {self.save_file} is not a save of this game"
        self.world, self.best, self.shown = saved.world, max(self.best, saved.best), 0
        return f"loaded frame {self.world.frame} from {self.save_file}"


@dataclass(frozen=True)
class Saved:
    """What a quick save holds: the match and the session's best score."""

    world: World
    best: int


def play_window(
    session: Session,
    autoplay: bool,
    inspect: bool,
    screenshot: Path | None,
    frames: int | None = None,
) -> None:
    """The game in a window, at a fixed 60 simulated frames per second. Once a match is
    over its result stays on the screen until R starts another (or, with ``autoplay``, a
    few seconds pass) or Escape quits. F5 saves the match, F9 goes back to that save. With
    ``frames``, the window closes once it has shown that many frames.

    Raises:
        game.window.NoWindow: there is no display to open the window on; nothing was
            played.
    """
    import pygame

    from game.scene import scene_of
    from game.window import Window

    window = Window("Shrine Arena (statetree)")
    window.autoplay = autoplay
    inspector: Inspector | None = None
    shown = 0
    try:
        inspector = _inspector(session.world) if inspect else None
        reloader = ChartReloader(session.world.crowd)
        notes: tuple[str, ...] = ()
        clock = pygame.time.Clock()
        while window.open and (frames is None or shown < frames):
            over = session.world.over  # a match over stands still, the frame it restarts too
            said = _requests(session, window)
            if reloader.crowd is not session.world.crowd:  # a new match, or one loaded
                reloader = ChartReloader(session.world.crowd)
                said = reloader.catch_up() or said  # a loaded match runs its saved chart
                if inspector is not None:  # the pages reconnect to the new match's machines
                    inspector.stop()
                    inspector = _inspector(session.world)
            world = session.world
            if not over and (inspector is None or inspector.frame()):
                played = [bot.decide(hero, world.crowd) for hero in world.heroes]
                world.step([window.pressed(played[0]), *played[1:]])
                said = reloader.poll(world.frame) or said
            if said:
                print(said)
                notes = (said,)
            window.show(scene_of(world, notes, session.best))
            shown += 1
            clock.tick(config.FPS)
        if screenshot:
            window.save(str(screenshot))
    finally:
        window.close()
        if inspector is not None:
            inspector.stop()


def _requests(session: Session, window: Window) -> str:
    """Do what the keys asked for (F5, F9, and R once the match is over) and what autoplay
    does once it is; say what happened, if anything."""
    if window.take("save"):
        return session.quick_save()
    if window.take("load"):
        return session.quick_load()
    if not session.world.over:
        window.take("restart")  # an R before the result: the result is still shown
        return ""
    session.shown += 1
    if window.take("restart") or (window.autoplay and session.shown >= AUTOPLAY_RESTART):
        return session.restart()
    return ""


def _save(world: World, path: Path) -> None:
    from game.render import save_frame
    from game.scene import scene_of

    print(f"saved {save_frame(scene_of(world), path)}")


def _inspector(world: World) -> Inspector:
    """The live inspector on ``world``'s machines.

    Raises:
        SystemExit: it cannot serve (its port is taken, or the inspect extra is missing),
            with one line saying why: the program ends with exit status 1.
    """
    from game.inspecting import serve_world
    from statetree.inspect import InspectError, ServeError

    try:
        return serve_world(world)
    except (ServeError, InspectError) as error:
        raise SystemExit(f"{PROG}: error: {error}") from None
