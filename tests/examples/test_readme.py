"""The README's tour runs as written and prints the trace its comments show."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_tour_runs_and_prints_its_commented_trace() -> None:
    text = README.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) == 1
    code = blocks[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "readme"})
    promised = [m.group(1).rstrip() for m in re.finditer(r"# (HSM_1_.*)$", code, re.MULTILINE)]
    assert out.getvalue().splitlines() == promised
    assert promised[0] == "HSM_1_Hero: Init    : Alive"


def test_readme_gives_exactly_the_two_setup_commands() -> None:
    setup = README.read_text().split("## Set up", 1)[1].split("##", 1)[0]
    commands = re.findall(r"```\n(.*?)```", setup, flags=re.DOTALL)
    assert commands == ["make demo\nmake test\n"]
