"""Every structured edit on every state of charts written in the ways that broke the editor
(``corpus/``: flow style on one line or over many, document markers, lone dashes, block
scalars holding ``#`` lines, unusual indents, comments everywhere), with ``\\n`` and with
``\\r\\n`` line ends: an edit is made or refused with the library's error, never fails
otherwise, keeps the file's line ends, and loses no comment unless it removes what the
comment was written on."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from statetree.chart import ChartError, load
from statetree.inspect import ChartFile, InspectError

pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")

CORPUS = Path(__file__).resolve().parent / "corpus"
FILES = sorted(path.name for path in CORPUS.glob("*.yaml"))

KEEPING = ("rename-state", "add-state", "move-state", "add-transition")
"""The edits that remove nothing, so every comment stays."""


def edits(path: str, first: str) -> list[dict[str, Any]]:
    return [
        {"op": "rename-state", "path": path, "name": "Renamed"},
        {"op": "add-state", "path": path, "name": "Added"},
        {"op": "move-state", "path": path, "index": 0},
        {"op": "add-transition", "path": path, "on": {"input": "X"}, "to": first},
        {"op": "remove-state", "path": path},
        {"op": "set-policy", "path": path, "policy": None},
        {"op": "set-actions", "path": path, "kind": "enter", "actions": [{"raise": {"name": "Q"}}]},
        {"op": "set-transitions", "path": path, "transitions": None},
    ]


def comments(text: str) -> Counter[str]:
    return Counter(line.strip() for line in text.splitlines() if line.strip().startswith("#"))


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 8


@pytest.mark.parametrize("crlf", [False, True], ids=["LF", "CRLF"])
@pytest.mark.parametrize("name", FILES)
def test_every_edit_of_every_state_is_made_or_refused_cleanly(
    tmp_path: Path, name: str, crlf: bool
) -> None:
    text = (CORPUS / name).read_text(encoding="utf-8")
    if crlf:
        text = "\ufeff" + text.replace("\n", "\r\n")
    path = tmp_path / name
    path.write_bytes(text.encode())
    chart = load(path)
    file = ChartFile(path)
    made = 0
    for state, _, _ in chart.walk():
        first = (chart.find(state.rpartition(".")[0]) or chart.root).states[0].name
        for edit in edits(state, first):
            try:
                new = file.prepare(edit).text
            except (InspectError, ChartError):
                continue
            made += 1
            assert new.startswith("\ufeff") == crlf
            assert set(re.findall(r"\r\n|\r|\n", new)) == {"\r\n" if crlf else "\n"}
            if edit["op"] in KEEPING:
                assert comments(new) == comments(text), edit
            else:
                assert not comments(new) - comments(text), edit
    assert made > 0
    assert path.read_bytes() == text.encode()  # prepared, never saved
