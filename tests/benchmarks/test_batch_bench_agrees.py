"""The batch benchmark times the same work on every contender: its agreement check passes,
and fails when one contender ends a frame in other states than the machines."""

from __future__ import annotations

import contextlib
import importlib
import io
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("bench_batch")


def test_every_contender_agrees_with_the_machines_on_the_benchmark_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bench = _bench(monkeypatch)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.check(agents=200, count=120)
    assert out.getvalue().startswith("check: 200 agents x 120 frames, every contender agrees")


def test_the_check_names_a_contender_that_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench(monkeypatch)
    leaves = bench.Kernel.leaves
    # The hand-written NumPy crowd reports its first agent one state off.
    monkeypatch.setattr(
        bench.Kernel,
        "leaves",
        lambda self: (
            ["Idle", *leaves(self)[1:]]
            if self.crowd.__class__ is bench.NumpyCrowd
            else leaves(self)
        ),
    )
    with pytest.raises(SystemExit, match=r"^hand-written NumPy differs from the machines at frame"):
        bench.check(agents=50, count=40)
