"""The statetree program: help a new user can follow, commands registered as values."""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import statetree
from statetree.chart.loading import load
from statetree.cli import COMMANDS, EXIT_USAGE, Command, build_parser, main
from statetree.cli.check_command import check_target
from statetree.cli.structures import is_chart_file, load_plottables, load_registry
from statetree.targets import attribute_of, existing_file, import_target_module, split_target


def test_help_lists_the_commands_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])

    # The words the program chose, not argparse's layout (which changes between versions).
    out = " ".join(capsys.readouterr().out.split())
    assert exit_info.value.code == 0
    assert out.startswith("usage: statetree [-h] [--version] COMMAND ...")
    assert "plot draw a machine's states and transitions" in out
    assert "check validate a machine" in out
    assert "statetree plot examples/plot_character.py -o character.svg" in out
    assert "Run 'statetree COMMAND --help'" in out


def test_command_help_explains_the_drawing(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["plot", "--help"])

    out = " ".join(capsys.readouterr().out.split())
    assert "MODULE[:STATE]" in out
    assert "bold arrows are inner-entry transitions" in out
    # "-o FILE, --output FILE" before Python 3.13, "-o, --output FILE" since: the words only.
    assert re.search(r"-o( FILE)?, --output FILE", out)


def test_no_command_prints_the_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == EXIT_USAGE
    assert capsys.readouterr().err.startswith("usage: statetree")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])

    build = "compiled with Cython" if statetree.__compiled__ else "pure Python"
    assert capsys.readouterr().out == f"statetree {statetree.__version__} ({build})\n"


def test_commands_are_registered_in_order() -> None:
    assert [command.name for command in COMMANDS] == ["plot", "check", "run", "inspect", "net"]


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


ROOT = Path(__file__).resolve().parents[2]


def _resolve_plot(args: argparse.Namespace) -> None:
    assert len(load_plottables(args.target, args.registry)) == 1


def _resolve_check(args: argparse.Namespace) -> None:
    assert list(check_target(args.target, args.registry))


def _resolve_run(args: argparse.Namespace) -> None:
    load(existing_file(args.chart), load_registry(args.registry))
    if args.events is not None:
        existing_file(args.events)


def _resolve_inspect(args: argparse.Namespace) -> None:
    if is_chart_file(args.target):
        existing_file(args.target)
        return
    module, name = split_target(args.target)
    attribute_of(import_target_module(module), name)


RESOLVERS = {
    "plot": _resolve_plot,
    "check": _resolve_check,
    "run": _resolve_run,
    "inspect": _resolve_inspect,
}

EXAMPLES = [
    pytest.param(command.name, example, id=example)
    for command in COMMANDS
    for example in command.examples
]


@pytest.mark.parametrize(("name", "example"), EXAMPLES)
def test_help_examples_name_real_files_of_the_project(
    name: str, example: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(example)
    assert argv[0] == "statetree"
    args = build_parser().parse_args(argv[1:])

    assert args.command == name
    RESOLVERS.get(name, lambda args: None)(args)
