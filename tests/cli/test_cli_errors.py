"""A user's mistake on the command line: one line each, exit status 2 or 1, never a traceback."""

from __future__ import annotations

import argparse
import errno
import io
import os
import sys
from pathlib import Path

import pytest

from statetree.cli import (
    COMMANDS,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    Command,
    main,
)

ROOT = Path(__file__).resolve().parents[2]
CHARTS = ROOT / "examples" / "charts"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_an_empty_target_names_no_module(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "") == (
        EXIT_USAGE,
        "",
        "statetree: error: '' names no module: give a dotted module name (game.states), "
        "a .py file or a chart file\n",
    )


def test_a_module_that_raises_is_named_with_its_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "helpers.py").write_text("def connect():\n    raise OSError('no database')\n")
    (tmp_path / "game.py").write_text("import helpers\n\nhelpers.connect()\n")

    status, _, err = run(capsys, "check", "game.py")

    assert status == EXIT_USAGE
    assert err == (
        "statetree: error: helpers.py:2: importing 'game.py' raised OSError: no database\n"
    )


def test_a_syntax_error_is_named_with_its_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "typo.py").write_text("x = 1\ndef broken(:\n")

    status, _, err = run(capsys, "plot", "typo.py")

    assert status == EXIT_USAGE
    assert err.startswith("statetree: error: typo.py:2: importing 'typo.py' raised SyntaxError")
    assert err.count("\n") == 1


def test_an_error_inside_a_library_names_the_users_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.py").write_text("import json\n\nSETTINGS = json.loads('{')\n")

    _, _, err = run(capsys, "check", "config.py")

    assert err.startswith("statetree: error: config.py:3: importing 'config.py' raised")


@pytest.mark.parametrize("command", ["check", "plot"])
def test_an_initial_states_that_raises_is_named_with_its_file_and_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.py").write_text(
        "import statetree as st\n\nclass Alive(st.State):\n    pass\n\n"
        "def initial_states():\n    return (Alive, Dead)\n"
    )

    status, out, err = run(capsys, command, "game.py")

    assert (status, out) == (EXIT_USAGE, "")
    assert err.startswith(
        "statetree: error: game.py:7: calling initial_states() of 'game.py' raised NameError: "
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["check", "plot"])
def test_a_module_getattr_that_raises_is_not_run_to_find_its_machines(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lazy.py").write_text(
        "import statetree as st\n\nclass Alive(st.State):\n    pass\n\n"
        "def __getattr__(name):\n    raise RuntimeError('computed lazily: ' + name)\n"
    )

    for target in ("lazy.py", "lazy.py:Alive"):
        status, out, err = run(capsys, command, target)

        assert (status, err) == (EXIT_OK, "")
        assert "Alive" in out


@pytest.mark.parametrize(
    ("code", "shown"),
    [("main()", "0"), ("'usage: game.py LEVEL'", "'usage: game.py LEVEL'"), ("3", "3")],
)
def test_a_module_that_exits_when_imported_is_named_with_its_file_and_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    code: str,
    shown: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    states = "import statetree as st\n\nclass Idle(st.State):\n    pass\n\n"
    script = f"def main():\n    return 0\n\nraise SystemExit({code})\n"
    (tmp_path / "game.py").write_text(states + script)

    status, out, err = run(capsys, "check", "game.py:Idle")

    assert (status, out) == (EXIT_USAGE, "")
    assert err == (
        f"statetree: error: game.py:9: importing 'game.py' exited (SystemExit({shown})): "
        "put the script's own run under if __name__ == '__main__': so that it can be imported\n"
    )


