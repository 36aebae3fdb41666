"""The JAX benchmark times work that agrees: its check passes and names a frame that
differs, and without numba (as on a GPU machine) it times the program alone."""

from __future__ import annotations

import contextlib
import importlib
import io
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("jax", reason="JAX programs need the jax extra (Python 3.11+)")

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("bench_jax")


def test_the_program_agrees_with_chartbatch_on_the_benchmark_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bench = _bench(monkeypatch)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.check(agents=300, count=60)
    assert out.getvalue() == "check: 300 agents x 60 frames, the program equals ChartBatch\n\n"


def test_the_check_names_the_frame_where_the_program_differs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bench = _bench(monkeypatch)
    host_calls = bench.ChartProgram.host_calls
    # From the third frame on, the program's first host call goes missing.
    seen: list[int] = []

    def dropping(self: object, frame: object) -> object:
        seen.append(1)
        calls = host_calls(self, frame)
        return calls[1:] if len(seen) >= 3 else calls

    monkeypatch.setattr(bench.ChartProgram, "host_calls", dropping)
    with pytest.raises(SystemExit, match=r"^the program differs from ChartBatch at frame 2$"):
        bench.check(agents=300, count=10)


def test_without_numba_the_program_alone_is_timed() -> None:
    # Run as on a GPU machine without numba: Python refuses to import a module whose entry
    # in sys.modules is None, as if it were not installed.
    code = (
        "import runpy, sys; sys.modules['numba'] = None; "
        f"sys.path.insert(0, {str(BENCHMARKS)!r}); "
        "sys.argv = ['bench_jax.py', '--sizes=500']; "
        f"runpy.run_path({str(BENCHMARKS / 'bench_jax.py')!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "check: 2,000 agents x 120 frames, the program equals ChartBatch"
    assert lines[3] == "Per frame, medians"
    contenders = [line.split()[1] for line in lines[5:7]]
    assert contenders == ["ChartProgram.step", "ChartProgram"]
    assert len(lines) == 9 and lines[-1] == "(no GPU in this run: JAX's CPU build)"
