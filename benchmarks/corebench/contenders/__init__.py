"""The contenders, one module each, and the loader that skips peers not installed."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from corebench.api import Contender

__all__ = ["Lineup", "load"]

# Module of each contender, and for the peers the package it needs (missing: skip it).
_MODULES = (
    ("events", None),
    ("baseline", None),
    ("statetree_impl", None),
    ("transitions_impl", "transitions"),
    ("statemachine_impl", "statemachine"),
    ("sismic_impl", "sismic"),
    ("xstate_impl", "xstate_statemachine"),
)


@dataclass(frozen=True)
class Lineup:
    """The contenders that can run, the two baselines first, and why the others cannot."""

    contenders: tuple[Contender, ...]
    skipped: tuple[str, ...]


def load() -> Lineup:
    """Import every contender; a peer whose package is missing is skipped with a reason.

    Raises:
        ImportError: anything else failed to import (a broken contender is not skipped).
    """
    contenders: list[Contender] = []
    skipped: list[str] = []
    for module, needs in _MODULES:
        try:
            loaded = importlib.import_module(f"corebench.contenders.{module}")
        except ModuleNotFoundError as missing:
            if needs is None or (missing.name or "").partition(".")[0] != needs:
                raise
            skipped.append(f"{needs}: not installed (pip install -e '.[bench]')")
            continue
        contenders.append(loaded.CONTENDER)
    return Lineup(tuple(contenders), tuple(skipped))