@pytest.mark.parametrize(
    ("raised", "shown"),
    [
        ("GeneratorExit('x')", "GeneratorExit: x"),
        ("__import__('pytest').skip('needs a GPU', allow_module_level=True)", "Skipped: needs"),
    ],
)
def test_a_module_raising_what_is_no_exception_is_named_too(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    raised: str,
    shown: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    statement = raised if "skip" in raised else f"raise {raised}"
    (tmp_path / "game.py").write_text(f"import statetree as st\n\n{statement}\n")

    status, out, err = run(capsys, "check", "game.py")

    assert (status, out) == (EXIT_USAGE, "")
    assert err.startswith(f"statetree: error: game.py:3: importing 'game.py' raised {shown}")
    assert err.count("\n") == 1


def test_a_full_disk_under_the_output_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Full:
        """Standard output on a full disk: every write fails."""

        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def flush(self) -> None:
            pass

        def fileno(self) -> int:
            raise io.UnsupportedOperation("no file descriptor")

    monkeypatch.setattr(sys, "stdout", Full())
    status = main(["check", str(CHARTS / "basic_attack.yaml")])

    assert status == EXIT_FAILED
    assert capsys.readouterr().err == (
        f"statetree: error: cannot write the output: {os.strerror(errno.ENOSPC)}\n"
    )


def test_writing_into_a_missing_directory_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "x.svg"

    status, out, err = run(capsys, "plot", "cli_samples:Good.Alive", "-o", str(target))

    assert (status, out) == (EXIT_USAGE, "")
    assert err == f"statetree: error: cannot write {str(target)!r}: {os.strerror(errno.ENOENT)}\n"


def test_a_yaml_chart_without_the_chart_extra_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("ruamel", "ruamel.yaml"):  # as if the package were not installed
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "statetree.chart.load_yaml", raising=False)
    chart = str(CHARTS / "combo_attack.yaml")

    for argv in (["check", chart], ["plot", chart], ["run", chart]):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (EXIT_FAILED, "")
        assert err.startswith("statetree: error: yaml charts need ruamel")
        assert err.endswith(": pip install 'statetree[chart]'\n")
        assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "nothere.yaml"], "no such chart file: 'nothere.yaml'"),
        (["check", "nothere.json"], "no such chart file: 'nothere.json'"),
        (["plot", "nothere.toml"], "no such chart file: 'nothere.toml'"),
        (
            ["run", str(CHARTS / "basic_attack.yaml"), "--events", "nope.events"],
            "no such events script: 'nope.events'",
        ),
        (
            ["check", "cli_samples:Good.Alive", "--registry", "examples/charts/game.py"],
            "--registry is for chart files; 'cli_samples:Good.Alive' is not one",
        ),
        (
            ["run", str(CHARTS / "basic_attack.yaml"), "--registry", "game.yaml"],
            "--registry takes the Python module (or .py file) that defines the chart's "
            "Registry (REGISTRY by default), not the chart file 'game.yaml'",
        ),
        (["plot", "cli_samples:Good.Alive", "-o", "x.jpg"], "cannot tell the plot format"),
        (
            ["plot", "cli_samples:Good.Alive", "-o", "x.png", "-f", "dot"],
            "--format dot does not match the file name 'x.png' (.png is png): leave --format "
            "out or change the name\n",
        ),
        (["run", str(ROOT)], f"{str(ROOT)!r} is a directory, not a chart file\n"),
        (
            ["plot", f"{CHARTS / 'basic_attack.yaml'}:Idle"],
            f"{str(CHARTS / 'basic_attack.yaml')!r} is a chart file: name it alone, without "
            ":NAME (a chart file holds one machine)\n",
        ),
        (
            ["check", str(CHARTS / "combo_attack.events")],
            f"{str(CHARTS / 'combo_attack.events')!r} is neither a chart file (.yaml, .yml, "
            ".toml, .json) nor a Python module or .py file (an events script goes to "
            "'statetree run CHART --events')\n",
        ),
        (
            ["check", "statetree:State"],
            "derive() needs a State subclass or a StateMachine, got State itself, the base "
            "class of every state: name a machine's initial state class\n",
        ),
        (
            ["inspect", "", "--port", "0", "--frames", "1"],
            "'' names no module: give a dotted module name (game.states), a .py file or a "
            "chart file\n",
        ),
        (
            ["run", str(CHARTS / "basic_attack.yaml"), "-e", str(ROOT)],
            f"{str(ROOT)!r} is a directory, not an events script\n",
        ),
        (
            ["net", "schema", "examples/net_character.py:CODEC", "--header", "path"],
            "--header is for a state class or a chart; 'examples/net_character.py:CODEC' is "
            "a codec, built with its own header mode: leave --header out\n",
        ),
        (
            ["net", "schema", "examples/bitmask_player.py:PLAYER_STATES", "--header", "leaf"],
            "--header is for a state class or a chart; 'examples/bitmask_player.py:"
            "PLAYER_STATES' is a bitmask definition: leave --header out\n",
        ),
    ],
)
def test_missing_files_and_misplaced_options_are_usage_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, *argv)

    assert status == EXIT_USAGE
    assert err.startswith(f"statetree: error: {message}")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["plot", "cli_samples:Good.Alive", "--dpi", "0"],
            "argument --dpi: needs a number above 0, got 0",
        ),
        (
            ["plot", "cli_samples:Good.Alive", "-o", ""],
            "argument -o/--output: needs a file name, got ''",
        ),
        (
            ["net", "schema", "cli_samples:Good.Alive", "-o", ""],
            "argument -o/--output: needs a file name, got ''",
        ),
        (
            ["plot", "cli_samples:Good.Alive", "--dpi", "x"],
            "argument --dpi: needs a number above 0; 'x' is not a number",
        ),
        (
            ["plot", "cli_samples:Good.Alive", "--dpi", "1e6"],
            "argument --dpi: needs 1 to 1200 dots per inch, got 1e6",
        ),
        (
            ["plot", "cli_samples:Good.Alive", "--dpi", "0.01"],
            "argument --dpi: needs 1 to 1200 dots per inch, got 0.01",
        ),
        (["run", "a.yaml", "--poll", "-1"], "argument --poll: needs a number above 0, got -1"),
        (
            ["run", "a.yaml", "--poll", "1e400"],
            "argument --poll: needs a number above 0; '1e400' is too large",
        ),
        (
            ["run", "a.yaml", "--poll", "nan"],
            "argument --poll: needs a number above 0; 'nan' is not a number",
        ),
    ],
)
def test_bad_option_values_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)

    assert exit_info.value.code == EXIT_USAGE
    assert capsys.readouterr().err.endswith(f"error: {message}\n")


