"""Which build of the core runs: compiled with Cython, or the Python source."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

from statetree.core import machine

__all__ = ["COMPILED", "build_name"]

COMPILED: bool = machine.__file__ is not None and machine.__file__.endswith(
    tuple(EXTENSION_SUFFIXES)
)
"""Whether the core runs compiled (an install that compiled it) rather than as source."""


def build_name() -> str:
    """``"compiled with Cython"`` or ``"pure Python"``: what ``statetree --version`` shows."""
    return "compiled with Cython" if COMPILED else "pure Python"
