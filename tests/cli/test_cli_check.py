"""statetree check: a validation report, and an exit status CI can use."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from statetree.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main


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
        "Broken.Root: 1 state, 1 transition",
    ]
    assert status == EXIT_FAILED


def test_a_state_defined_next_to_a_machine_is_reported_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Lost.Orphan is unreachable from Lost.Root: a warning of that machine, not a machine
    # of its own whose report would repeat every problem of the group.
    _, out = run(capsys, "check", "cli_samples")

    assert out.count("Lost.Orphan") == 1
    assert "Lost.Orphan is not reachable from the initial state Lost.Root" in out


ROOT = Path(__file__).resolve().parents[2]
COMBO = str(ROOT / "examples" / "charts" / "combo_attack.yaml")
GAME = str(ROOT / "examples" / "charts" / "game.py")

MISTAKES = """\
version: 1
name: Mistakes
root:
  name: Character
  states:
    - name: Idle
      enter:
        - play_animation: {name: Idle, loop: "yes"}
        - explode: {}
      transitions:
        - {on: {inptu: Attack}, to: Attack}
    - name: Attack
      enter:
        - start_timer: {name: Swing, delay: soon}
"""


def test_a_chart_without_registry_is_checked_for_everything_built_in(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mistakes.yaml").write_text(MISTAKES)

    status, out = run(capsys, "check", "mistakes.yaml")

    assert status == EXIT_FAILED
    assert out.splitlines() == [
        "Character: 3 states, 2 transitions",
        "  error: mistakes.yaml:14: start_timer: 'delay' must be a number, got 'soon' [chart]",
        "  warning: mistakes.yaml:8: action type 'play_animation' is not built in: "
        "not checked without --registry [not-checked]",
        "  warning: mistakes.yaml:9: action type 'explode' is not built in: "
        "not checked without --registry [not-checked]",
        "  warning: mistakes.yaml:11: trigger type 'inptu' is not built in "
        "(did you mean 'input'?): not checked without --registry [not-checked]",
        "  1 error, 3 warnings",
    ]


@pytest.mark.parametrize(
    ("enter", "refused"),
    [
        ('[{play: {x: true}}, {play: {x: "a"}}]', None),  # a type taken as the chart uses it
        ("[{boom: [1, 2]}]", "a parameter is a scalar, got a list"),
        ('[{play: {"": Idle}}]', "play() has no parameter ''"),
    ],
)
def test_check_without_registry_takes_a_chart_as_run_does(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    enter: str,
    refused: str | None,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("odd.yaml").write_text(f"name: Odd\nroot:\n  name: R\n  enter: {enter}\n")
    Path("none.events").write_text("")

    status, out = run(capsys, "check", "odd.yaml")
    ran = main(["run", "odd.yaml", "-e", "none.events"])
    err = capsys.readouterr().err

    assert (status, ran) == ((EXIT_OK, EXIT_OK) if refused is None else (EXIT_FAILED,) * 2)
    if refused is not None:
        assert f"  error: odd.yaml:4: {refused} [chart]" in out.splitlines()
        assert f": {refused}" in err


def test_a_host_name_close_to_one_used_more_often_is_likely_a_typo(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("door.yaml").write_text(
        "name: Door\nroot:\n  name: Top\n  enter: [play_sound, play_sound]\n"
        "  exit: [play_sund, play_sound]\n"
    )

    status, out = run(capsys, "check", "door.yaml")

    assert status == EXIT_OK
    assert out.splitlines()[1:3] == [
        "  warning: door.yaml:4: action type 'play_sound' is not built in, 3 uses: "
        "not checked without --registry [not-checked]",
        "  warning: door.yaml:5: action type 'play_sund' is not built in "
        "(did you mean 'play_sound'?): not checked without --registry [not-checked]",
    ]


def test_the_hosts_registry_turns_the_warnings_into_checks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mistakes.yaml").write_text(MISTAKES)

    status, out = run(capsys, "check", "mistakes.yaml", "--registry", GAME)

    assert status == EXIT_FAILED
    assert [line.split(": ", 2)[1] for line in out.splitlines()[1:-1]] == [
        "mistakes.yaml:8",
        "mistakes.yaml:9",
        "mistakes.yaml:11",
        "mistakes.yaml:14",
    ]
    assert "play_animation: 'loop' must be a boolean, got 'yes' [chart]" in out
    assert "unknown trigger type 'inptu'; known: input" in out
    assert out.endswith("  4 errors, 0 warnings\n")


def test_names_only_the_host_defines_fail_only_with_strict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run(capsys, "check", COMBO)

    assert status == EXIT_OK
    assert out.count("[not-checked]") == 4
    assert "action type 'play_animation' is not built in, 5 uses" in out
    assert run(capsys, "check", COMBO, "--strict")[0] == EXIT_FAILED
    assert run(capsys, "check", COMBO, "--registry", GAME, "--strict") == (
        EXIT_OK,
        "Character: 16 states, 16 transitions\n  0 errors, 0 warnings\n",
    )


def test_a_chart_state_nothing_leads_to_is_unreachable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("lost.json").write_text(
        '{"version": 1, "name": "Lost", "root": {"name": "R", "states": [\n'
        '  {"name": "A"},\n'
        '  {"name": "Forgotten"}\n'
        "]}}\n"
    )

    status, out = run(capsys, "check", "lost.json", "--strict")

    assert status == EXIT_FAILED
    assert (
        "  warning: lost.json:3: R.Forgotten is not reachable from the initial state R "
        "[unreachable]\n"
    ) in out


def test_a_chart_that_does_not_parse(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("broken.yaml").write_text("root: [\n")

    assert run(capsys, "check", "broken.yaml") == (
        EXIT_FAILED,
        "broken.yaml: does not load\n"
        "  error: broken.yaml:2: not valid YAML: did not find expected node content [chart]\n"
        "  1 error, 0 warnings\n",
    )


@pytest.mark.parametrize(
    "case",
    [
        ("twice.yaml", "name: R\nroot:\n  name: R\n  states:\n    - name: A\n    - name: A\n", 6),
        ("twice.json", '{"name": "R", "root": {"name": "R", "states": [{"name": "A"},\n'
         '{"name": "A"}]}}', 2),
    ],
)  # fmt: skip
def test_a_chart_with_two_states_of_one_name_is_reported_at_its_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: tuple[str, str, int],
) -> None:
    name, text, line = case  # the file, its text, the line of the second 'A'
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(text)

    assert run(capsys, "check", name) == (
        EXIT_FAILED,
        f"{name}: does not load\n"
        f"  error: {name}:{line}: R has two children named 'A' [chart]\n"
        "  1 error, 0 warnings\n",
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
def test_a_chart_path_that_is_a_pipe_is_refused_without_waiting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkfifo("pipe.yaml")

    assert main(["check", "pipe.yaml"]) == EXIT_USAGE
    assert capsys.readouterr().err == "statetree: error: no regular chart file: 'pipe.yaml'\n"


def test_the_book_samples_named_in_the_help_pass_strict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run(capsys, "check", str(ROOT / "examples/book/reusable_states.py"), "--strict")

    assert (status, out) == (
        EXIT_OK,
        "CharacterStates.Alive: 5 states, 6 transitions\n  0 errors, 0 warnings\n",
    )


def test_a_bitmask_definition_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", str(ROOT / "examples/bitmask_player.py")) == (
        EXIT_OK,
        "Player (bitmask): 7 states, 17 rules\n  0 errors, 0 warnings\n",
    )


def test_a_bitmask_state_that_can_never_be_active_is_a_warning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run(capsys, "check", "cli_samples:NEVER", "--strict")

    assert status == EXIT_FAILED
    assert out.splitlines() == [
        "Stances (bitmask): 4 states, 5 rules",
        "  warning: Aimed can never be active: it needs Aiming, Sprinting, Aimed active "
        "together, and Aiming and Sprinting exclude each other (terminates or blocked_by) "
        "[never-active]",
        "  0 errors, 1 warning",
    ]


@pytest.mark.parametrize("spelled", ["./cli_samples.py", "../cli/cli_samples.py"])
def test_a_py_file_may_be_named_relative_to_here(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, spelled: str
) -> None:
    monkeypatch.chdir(Path(__file__).parent)  # as a shell's completion spells it
    assert run(capsys, "check", f"{spelled}:Good.Alive") == (
        EXIT_OK,
        "Good.Alive: 2 states, 1 transition\n  0 errors, 0 warnings\n",
    )
