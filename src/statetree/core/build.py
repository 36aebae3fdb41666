"""Which build of the core runs: compiled with Cython, or the Python source."""

from __future__ import annotations

import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from statetree.core import machine

__all__ = ["COMPILED", "build_name"]

COMPILED: bool = machine.__file__ is not None and machine.__file__.endswith(
    tuple(EXTENSION_SUFFIXES)
)
"""Whether the core runs compiled (an install that compiled it) rather than as source."""


def build_name() -> str:
    """``"compiled with Cython"`` or ``"pure Python"``: what ``statetree --version`` shows."""
    return "compiled with Cython" if COMPILED else "pure Python"


# An install whose compiling failed left this note (setup.py): it was said at install time,
# but pip shows a build's output only with -v, so it is said once more here.
_NOTE = Path(__file__).with_name("not-compiled.txt")
if not COMPILED and _NOTE.is_file():
    warnings.warn(_NOTE.read_text(encoding="utf-8").strip(), RuntimeWarning, stacklevel=2)
