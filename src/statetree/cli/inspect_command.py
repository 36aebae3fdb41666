"""``statetree inspect``: serve the live inspector for a simulation or a chart, and run it."""

from __future__ import annotations

import argparse
import math
import reprlib
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

from statetree.cli.command import EXIT_OK, Command
from statetree.cli.structures import add_registry_argument, is_chart_file, load_registry
from statetree.errors import StateTreeError
from statetree.inspect.adapters import InspectError
from statetree.inspect.chart_world import ChartWorld
from statetree.inspect.serving import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    Inspector,
    check_port,
    check_rate,
    serve,
)
from statetree.inspect.simulation import Simulation, Still, load_simulation
from statetree.targets import LoadError, existing_file, raised_at

__all__ = ["COMMAND", "run_simulation"]

MIN_FPS, MAX_FPS = 0.01, 1000.0
T = TypeVar("T")


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target",
        metavar="TARGET",
        help="what to inspect: a chart file (.yaml, .toml, .json), run on its own; or "
        "MODULE:NAME, a function returning a simulation (an object with machines() and "
        "tick(dt)), a simulation, a machine, a list of machines or an initial state class "
        "(MODULE is a dotted module name or a .py file)",
    )
    add_registry_argument(parser)
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="the IP address to serve on, and only that one (default: %(default)s)",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help="0 picks a free one (default: %(default)s)"
    )
    parser.add_argument(
        "--fps",
        type=float,
        default=30.0,
        help=f"frames per second of the simulation, {MIN_FPS:g} to {MAX_FPS:g} "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=10.0,
        help="updates per second sent to the page, 0.5 to 120 (default: %(default)s)",
    )
    parser.add_argument(
        "--frames", type=int, help="stop after this many frames (default: run until Ctrl-C)"
    )


def run_simulation(
    simulation: Simulation, inspector: Inspector, *, fps: float, frames: int | None
) -> int:
    """Step ``simulation`` at ``fps`` while the page allows it; returns the frames run.

    Raises:
        InspectError: ``fps`` is not a number of frames per second the loop can keep.
    """
    _check_fps(fps)
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


def _check_fps(fps: float) -> None:
    if not (math.isfinite(fps) and MIN_FPS <= fps <= MAX_FPS):
        raise InspectError(
            f"--fps must be a number of frames per second from {MIN_FPS:g} to {MAX_FPS:g}; "
            f"got {fps:g}"
        )


def _check(args: argparse.Namespace) -> None:
    """Refuse arguments that cannot work before anything is loaded or served."""
    try:
        check_port(args.port)
        check_rate(args.rate)
    except InspectError as error:  # the library names the argument; here it is an option
        raise InspectError(f"--{error}") from None
    _check_fps(args.fps)
    if args.frames is not None and args.frames < 0:
        raise InspectError(f"--frames must be 0 or more; got {args.frames}")
    if args.registry is not None and not is_chart_file(args.target):
        raise InspectError("--registry is for chart files; a simulation brings its own")


def _simulation(args: argparse.Namespace) -> Simulation:
    if not is_chart_file(args.target):
        return load_simulation(args.target)
    existing_file(args.target, "chart file")
    registry = load_registry(args.registry) if args.registry is not None else None
    return ChartWorld(args.target, registry)


def _machines(simulation: Simulation, target: str) -> list[object]:
    """The simulation's machines, as a list."""
    found = _users(simulation.machines, f"machines() of {target!r}")
    if not isinstance(found, Iterable) or isinstance(found, (str, bytes)):
        raise LoadError(
            f"machines() of {target!r} returned {reprlib.repr(found)}, not the machines to "
            "inspect (return a list of them)"
        )
    return _users(partial(list, found), f"machines() of {target!r}")


def _users(call: Callable[[], T], what: str) -> T:
    """``call()``: the simulation's own code, whose failures are reported as its
    imports' are (where they raised, in one line)."""
    try:
        return call()
    except StateTreeError:
        raise
    except Exception as error:
        message = f"{raised_at(error)}{what} raised {type(error).__name__}: {error}"
        raise LoadError(message) from None


def _run(args: argparse.Namespace) -> int:
    _check(args)
    simulation = _simulation(args)
    machines = _machines(simulation, args.target)
    inspector = serve(machines, host=args.host, port=args.port, rate=args.rate)
    until = "Ctrl-C to stop" if args.frames is None else f"for {args.frames} frames; Ctrl-C stops"
    print(f"statetree inspector: {inspector.url} ({until})", flush=True)
    if isinstance(simulation, Still):
        print(
            "nothing steps these machines: the page shows them as they are (name a "
            "simulation, an object with machines() and tick(dt), to run them)",
            flush=True,
        )
    try:
        frames = partial(run_simulation, simulation, inspector, fps=args.fps, frames=args.frames)
        _users(frames, f"running {args.target!r}")
    finally:  # Ctrl-C included: the program reports it (exit status 130), as for run
        inspector.stop()
    return EXIT_OK


COMMAND: Command = Command(
    name="inspect",
    summary="watch and debug running machines, edit charts, live in the browser (inspect extra)",
    description=(
        "Serve a web page showing live the diagrams of a simulation's machines with their "
        "active states, a timeline of their steps (pause, step, time travel, breakpoints, "
        "search), bitmask flags with explanations, decoded network packets and a visual "
        "editor for charts loaded from files, then run the simulation. A chart file is run "
        "on its own: send it events from the page, edit it, save and hot-reload it. The "
        "page is served on one address only, this computer by default."
    ),
    add_arguments=_add_arguments,
    run=_run,
    examples=(
        "statetree inspect examples/charts/platformer.yaml",
        "statetree inspect examples/charts/combo_attack.yaml --registry examples/charts/game.py",
        "statetree inspect examples/inspector_demo.py:demo_world --port 9000 --fps 60",
    ),
)
