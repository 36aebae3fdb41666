"""The shard benchmark times work that agrees: two shards fed a ChartBatch's inputs match it."""

from __future__ import annotations

import contextlib
import importlib
import io
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_two_shards_and_one_chart_batch_agree_on_the_benchmark_frames(
    monkeypatch: pytest.MonkeyPatch, ray_cluster: None
) -> None:
    from ray import cloudpickle

    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_shard")
    cloudpickle.register_pickle_by_value(bench)  # the actors do not see the benchmarks folder
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.check(agents=2_000, frames=12)
    assert out.getvalue().startswith("check: 2,000 agents x 12 frames, 2 shards agree")


def test_the_model_of_64_machines_adds_stepping_and_coordination(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_shard")
    line = bench.model(per_agent=100e-9, per_shard=0.1e-3, fixed=1e-3, agents=1_024_000)
    # 1,000 agents a shard at 100 ns, then 1 ms + 1,023 x 0.1 ms + 0.1 ms
    assert line.split() == [
        *("1,024,000", "agents:", "0.10", "ms", "of", "stepping", "+", "103.40", "ms"),
        *("of", "coordination", "=", "9.7", "frames/s,", "9.89e+06", "agent-steps/s"),
    ]
