"""What an example needs beyond the core: a missing library is one line saying what to install.

.. code-block:: python

    with needs("batch"):
        import numpy as np

An import (or a call) in the block that fails for want of a library ends the program with
``crowd.py needs numpy: pip install '.[batch]' in the statetree folder (the batch
extra)`` instead of a traceback. Blocks may nest: the outermost one names every extra its
program needs, so that one install is enough.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["at_least", "fraction", "needs"]

_running: list[None] = []
"""One item per ``needs`` block running (the outermost one reports)."""


def _missing(error: BaseException) -> str:
    """The name of the library an import error is about (its own, or its cause's)."""
    found: BaseException | None = error
    while found is not None:
        if isinstance(found, ImportError) and found.name:
            return found.name
        found = found.__cause__
    return "a library that is not installed"


def at_least(minimum: int) -> Callable[[str], int]:
    """An ``argparse`` type: a whole number of at least ``minimum`` (a usage error else)."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value

    return read


def fraction(text: str) -> float:
    """An ``argparse`` type: a number from 0 to 1 (a usage error else)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{value} is not from 0 to 1")
    return value


@contextmanager
def needs(*extras: str) -> Iterator[None]:
    """Run the block; if it lacks a library, exit naming it and the extras to install."""
    _running.append(None)
    try:
        yield
    except ImportError as error:
        if len(_running) > 1:
            raise
        named = f"the {', '.join(extras)} extra{'s' * (len(extras) > 1)}"
        sys.exit(
            f"{Path(sys.argv[0]).name} needs {_missing(error)}: pip install "
            f"'.[{','.join(extras)}]' in the statetree folder ({named})"
        )
    finally:
        _running.pop()
