"""SVG and PNG through Graphviz; writing files; what happens without Graphviz."""

from __future__ import annotations

import errno
import math
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import plot_samples
import pytest
from plot_samples import needs_graphviz

import statetree as st
from statetree.plot import RenderError, format_for, plot_bytes, render, to_dot, write_plot
from statetree.plot.rendering import MAX_DPI, with_dpi

SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(data: bytes) -> list[str]:
    """The text elements of an SVG document (fails if it is not well-formed XML)."""
    root = ET.fromstring(data)
    return [element.text or "" for element in root.iter(f"{SVG}text")]


@needs_graphviz
def test_svg_is_well_formed_and_shows_every_state() -> None:
    data = plot_bytes(plot_samples.small(), "svg")

    texts = svg_texts(data)
    for label in ["Root (0)", "Other (0)", "Loco_Stand (1)", "Loco_Move (1)", "Anim (2)", "Loco"]:
        assert label in texts


@needs_graphviz
def test_png_is_a_png() -> None:
    assert plot_bytes(plot_samples.small(), "png").startswith(b"\x89PNG\r\n\x1a\n")


@needs_graphviz
def test_rendering_is_deterministic() -> None:
    dot = to_dot(plot_samples.small())

    assert render(dot, "svg") == render(dot, "svg")


@needs_graphviz
def test_write_plot_picks_the_format_from_the_extension(tmp_path: Path) -> None:
    structure = plot_samples.small()

    for name in ["m.dot", "m.gv", "m.mmd", "m.svg", "m.png"]:
        assert write_plot(structure, tmp_path / name) == tmp_path / name

    assert (tmp_path / "m.dot").read_text() == to_dot(structure)
    assert (tmp_path / "m.mmd").read_text().startswith("flowchart TD\n")
    assert svg_texts((tmp_path / "m.svg").read_bytes())
    assert write_plot(structure, tmp_path / "m.txt", format="dot").read_text().startswith("digraph")


@needs_graphviz
def test_graphviz_errors_are_render_errors() -> None:
    with pytest.raises(RenderError, match=r"Graphviz could not render the plot: .*syntax error"):
        render("digraph {", "svg")


def test_text_formats_need_no_graphviz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)  # makes `import graphviz` fail

    assert plot_bytes(plot_samples.small(), "dot").startswith(b"digraph")
    assert plot_bytes(plot_samples.small(), "mmd").startswith(b"flowchart")


def test_without_the_graphviz_package_svg_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)

    with pytest.raises(
        RenderError, match=r"need the graphviz package: pip install 'statetree\[plot\]'"
    ):
        plot_bytes(plot_samples.small(), "svg")


@needs_graphviz
def test_without_the_dot_program_svg_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")

    with pytest.raises(RenderError, match="Graphviz's dot program is not on the PATH"):
        plot_bytes(plot_samples.small(), "svg")


def test_unknown_extensions_and_formats_are_usage_errors() -> None:
    with pytest.raises(st.UsageError, match=r"cannot tell the plot format of 'm\.jpg'"):
        format_for(Path("m.jpg"))
    with pytest.raises(st.UsageError, match="cannot render 'dot'; choose one of svg, png"):
        render("digraph {}", "dot")


def test_extensions_are_case_insensitive() -> None:
    assert format_for(Path("Machine.SVG")) == "svg"
    assert format_for(Path("machine.mermaid")) == "mmd"


def png_width(data: bytes) -> int:
    """The width in pixels, from the PNG header."""
    return int.from_bytes(data[16:20], "big")


@needs_graphviz
def test_png_resolution_follows_the_dpi() -> None:
    default = plot_bytes(plot_samples.small(), "png")
    double = plot_bytes(plot_samples.small(), "png", dpi=288)

    assert abs(png_width(double) / png_width(default) - 2) < 0.02
    assert png_width(plot_bytes(plot_samples.small(), "png", dpi=96)) < png_width(default)


@needs_graphviz
def test_pdf_is_written_for_a_pdf_file(tmp_path: Path) -> None:
    written = write_plot(plot_samples.small(), tmp_path / "m.pdf")

    assert format_for(written) == "pdf"
    assert written.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(
    "dpi", [0, 0.01, 1e-300, -1, math.nan, MAX_DPI + 1, math.inf, "200", None, True]
)
def test_the_dpi_must_be_a_number_from_1_to_the_maximum(dpi: Any) -> None:
    said = (  # below 1 a chart has no pixels (an empty PNG), or DOT reads the dpi as 0
        f"dpi takes a number of dots per inch from 1 to {MAX_DPI}, got {dpi!r} "
        f"({type(dpi).__name__})"
    )
    with pytest.raises(st.UsageError) as raised:
        render(to_dot(plot_samples.small()), "png", dpi=dpi)
    assert str(raised.value) == said
    with pytest.raises(st.UsageError) as raised:
        plot_bytes(plot_samples.small(), "svg", dpi=dpi)
    assert str(raised.value) == said


@pytest.mark.parametrize(("dpi", "written"), [(1e-5, "0.00001"), (1200.0, "1200"), (72.5, "72.5")])
def test_the_dpi_is_written_as_a_plain_decimal(dpi: float, written: str) -> None:
    assert f"graph [dpi={written}];" in with_dpi(to_dot(plot_samples.small()), dpi)


def test_writing_where_no_directory_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "no" / "m.dot"

    with pytest.raises(st.UsageError) as raised:
        write_plot(plot_samples.small(), target)

    assert str(raised.value) == f"cannot write {str(target)!r}: {os.strerror(errno.ENOENT)}"
    assert not target.parent.exists()
