"""``python examples/game``: run Shrine Arena (see :mod:`game.app` for the options)."""

import sys
from pathlib import Path

if not __package__:  # run as a folder: make ``game`` importable as a package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.app import main

raise SystemExit(main())
