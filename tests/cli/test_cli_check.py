"""statetree check: a validation report, and an exit status CI can use."""

from __future__ import annotations

import pytest

from statetree.cli import EXIT_FAILED, EXIT_OK, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().out


def test_a_sound_machine_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "cli_samples:Good.Alive") == (
        EXIT_OK,
        "Good.Alive: 2 states, 1 transition\n  0 errors, 0 warnings\n",
    )


def test_warnings_pass_unless_strict(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "check", "cli_samples:Lost.Root")

    assert status == EXIT_OK
    assert "warning: " in out
    assert "Lost.Orphan is not reachable from the initial state Lost.Root [unreachable]" in out
    assert run(capsys, "check", "cli_samples:Lost.Root", "--strict")[0] == EXIT_FAILED


def test_errors_fail(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "check", "cli_samples:Broken.Root")

    assert status == EXIT_FAILED
    assert "the target 'Broken.Missing' is not a state of this machine [unknown-target]" in out
    assert out.endswith("  1 error, 0 warnings\n")


def test_a_module_alone_checks_each_of_its_machines(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "check", "cli_samples")

    headings = [line for line in out.splitlines() if not line.startswith(" ")]
    assert headings == [
        "Good.Alive: 2 states, 1 transition",
        "Lost.Root: 2 states, 0 transitions",
        "Lost.Orphan: 2 states, 0 transitions",
        "Broken.Root: 1 state, 1 transition",
    ]
    assert status == EXIT_FAILED
