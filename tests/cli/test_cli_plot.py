"""statetree plot: files by extension, standard output, one-line errors."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import cli_samples
import pytest

from statetree.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main

SAMPLES = str(Path(cli_samples.__file__).resolve())
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_plot_to_dot_and_mermaid_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    dot, mermaid = tmp_path / "m.dot", tmp_path / "m.mmd"

    assert run(capsys, "plot", "cli_samples:Good.Alive", "-o", str(dot))[:2] == (
        EXIT_OK,
        f"wrote {dot}\n",
    )
    assert run(capsys, "plot", "cli_samples:Good.Alive", "-o", str(mermaid))[0] == EXIT_OK
    assert dot.read_text().startswith('digraph "Good.Alive" {')
    assert '"Good.Alive" -> "Good.Stand" [style=bold];' in dot.read_text()
    assert mermaid.read_text().startswith("flowchart TD\n")


def test_plot_without_output_writes_dot_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "plot", f"{SAMPLES}:Good.Alive")

    assert status == EXIT_OK
    assert out.startswith('digraph "Good.Alive" {')


def test_plot_format_option_wins(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["plot", "cli_samples:Good.Alive", "--format", "mmd"]) == EXIT_OK
    assert capsysbinary.readouterr().out.startswith(b"flowchart TD\n")


@needs_dot
def test_plot_svg_and_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("graphviz", reason="SVG and PNG need the graphviz package (extra 'plot')")
    svg, png = tmp_path / "m.svg", tmp_path / "m.png"

    assert run(capsys, "plot", f"{SAMPLES}:Good.Alive", "-o", str(svg))[0] == EXIT_OK
    assert run(capsys, "plot", f"{SAMPLES}:Good.Alive", "-o", str(png))[0] == EXIT_OK
    assert b"Stand (1)" in svg.read_bytes()
    assert png.read_bytes().startswith(b"\x89PNG")


def test_a_module_with_one_machine_needs_no_state_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    single = tmp_path / "single.py"
    single.write_text("import statetree as st\n\nclass Only(st.State[None]):\n    pass\n")

    status, _, err = run(capsys, "plot", str(single), "-o", str(tmp_path / "m.dot"))

    assert (status, err) == (EXIT_OK, "")
    assert 'label="Only (0)"' in (tmp_path / "m.dot").read_text()


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("no_such_module:A", "cannot import 'no_such_module': No module named 'no_such_module'"),
        ("missing/file.py:A", "no such file: 'missing/file.py'"),
        (
            "cli_samples:Good.Nope",
            "cli_samples.Good has no attribute 'Nope' (looking for 'Good.Nope'); its machines: "
            "cli_samples:Good.Alive",
        ),
        (
            "cli_samples:helper",
            "'cli_samples:helper' is not a State subclass or a BitmaskDefinition (its type is "
            "function)",
        ),
        (
            "cli_samples:Good",
            "'cli_samples:Good' is a class that does not derive from statetree.State; its "
            "machines: cli_samples:Good.Alive",
        ),
        ("cli_empty", "'cli_empty' defines no state classes and no bitmask definition"),
        (
            "cli_samples:Nope",
            "cli_samples has no attribute 'Nope' (looking for 'Nope'); its machines: "
            "cli_samples:Good.Alive, cli_samples:Lost.Root, cli_samples:Broken.Root, "
            "cli_samples:NEVER",
        ),
        (
            "diagram.svg",
            "'diagram.svg' names a drawing, not a machine: a plot's output goes after -o "
            "(statetree plot TARGET -o diagram.svg)",
        ),
        (
            "cli_raises",
            "tests/cli/cli_raises.py:3: importing 'cli_raises' raised RuntimeError: no database",
        ),
        (
            "cli_samples",
            "'cli_samples' defines several machines (Good.Alive, Lost.Root, Broken.Root); "
            "name one, e.g. cli_samples:Good.Alive",
        ),
        (
            "cli_samples:",
            "'cli_samples:' defines several machines (Good.Alive, Lost.Root, Broken.Root); "
            "name one, e.g. cli_samples:Good.Alive",
        ),
    ],
)
def test_bad_targets_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], target: str, message: str
) -> None:
    status, out, err = run(capsys, "plot", target, "-o", "unused.dot")

    assert (status, out) == (EXIT_USAGE, "")
    assert err == f"statetree: error: {message}\n"


def test_unknown_extension_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "plot", "cli_samples:Good.Alive", "-o", "m.jpg")

    assert status == EXIT_USAGE
    assert err.startswith("statetree: error: cannot tell the plot format of 'm.jpg'")
    assert err.count("\n") == 1


def test_missing_graphviz_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)

    status, _, err = run(capsys, "plot", "cli_samples:Good.Alive", "-o", str(tmp_path / "m.svg"))

    assert status == EXIT_FAILED
    assert err.startswith("statetree: error: SVG, PNG and PDF plots need the graphviz package")
    assert err.count("\n") == 1
    assert not (tmp_path / "m.svg").exists()
