"""The malformed-chart corpus: each chart is refused with exactly the recorded ChartError.

Every chart is loaded by ``chart_corpus.py`` in a process of its own, under a watchdog: a
chart that makes the loader hang fails its own test (and the worker is restarted for the
others) instead of stopping the run. The bound is generous (a corpus chart loads in
milliseconds, the largest generated ones in well under a second): it catches hangs, it
does not measure speed.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import chart_corpus
import pytest
from chart_corpus import EXPECTED, STARTED, corpus_files, decided

WATCHDOG = 60.0
"""Seconds one chart may take before it counts as hung."""


def recorded() -> dict[str, str]:
    lines = EXPECTED.read_text(encoding="utf-8").splitlines()
    return {line.split(" | ", 1)[0]: line for line in lines if line}


def _lines(stream: object, out: queue.Queue[str | None]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        out.put(line.rstrip("\n"))
    out.put(None)


def _run(
    names: list[str],
    outcomes: dict[str, str],
    script: str = chart_corpus.__file__,
    watchdog: float = WATCHDOG,
) -> list[str]:
    """Load ``names`` in a worker; record each outcome; return the names not reached."""
    worker = subprocess.Popen(
        [sys.executable, script, *names],
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_lines, args=(worker.stdout, lines), daemon=True).start()
    current = None
    try:
        while True:
            line = lines.get(timeout=watchdog)
            if line is None:
                break
            if line.startswith(STARTED):
                current = line[len(STARTED) :]
            else:
                outcomes[line.split(" | ", 1)[0]] = line
                current = None
    except queue.Empty:
        assert current is not None
        outcomes[current] = f"{current} | hung | no outcome within {watchdog:g} s"
    finally:
        worker.kill()
        worker.wait()
    if current is not None and current not in outcomes:
        outcomes[current] = f"{current} | crashed | the worker exited ({worker.returncode})"
    return [name for name in names if name not in outcomes]


@pytest.fixture(scope="module")
def outcomes() -> Iterator[dict[str, str]]:
    found: dict[str, str] = {}
    remaining = corpus_files()
    while remaining:  # after a hang or a crash, go on with the charts after it
        remaining = _run(remaining, found)
    yield found


@pytest.mark.parametrize(("name", "expected"), sorted(recorded().items()))
def test_a_corpus_chart_is_refused_with_the_recorded_error(
    outcomes: dict[str, str], name: str, expected: str
) -> None:
    _, line, message = outcomes[name].split(" | ", 2)
    assert line.isdigit(), outcomes[name]  # a ChartError, not a raw exception or a hang
    assert int(line) > 0 or "limited to" in message  # only the size limit has no line
    assert decided(outcomes[name]) == decided(expected)


def test_every_corpus_chart_is_recorded_and_the_corpus_covers_every_format() -> None:
    assert sorted(recorded()) == corpus_files()
    formats = [name.rpartition(".")[2] for name in corpus_files()]
    assert len(formats) >= 100
    assert all(formats.count(format) >= 30 for format in ("yaml", "json", "toml"))


def test_a_chart_that_hangs_or_crashes_the_loader_fails_alone(tmp_path: Path) -> None:
    script = tmp_path / "worker.py"
    script.write_text(
        "import os, sys, time\n"
        "for name in sys.argv[1:]:\n"
        "    print('started ' + name, flush=True)\n"
        "    if name == 'hang': time.sleep(600)\n"
        "    if name == 'crash': os._exit(3)\n"
        "    print(name + ' | 1 | refused', flush=True)\n"
    )
    found: dict[str, str] = {}
    remaining = ["a", "hang", "b", "crash", "c"]
    while remaining:
        remaining = _run(remaining, found, str(script), watchdog=1.0)
    assert found == {
        "a": "a | 1 | refused",
        "hang": "hang | hung | no outcome within 1 s",
        "b": "b | 1 | refused",
        "crash": "crash | crashed | the worker exited (3)",
        "c": "c | 1 | refused",
    }
