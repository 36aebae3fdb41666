"""Timing in the manner of ``timeit``: the best of several repeats, contenders interleaved.

The clock is the CPU time of this process rather than the wall clock: on a computer that
runs other programs too, time spent waiting for the processor would otherwise land on
whichever contender happened to be running.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import process_time

__all__ = ["Timed", "Timing", "best_times"]


@dataclass(frozen=True)
class Timed:
    """Something to time.

    Attributes:
        name: the row it fills.
        run: ``run(units)`` does ``units`` units of work.
        ops_per_unit: operations in one unit (a script cycle is several steps).
    """

    name: str
    run: Callable[[int], object]
    ops_per_unit: int = 1


@dataclass(frozen=True)
class Timing:
    """The result for one :class:`Timed`.

    Attributes:
        seconds_per_op: the best repeat's time divided by its operations.
        units_run: every unit run, calibration included (to check work done afterwards).
    """

    seconds_per_op: float
    units_run: int


def best_times(
    entries: Sequence[Timed], *, repeats: int = 9, min_time: float = 0.05
) -> dict[str, Timing]:
    """Time every entry ``repeats`` times and keep each one's best.

    Each entry first finds how many units take about ``min_time``. The repeats are
    interleaved, starting each round with the next entry, so that a slow moment of the
    computer (or a warm cache) does not favour one contender.

    Returns:
        ``{name: Timing}`` in the order of ``entries``.
    """
    units: dict[str, int] = {}
    ran: dict[str, int] = {}
    best = dict.fromkeys((entry.name for entry in entries), math.inf)
    for entry in entries:
        units[entry.name], ran[entry.name] = _calibrate(entry.run, min_time)
    for round_ in range(repeats):
        start = round_ % len(entries)
        for entry in (*entries[start:], *entries[:start]):
            count = units[entry.name]
            elapsed = _time(entry.run, count)
            ran[entry.name] += count
            best[entry.name] = min(best[entry.name], elapsed / (count * entry.ops_per_unit))
    return {entry.name: Timing(best[entry.name], ran[entry.name]) for entry in entries}


def _calibrate(run: Callable[[int], object], min_time: float) -> tuple[int, int]:
    """How many units take about ``min_time``, and how many units finding it ran."""
    units = 1
    ran = 0
    while True:
        elapsed = _time(run, units)
        ran += units
        if elapsed >= min_time / 10:
            return max(units, math.ceil(units * min_time / elapsed)), ran
        units *= 10


def _time(run: Callable[[int], object], units: int) -> float:
    # As timeit does: a collection starting in the middle of one contender's run would
    # charge it for garbage that others may have made.
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = process_time()
        run(units)
        return process_time() - start
    finally:
        if enabled:
            gc.enable()
