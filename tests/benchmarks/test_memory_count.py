"""The benchmarks' memory count charges each object exactly what it keeps alive."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import ClassVar

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def memory(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("corebench.memory")


class Holder:
    """Keeps one list alive, and counts the holders made in a counter they all share."""

    __slots__ = ("items",)
    made: ClassVar[dict[str, int]] = {"count": 0}

    def __init__(self, size: int) -> None:
        self.items = [None] * size
        Holder.made["count"] += 1


@pytest.mark.parametrize("count", [1_200, 4_000])
def test_each_object_is_charged_what_it_keeps_and_nothing_shared(
    memory: ModuleType, count: int
) -> None:
    """The shared counter's latest value and the count's own variables are not charged."""
    one = Holder(5)
    # Rounded: CPython 3.10 keeps a few bytes of its own from one run of the count to the
    # other, a fraction of a byte per object at this size.
    assert round(memory.retained_bytes(Holder, [5] * count)) == sys.getsizeof(one) + sys.getsizeof(
        one.items
    )