def test_several_chart_problems_are_one_line_each_sorted_by_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    chart = tmp_path / "bad.json"
    chart.write_text(
        '{"version": 1, "name": "Bad", "root": {"name": "R", "states": [\n'
        '  {"name": "A", "transitions": [{"on": {"input": "X"}, "to": "Nowhere"}]},\n'
        '  {"name": "B", "enter": [{"start_timer": {"name": "T", "delay": "soon"}}]}\n'
        "]}}\n"
    )

    status, _, err = run(capsys, "run", str(chart))

    assert status == EXIT_FAILED
    assert err.splitlines() == [
        f"statetree: error: {chart}:2 at root.states[0].transitions[0].to: unknown state "
        "'Nowhere' in a transition of R.A; it can go to its siblings: A, B",
        f"statetree: error: {chart}:3 at root.states[1].enter[0].start_timer.delay: "
        "start_timer: 'delay' must be a number, got 'soon'",
    ]


def test_an_oversized_events_script_is_named_as_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from statetree.chart.text import MAX_CHART_SIZE

    events = tmp_path / "long.events"
    events.write_text("input Attack\n" * (MAX_CHART_SIZE // 10))

    status, out, err = run(capsys, "run", str(CHARTS / "basic_attack.yaml"), "-e", str(events))

    assert (status, out) == (EXIT_USAGE, "")  # a script that cannot be read, as a bad line
    assert err == (
        f"statetree: error: {events}: the file is larger than {MAX_CHART_SIZE:,} bytes, the "
        "limit of an events script\n"
    )


def test_a_typo_in_an_events_script_is_the_one_line_printed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    events = tmp_path / "typo.events"
    events.write_text("input BasicAttackButton\ntick 1\ninpt Jump\n")

    status, out, err = run(capsys, "run", str(CHARTS / "basic_attack.yaml"), "-e", str(events))

    assert (status, out) == (EXIT_USAGE, "")
    assert err == (
        f"statetree: error: {events}:3: unknown event kind 'inpt' (did you mean 'input'?); this "
        "chart's kinds are input, anim_finished, timer, event, held (and tick, hold, release)\n"
    )
    events.write_text("input BasicAttackButton\n")  # a good script: the note comes first
    status, out, err = run(capsys, "run", str(CHARTS / "basic_attack.yaml"), "-e", str(events))
    assert status == 0
    assert err.startswith("statetree: note: without --registry, the chart's own types (")


@pytest.mark.parametrize(
    ("argv", "target"),
    [
        (["plot", "{chart}", "-o", "{chart}", "-f", "dot"], "{chart}"),
        (["net", "schema", "{chart}", "-o", "{chart}"], "{chart}"),
        (["net", "schema", "{module}:CODEC", "-o", "{module}"], "{module}:CODEC"),
        (["net", "schema", "{chart}", "--registry", "{module}", "-o", "{module}"], "{module}"),
    ],
)
def test_an_output_that_is_the_targets_own_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], target: str
) -> None:
    chart = tmp_path / "attack.json"
    chart.write_bytes((CHARTS / "basic_attack.json").read_bytes())
    module = tmp_path / "codec.py"
    module.write_text("from statetree import net\n")
    before = {path: path.read_bytes() for path in (chart, module)}
    named = {"chart": str(chart), "module": str(module)}

    status, out, err = run(capsys, *(arg.format(**named) for arg in argv))

    output = argv[argv.index("-o") + 1].format(**named)
    assert (status, out) == (EXIT_USAGE, "")
    role = "--registry" if "--registry" in argv else "target"
    assert err == (
        f"statetree: error: -o {output!r} is the file of the {role} "
        f"{target.format(**named)!r}: writing the output there would replace it; give "
        "another file name\n"
    )
    assert {path: path.read_bytes() for path in (chart, module)} == before


