"""PyInstaller's hooks for statetree, found through the ``pyinstaller40`` entry point.

Each chart policy is a module of :mod:`statetree.chart.policy` that the package finds when
it is imported, not by an import PyInstaller can see: the hook here has a frozen game take
them all.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["get_hook_dirs"]


def get_hook_dirs() -> list[str]:
    """The folders of statetree's PyInstaller hooks (this one)."""
    return [str(Path(__file__).parent)]
