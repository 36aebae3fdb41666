"""The statetree showcase that ``make demo`` runs.

It drives the character controller of ``examples/character.py`` through a scripted run
(walk, crawl, jump, land, stop, die) and prints, frame by frame, the trace of the
transitions taken and the values the states drive; draws that machine from its code; walks
through the bitmask player's rules; runs a crowd of 20,000 chart agents as arrays; serves
the live inspector on a demo world (until Ctrl-C, or for a fixed number of frames with
``--headless`` or in CI); and ends with the game, Shrine Arena, in a window (or, headless, a
scripted match that prints its summary).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import bitmask_player
import crowd
import inspector_demo
from character import Character, CharacterStates, Inputs
from game.app import main as play_game

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The statetree showcase.")
    parser.add_argument(
        "--headless",
        action="store_true",
        help="run the inspector's world for a fixed number of frames and exit "
        "(also when the CI variable is set or standard input is not a terminal)",
    )
    args = parser.parse_args(argv)
    headless = args.headless or bool(os.environ.get("CI")) or not sys.stdin.isatty()
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
    if not headless:
        print("   open the address below in a browser; Ctrl-C ends the demo")
    inspector_demo.run(frames=None, headless=headless)
    print()
    print("== the game: Shrine Arena, every part of the library in one program ==")
    play_game(["--headless", "--frames", "600"] if headless else ["--autoplay"])


if __name__ == "__main__":
    main()