def command_raising(error: BaseException) -> Command:
    def fail(args: argparse.Namespace) -> int:
        raise error

    return Command("fail", "fail", "Fail.", lambda parser: None, fail)


def test_ctrl_c_stops_quietly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fail"], commands=[command_raising(KeyboardInterrupt())]) == EXIT_INTERRUPTED
    assert capsys.readouterr().err == ""


def test_a_closed_pipe_stops_quietly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fail"], commands=[command_raising(BrokenPipeError())]) == EXIT_FAILED
    assert capsys.readouterr().err == ""


def test_a_bug_still_shows_its_traceback() -> None:
    # Only the user's mistakes are turned into messages; statetree's own bugs are not hidden.
    with pytest.raises(ZeroDivisionError):
        main(["fail"], commands=[*COMMANDS, command_raising(ZeroDivisionError())])


def test_help_shows_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("plot", "run"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())

    assert "the resolution of a PNG, in dots per inch, from 1 to 1200 (default: 144)" in out
    assert "how often --watch looks at the file (default: 0.5)" in out
    assert "trace level (default: basic)" in out
    assert "(default: None)" not in out
    assert "(default: False)" not in out


def test_a_missing_import_inside_the_users_module_is_named_where_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.py").write_text("import math\nimport pygame_not_installed\n")

    _, _, err = run(capsys, "check", "game.py")

    assert err == (
        "statetree: error: game.py:2: cannot import 'game.py': "
        "No module named 'pygame_not_installed'\n"
    )
