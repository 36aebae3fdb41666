"""The batch benchmark times the same work on both engines: its agreement check passes."""

from __future__ import annotations

import contextlib
import importlib
import io
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_batch_and_machines_agree_on_the_benchmark_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_batch")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.check(agents=200, count=120)
    assert out.getvalue().startswith("check: 200 agents x 120 frames, both engines agree")


def test_the_crossover_is_where_the_batch_keeps_up_for_good(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_batch")
    rows = {
        100: {"batch": 2.0, "machines": 1.0},
        200: {"batch": 1.0, "machines": 1.5},
        300: {"batch": 1.6, "machines": 1.5},
        1000: {"batch": 1.0, "machines": 3.0},
    }
    assert bench.crossover(rows) == (
        "the batch is at least as fast as ChartMachines from 1,000 agents on (slower at 300)"
    )
    rows[300]["batch"] = 1.0
    assert bench.crossover(rows).endswith("from 200 agents on (slower at 100)")
