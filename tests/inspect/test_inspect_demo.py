"""The inspector demo runs headless, serves its world and stops by itself."""

from __future__ import annotations

import inspect
from importlib.util import find_spec
from pathlib import Path

import inspector_demo
import pytest

import statetree

pytestmark = pytest.mark.skipif(
    find_spec("uvicorn") is None, reason="the inspect extra is not installed"
)


def test_run_headless_serves_then_exits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the demo edits a copy of its chart under build/

    inspector_demo.run(30, headless=True, npcs=5)

    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("statetree inspector: http://127.0.0.1:")
    assert lines[1] == "ran 30 frames of 13 machines; Hero: Alive > Jump > Jump_Rise"
    assert (tmp_path / "build" / "inspector_demo" / "platformer.yaml").is_file()


def test_run_has_the_signature_make_demo_calls() -> None:
    parameters = inspect.signature(inspector_demo.run).parameters

    assert list(parameters)[:2] == ["frames", "headless"]


def test_importing_statetree_loads_no_web_server() -> None:
    code = (
        "import sys, statetree, statetree.inspect; "
        "print(sorted(m for m in ('starlette', 'uvicorn', 'websockets') if m in sys.modules))"
    )
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"
    assert statetree.inspect.serve.__module__ == "statetree.inspect.serve"
