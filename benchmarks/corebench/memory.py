"""Memory: the bytes that stay allocated per live object, measured with ``tracemalloc``."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["retained_bytes"]

T = TypeVar("T")


def retained_bytes(create: Callable[[T], object], arguments: Sequence[T]) -> float:
    """Bytes still allocated per call after ``create(argument)`` for every argument.

    Every result is kept alive until the count is taken, so the number covers all that one
    live object holds (for a machine: the machine, its stack and its states). The list that
    keeps them exists before counting starts, and one warm-up call first fills any cache
    the contender builds once per process.

    Returns:
        The average retained bytes per call.
    """
    create(arguments[0])
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
    return (after - before) / len(arguments)
