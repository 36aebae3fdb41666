"""The statetree showcase that ``make demo`` runs.

It drives the character controller of ``examples/character.py`` through a scripted run
(walk, crawl, jump, land, stop, die) and prints, frame by frame, the trace of the
transitions taken and the values the states drive; draws that machine from its code; walks
through the bitmask player's rules; runs a crowd of 20,000 chart agents as arrays; serves
the live inspector on a demo world (until Enter, or for a fixed number of frames with
``--headless`` or in CI); and ends with the game, Shrine Arena, in a window (or, headless or
without a display, a scripted match that prints its summary; the demo says so first).

When the inspector's port (8765) is taken, by another demo or another program, the demo says
so in one line on standard error, skips the inspector and goes on with the game: it still
ends with exit status 0. Enter ends the inspector's part (it says so; Ctrl-C does too, but
reaches ``make`` as well); anywhere else Ctrl-C ends the demo, with exit status 130 and no
traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from extras import needs

with needs("plot", "chart", "inspect", "batch", "game"):
    import bitmask_player
    import crowd
    import inspector_demo
    from character import Character, CharacterStates, Inputs
    from game.app import has_display
    from game.app import main as play_game

    from statetree.inspect import ServeError
    from statetree.plot import RenderError, write_plot
from statetree.structure import derive

SCRIPT: list[tuple[str, Inputs, int]] = [
    ("stand still", Inputs(), 1),
    ("walk", Inputs(move=True), 2),
    ("crawl", Inputs(move=True, crawl=True), 1),
    ("walk again", Inputs(move=True), 1),
    ("jump", Inputs(move=True, jump=True), 1),
    ("in the air", Inputs(move=True), 4),
    ("stop", Inputs(), 1),
]


def run_character() -> Character:
    """Play the script on a fresh character, printing each frame."""
    hero = Character("Hero")
    frame = 0
    for label, inputs, frames in SCRIPT:
        print(f"-- {label}")
        for _ in range(frames):
            hero.inputs = Inputs(inputs.move, inputs.crawl, inputs.jump)
            hero.tick(0.25)
            stack = " > ".join(type(s).__name__ for s in hero.machine.stack)
            print(
                f"   frame {frame:2d}  speed {hero.speed:4.1f}  height {hero.height:4.2f}  "
                f"[{stack}]"
            )
            frame += 1
    print("-- hit for 120 damage")
    hero.health -= 120
    hero.tick(0.25)
    print(f"   speed {hero.speed:4.1f}: every state value was restored as its state exited")
    return hero


PLOTS = Path("build") / "demo"


def plot_character(hero: Character) -> None:
    """Write the character machine's diagram, with the states it ended in highlighted."""
    structure = derive(CharacterStates.Alive)
    PLOTS.mkdir(parents=True, exist_ok=True)
    written = [write_plot(structure, PLOTS / "character.mmd", active=hero.machine.stack)]
    try:
        written.append(write_plot(structure, PLOTS / "character.svg", active=hero.machine.stack))
    except RenderError as error:
        print(f"   (no SVG: {error})")
    for path in written:
        print(f"   wrote {path}")


@dataclass(frozen=True)
class Mode:
    """How the demo runs here: ``note`` says why, when it is not the full interactive show."""

    headless: bool
    """The inspector serves a few frames and stops (else: until Enter)."""
    window: bool
    """The game opens a window (else: it plays a scripted match and prints its result)."""
    note: str = ""


BRIEF = "the inspector serves 240 frames and stops, the game plays a scripted match"


def choose_mode(asked: bool, ci: bool, terminal: bool, display: bool) -> Mode:
    """The demo's mode, from ``--headless``, the CI variable, whether standard input is a
    terminal and whether a window can be opened."""
    reasons = {
        "--headless": asked,
        "CI is set": ci,
        "standard input is not a terminal": not terminal,
    }
    reason = next((why for why, holds in reasons.items() if holds), None)
    if reason is not None:
        return Mode(True, False, f"Headless ({reason}): {BRIEF}.")
    if not display:
        return Mode(
            False,
            False,
            "No display (neither DISPLAY nor WAYLAND_DISPLAY is set): the game plays a scripted "
            "match and prints its result instead of opening a window; the inspector serves its "
            "page until Enter as usual (make demo DEMO_ARGS=--headless runs it all briefly).",
        )
    return Mode(False, True)


INSPECTOR_PORT = 8765
"""The port the inspector serves on when the demo runs interactively (else: any free one)."""


def show_inspector(headless: bool) -> bool:
    """Serve the inspector on the demo world (see ``inspector_demo.run``); whether it
    could. A port already taken is one line on standard error: the demo goes on."""
    entered = threading.Event()
    if not headless:  # a line typed ends this part (Ctrl-C would end make as well)
        threading.Thread(target=_wait_for_enter, args=(entered,), daemon=True).start()
    try:
        port = None if headless else INSPECTOR_PORT  # headless: any free one
        inspector_demo.run(frames=None, headless=headless, port=port, until=entered)
    except ServeError as error:
        sys.stdout.flush()
        print(
            f"demo.py: the live inspector is skipped: {error} (python "
            "examples/inspector_demo.py --port 0 serves it on a free port)",
            file=sys.stderr,
            flush=True,
        )
        return False
    return True


def _wait_for_enter(entered: threading.Event) -> None:
    sys.stdin.readline()
    entered.set()


def main(argv: list[str] | None = None) -> int:
    """Run the showcase; returns the exit status (130 when Ctrl-C ends the game)."""
    parser = argparse.ArgumentParser(description="The statetree showcase.")
    parser.add_argument(
        "--headless",
        action="store_true",
        help="run the inspector's world for a fixed number of frames and exit "
        "(also when the CI variable is set or standard input is not a terminal)",
    )
    args = parser.parse_args(argv)
    mode = choose_mode(args.headless, bool(os.environ.get("CI")), sys.stdin.isatty(), has_display())
    if mode.note:
        print(mode.note)
        print()
    print("== statetree demo: a character controller ==")
    hero = run_character()
    print()
    print("== the character machine, drawn from its code (active states highlighted) ==")
    plot_character(hero)
    print()
    print("== a bitmask multi-state machine: many states active at once ==")
    bitmask_player.main()
    print()
    print("== a crowd: one chart run by 20,000 agents as arrays (ChartBatch) ==")
    crowd.main(["--agents", "20000", "--seconds", "2"])
    print()
    print("== the live inspector: a demo world of class-based, chart and bitmask machines ==")
    if not mode.headless:
        print("   open the address below in a browser; Enter ends this part of the demo")
    show_inspector(mode.headless)
    print()
    print("== the game: Shrine Arena, every part of the library in one program ==")
    return play_game(["--autoplay"] if mode.window else ["--headless"])  # a whole match: 2 s


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # Ctrl-C ends the demo, wherever it is, with no traceback
        print()
        raise SystemExit(130) from None
