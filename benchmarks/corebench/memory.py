"""Memory: the bytes that stay allocated per live object, measured with ``tracemalloc``."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["retained_bytes"]

T = TypeVar("T")


WARM_UP = 300
"""Calls made before counting: enough for any per-process cache, and for shared counters
to pass the small integers CPython keeps (up to 256), so that no count is a new object."""


def retained_bytes(create: Callable[[T], object], arguments: Sequence[T]) -> float:
    """Bytes still allocated per call after ``create(argument)`` for every argument.

    Every result is kept alive until the count is taken, so the number covers all that one
    live object holds (for a machine: the machine, its stack and its states). The first
    ``WARM_UP`` arguments are used before counting starts, to fill whatever the contender
    builds once per process. The rest are counted in two runs of different sizes, and the
    result is the difference per extra call: what stays the same whatever the number of
    objects (the count's own variables, the latest values of shared counters) cancels out.

    Returns:
        The average retained bytes per call.
    """
    warm = min(WARM_UP, len(arguments) // 4)
    for argument in arguments[:warm]:
        create(argument)
    counted = arguments[warm:]
    split = len(counted) // 3
    small, large = counted[:split], counted[split:]
    return (_retained(create, large) - _retained(create, small)) / (len(large) - len(small))


def _retained(create: Callable[[T], object], arguments: Sequence[T]) -> int:
    """The bytes still allocated after calling ``create`` on every argument."""
    kept: list[object] = [None] * len(arguments)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for index, argument in enumerate(arguments):
            kept[index] = create(argument)
        # Temporary cycles made while building are garbage, not part of the live objects.
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return after - before
