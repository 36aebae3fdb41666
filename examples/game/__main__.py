"""``python examples/game``: run Shrine Arena (see :mod:`game.app` for the options)."""

import os
import sys
from pathlib import Path

if not __package__:  # run as a folder: make ``game`` importable as a package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.app import main

try:
    status = main()
except BrokenPipeError:  # the output went to a program that stopped reading (``| head``)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 0
except KeyboardInterrupt:  # Ctrl-C: the game ends, with no traceback
    status = 130
raise SystemExit(status)
