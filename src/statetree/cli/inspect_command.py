"""``statetree inspect``: serve the live inspector for a simulation, and run it."""

from __future__ import annotations

import argparse
import time
from typing import Any

from statetree.cli.command import EXIT_OK, Command
from statetree.inspect.serve import DEFAULT_HOST, DEFAULT_PORT, Inspector, serve
from statetree.inspect.simulation import Simulation, load_simulation

__all__ = ["COMMAND", "run_simulation"]


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target",
        metavar="MODULE:NAME",
        help="what to inspect: a function returning a simulation (an object with machines() "
        "and tick(dt)), a simulation, a machine, a list of machines or an initial state "
        "class; MODULE is a dotted module name or a .py file",
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the IP address to serve on, and only that one (default {DEFAULT_HOST})",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}; 0: any"
    )
    parser.add_argument(
        "--fps", type=float, default=30.0, help="frames per second of the simulation"
    )
    parser.add_argument(
        "--rate", type=float, default=10.0, help="updates per second sent to the page"
    )
    parser.add_argument(
        "--frames", type=int, help="stop after this many frames (default: run until Ctrl-C)"
    )


def run_simulation(
    simulation: Simulation, inspector: Inspector, *, fps: float, frames: int | None
) -> int:
    """Step ``simulation`` at ``fps`` while the page allows it; returns the frames run."""
    attach: Any = getattr(simulation, "attach", None)
    if callable(attach):
        attach(inspector)
    period = 1.0 / fps
    done = 0
    next_frame = time.monotonic()
    while frames is None or done < frames:
        if inspector.frame():  # False while the page has paused the program
            simulation.tick(period)
            done += 1
        next_frame += period
        time.sleep(max(0.0, next_frame - time.monotonic()))
    return done


def _run(args: argparse.Namespace) -> int:
    simulation = load_simulation(args.target)
    inspector = serve(simulation.machines(), host=args.host, port=args.port, rate=args.rate)
    print(f"statetree inspector: {inspector.url} (Ctrl-C to stop)", flush=True)
    try:
        run_simulation(simulation, inspector, fps=args.fps, frames=args.frames)
    except KeyboardInterrupt:
        pass
    finally:
        inspector.stop()
    return EXIT_OK


COMMAND = Command(
    name="inspect",
    summary="watch running machines live in the browser (the inspect extra)",
    description=(
        "Serve a web page showing live the diagrams of a simulation's machines with their "
        "active states, a timeline of their steps (pause, step, filter, search), bitmask "
        "flags with explanations and decoded network packets, then run the simulation. "
        "The page is served on one address only, this computer by default."
    ),
    add_arguments=_add_arguments,
    run=_run,
    examples=(
        "statetree inspect examples/inspector_demo.py:demo_world",
        "statetree inspect examples/inspector_demo.py:demo_world --port 9000 --fps 60",
        "statetree inspect examples/character.py:CharacterStates.Alive",
    ),
)
