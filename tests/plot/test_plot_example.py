"""examples/plot_character.py, which the project demo calls, and the picture in the docs."""

from __future__ import annotations

import importlib.util
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from plot_samples import needs_graphviz

ROOT = Path(__file__).resolve().parents[2]
STATES = ["Alive", "Dead", "Locomotion", "Jump", "Shoot", "Stand", "Move", "Crouch"]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def example() -> Iterator[ModuleType]:
    name = "plot_character_example"
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / "plot_character.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[name]


def labels(svg: bytes) -> set[str]:
    return {element.text or "" for element in ET.fromstring(svg).iter(f"{SVG}text")}


def fills_of(svg: bytes, colour: str) -> set[str]:
    """The labels of the nodes whose shape is filled with ``colour``."""
    found = set()
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if group.get("class") != "node":
            continue
        if any(path.get("fill") == colour for path in group.iter(f"{SVG}path")):
            found |= {text.text or "" for text in group.iter(f"{SVG}text")}
    return found


@needs_graphviz
def test_write_plots_writes_text_and_svg_files(example: ModuleType, tmp_path: Path) -> None:
    written = example.write_plots(tmp_path / "out")

    assert [path.name for path in written] == [
        "character.dot",
        "character.mmd",
        "character_live.dot",
        "character.svg",
        "character_live.svg",
    ]
    assert all(path.parent == tmp_path / "out" and path.stat().st_size for path in written)
    assert labels((tmp_path / "out" / "character.svg").read_bytes()) >= {
        f"{name} ({depth})" for name, depth in zip(STATES, [0, 0, 1, 1, 1, 2, 2, 2], strict=True)
    }


@needs_graphviz
def test_the_live_plot_highlights_the_moving_characters_stack(
    example: ModuleType, tmp_path: Path
) -> None:
    example.write_plots(tmp_path)

    live = (tmp_path / "character_live.svg").read_bytes()

    assert fills_of(live, "#1f6feb") == {"Alive (0)", "Locomotion (1)", "Move (2)"}


def test_without_graphviz_only_text_files_are_written(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)

    written = example.write_plots(tmp_path)

    assert [path.name for path in written] == [
        "character.dot",
        "character.mmd",
        "character_live.dot",
    ]


def test_main_prints_where_the_files_went(
    example: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example.main([str(tmp_path)])

    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"wrote {tmp_path / 'character.dot'}"


def test_the_docs_pictures_show_the_character_machine() -> None:
    static = (ROOT / "docs" / "images" / "character.svg").read_bytes()
    live = (ROOT / "docs" / "images" / "character_live.svg").read_bytes()

    assert {label.split(" (")[0] for label in labels(static)} >= set(STATES)
    assert fills_of(live, "#1f6feb") == {"Alive (0)", "Locomotion (1)", "Move (2)"}
