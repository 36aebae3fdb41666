"""The statetree program: help a new user can follow, commands registered as values."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from statetree.cli import COMMANDS, EXIT_USAGE, Command, build_parser, main


def test_help_lists_the_commands_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])

    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    assert out.startswith("usage: statetree [-h] [--version] COMMAND ...")
    assert "plot      draw a machine's states and transitions" in out
    assert "check     validate a machine" in out
    assert "statetree plot game.states:CharacterStates.Alive -o character.svg" in out
    assert "Run 'statetree COMMAND --help'" in out


def test_command_help_explains_the_drawing(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["plot", "--help"])

    out = capsys.readouterr().out
    assert "MODULE[:STATE]" in out
    assert "bold arrows are inner-entry transitions" in " ".join(out.split())
    assert "-o FILE, --output FILE" in out


def test_no_command_prints_the_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == EXIT_USAGE
    assert capsys.readouterr().err.startswith("usage: statetree")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])

    assert capsys.readouterr().out.startswith("statetree ")


def test_commands_are_registered_in_order() -> None:
    assert [command.name for command in COMMANDS] == ["plot", "check", "run", "inspect"]


def test_a_new_command_is_one_value(capsys: pytest.CaptureFixture[str]) -> None:
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("name")

    def run(args: argparse.Namespace) -> int:
        print(f"hello {args.name}")
        return 0

    hello = Command("hello", "say hello", "Say hello to someone.", add_arguments, run)

    assert main(["hello", "you"], commands=[*COMMANDS, hello]) == 0
    assert capsys.readouterr().out == "hello you\n"
    assert "hello" in build_parser([*COMMANDS, hello]).format_help()


def test_python_dash_m_runs_the_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "statetree", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 0
    assert done.stdout.startswith("usage: statetree")
