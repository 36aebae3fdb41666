"""The README's tour runs as written and prints the trace its comments show."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from statetree.cli import main

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


def test_readme_commands_run_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command lines of the README's blocks (outside the set-up), as a reader pastes
    # them: each exits 0 with no warning, writing its files into an empty folder.
    tour = README.read_text().split("## A short tour", 1)[1]
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", tour, re.S | re.M)
    lines = [
        line.split("#", 1)[0].split()
        for lang, block in blocks
        if not lang
        for line in block.splitlines()
    ]
    commands = [words[1:] for words in lines if words[:1] == ["statetree"]]
    assert [words[0] for words in commands] == ["plot", "check"]
    monkeypatch.chdir(README.parent)
    for words in commands:
        if "-o" in words:
            at = words.index("-o") + 1
            words[at] = str(tmp_path / words[at])
        capsys.readouterr()

        assert main(words) == 0, words
        out = capsys.readouterr()
        assert "warning:" not in out.out + out.err, words
    assert (tmp_path / "character.svg").read_text().startswith("<?xml")
