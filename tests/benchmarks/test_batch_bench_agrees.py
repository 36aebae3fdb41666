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
