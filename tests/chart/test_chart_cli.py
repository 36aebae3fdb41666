"""``statetree run``, watching a file, and chart files for ``plot`` and ``check``."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from chart_samples import CHARTS, GAME, ROOT

from statetree import TransitionKind as K
from statetree.chart import ChartError, ChartWatcher, load
from statetree.chart.session import ChartSession, watch
from statetree.cli import main
from statetree.cli.run_command import RUN_COMMAND
from statetree.cli.structures import chart_file_structure, is_chart_file, load_registry
from statetree.targets import LoadError

BASIC = str(CHARTS / "basic_attack.yaml")
GAME_FILE = str(CHARTS / "game.py")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(["run", *argv], commands=(RUN_COMMAND,))
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def test_run_prints_each_event_the_trace_and_the_actions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    events = str(CHARTS / "basic_attack.events")
    status, out, _ = run(capsys, BASIC, "--registry", GAME_FILE, "--events", events)
    assert status == 0
    assert out == [
        "HSM_1_BasicAttack: Init    : Character",
        "HSM_1_BasicAttack:  Inner   : Character.Idle",
        "  enter Character.Idle: play_animation(name='Idle', loop=True)",
        "> input BasicAttackButton",
        "HSM_1_BasicAttack:  Inner   : Character.BasicAttack",
        "  enter Character.BasicAttack: play_animation(name='BasicAttack', loop=False)",
        "  enter Character.BasicAttack: play_sound(name='BasicAttack', loop=False)",
        "  enter Character.BasicAttack: enable_damage_collision(name='BasicAttack', damage=1.0)",
        "> input BasicAttackButton",
        "> anim_finished Idle",
        "> anim_finished BasicAttack",
        "  exit Character.BasicAttack: disable_damage_collision(name='BasicAttack')",
        "HSM_1_BasicAttack:  Inner   : Character.Idle",
        "  enter Character.Idle: play_animation(name='Idle', loop=True)",
        "active: Character, Character.Idle",
    ]


def test_run_reports_bad_charts_scripts_and_registries(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        Path(BASIC)
        .read_text()
        .replace("    - name: Idle ", "    - name: Idle\n      pre: {input: Rest}\n ")
    )
    status, out, err = run(capsys, str(broken), "--events", str(CHARTS / "basic_attack.events"))
    assert (status, out) == (1, [])
    assert "priority state Character has no ground state" in err
    script = tmp_path / "bad.events"
    script.write_text("input Go\ntick soon\n")
    status, out, err = run(capsys, BASIC, "--registry", GAME_FILE, "--events", str(script))
    assert (status, out) == (2, [])
    assert err == (
        f"statetree: error: {script}:2: tick needs a number of seconds, 0 or more (tick 0.5); "
        "'soon' is not a number\n"
    )
    with pytest.raises(LoadError, match="not a chart Registry"):
        load_registry(f"{GAME_FILE}:annotations")


def test_run_takes_a_chart_without_its_registry_as_check_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    events = str(CHARTS / "combo_attack.events")
    combo = str(CHARTS / "combo_attack.yaml")
    status, alone, err = run(capsys, combo, "--events", events)
    assert status == 0
    assert err == (
        "statetree: note: without --registry, the chart's own types (enable_damage_collision, "
        "disable_damage_collision, play_animation, play_sound) are taken as it uses them (host "
        "actions only print)\n"
    )
    status, hosted, err = run(capsys, combo, "--registry", GAME_FILE, "--events", events)
    assert (status, err) == (0, "")
    # The same steps and transitions; only the host's parameters differ.
    steps = [line for line in alone if not line.startswith("  ")]
    assert steps == [line for line in hosted if not line.startswith("  ")]
    assert len(steps) > 20
    exit_attack = "  exit Character.Alive.ComboAttack.ComboAttack1: "
    assert f"{exit_attack}disable_damage_collision(value='ComboAttack1')" in alone
    assert main(["check", combo]) == 0


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "inpt Jump",
            "unknown event kind 'inpt' (did you mean 'input'?); this chart's kinds are input, "
            "anim_finished, timer, event, held (and tick, hold, release)",
        ),
        (
            "tick 1e400",
            "tick needs a number of seconds, 0 or more (tick 0.5); '1e400' is too large",
        ),
        (
            "tick -2",
            "tick needs a number of seconds, 0 or more (tick 0.5); time does not go back, got '-2'",
        ),
        (
            "held Jump",
            "held is a level trigger, held on and off: write 'hold Jump' or 'release Jump'",
        ),
        (
            "hold input Jump",
            "input is not a level trigger, so it cannot be held: send it with 'input Jump'",
        ),
        ("input A\0B", "the line holds the control character U+0000"),
        ("input A\x0cB", "the line holds the control character U+000C"),  # a form feed
        ("input A\x85B", "the line holds the control character U+0085"),  # not a line end
        (
            "tick " + "9" * 4000,
            "tick needs a number of seconds, 0 or more (tick 0.5); '" + "9" * 60 + "...' is "
            "too large",
        ),
    ],
)
def test_a_bad_script_line_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, message: str
) -> None:
    script = tmp_path / "typo.events"
    script.write_text(f"input BasicAttackButton\n# a comment\n{line}\n")
    status, out, err = run(capsys, BASIC, "-r", GAME_FILE, "-e", str(script))
    assert (status, out) == (2, [])
    assert err == f"statetree: error: {script}:3: {message}\n"


def test_a_script_counts_its_lines_as_an_editor_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "typo.events"  # a line separator in a comment ends no line
    script.write_text("# fire\u2028then wait\r\ninput BasicAttackButton\ninpt Jump\n")
    status, _, err = run(capsys, BASIC, "-r", GAME_FILE, "-e", str(script))
    assert status == 2
    assert err.startswith(f"statetree: error: {script}:3: unknown event kind 'inpt'")


def test_a_script_saved_with_a_byte_order_mark_plays_as_without(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain, marked = tmp_path / "plain.events", tmp_path / "marked.events"
    text = (CHARTS / "basic_attack.events").read_text(encoding="utf-8")
    plain.write_text(text, encoding="utf-8")
    marked.write_text(text, encoding="utf-8-sig")

    played = run(capsys, BASIC, "-r", GAME_FILE, "-e", str(plain))

    assert played[0] == 0 and "> input BasicAttackButton" in played[1]
    assert run(capsys, BASIC, "-r", GAME_FILE, "-e", str(marked)) == played


def test_a_script_that_is_not_utf8_is_refused_at_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "latin.events"
    script.write_bytes("input BasicAttackButton\ninput Caf\u00e9\n".encode("latin-1"))

    status, out, err = run(capsys, BASIC, "-r", GAME_FILE, "-e", str(script))

    assert (status, out) == (2, [])  # as a script line that cannot be read
    assert err == (
        f"statetree: error: {script}:2: not UTF-8 text: byte 0xe9 at column 10; save the file "
        "as UTF-8\n"
    )


def test_the_platformer_runs_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    registry = str(ROOT / "examples" / "chart_platformer.py")
    chart, events = CHARTS / "platformer.yaml", CHARTS / "platformer.events"
    status, out, _ = run(capsys, str(chart), "-r", registry, "-e", str(events))
    assert status == 0
    assert out[-1] == "active: Hero, Hero.Legs, Hero.Legs.Standing, Hero.Arms, Hero.Arms.Relaxed"


class FakeFile:
    """A chart file whose modification time and bytes the test sets."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.time = 1

    def save(self, text: str, touch: bool = True) -> None:
        self.path.write_text(text)
        self.time += touch

    def mtime(self, path: Path) -> int:
        return self.time


def test_watch_reloads_changed_files_and_survives_bad_ones(tmp_path: Path) -> None:
    chart = tmp_path / "basic.yaml"
    text = Path(BASIC).read_text()
    fake = FakeFile(chart)
    fake.save(text)
    out: list[str] = []
    session = ChartSession(load(chart, GAME), out.append)
    watcher = ChartWatcher(chart, GAME, mtime=fake.mtime)
    session.play([])
    lines = iter(["input BasicAttackButton\n", None, None, "anim_finished BasicAttack\n"])

    def edits() -> object:
        for index, line in enumerate(lines):
            if index == 1:
                fake.save(text)  # touched, same content: no reload
            if index == 2:
                fake.save(text.replace("damage: 1.0", "damage: oops"))
            if index == 3:
                fake.save(text.replace("damage: 1.0", "damage: 2.0"))
            yield line

    out.clear()
    watch(session, watcher, edits())  # type: ignore[arg-type]
    assert out[0] == "> input BasicAttackButton"
    assert out[5].startswith("! not reloaded: ")
    assert "'damage' must be a number, got 'oops'" in out[5]
    # The attack's enter actions changed: it is exited, and without its input the
    # priority parent now chooses the ground state.
    assert out[6:] == [
        f"> reload {chart}",
        "  exit Character.BasicAttack: disable_damage_collision(name='BasicAttack')",
        "HSM_1_BasicAttack:  Inner   : Character.Idle",
        "  enter Character.Idle: play_animation(name='Idle', loop=True)",
        "  exited: Character.BasicAttack",
        "  entered: Character.Idle",
        "> anim_finished BasicAttack",
    ]


def test_a_real_file_is_watched_by_time_and_content(tmp_path: Path) -> None:
    chart = tmp_path / "basic.yaml"
    chart.write_text(Path(BASIC).read_text())
    watcher = ChartWatcher(chart, GAME)
    assert watcher.poll() is None
    chart.write_text(chart.read_text().replace("damage: 1.0", "damage: 3.0"))
    os.utime(chart, ns=(1, 10**18))
    reloaded = watcher.poll()
    assert reloaded is not None
    assert reloaded.root.states[0].enter[2].arguments["damage"] == 3.0
    assert watcher.poll() is None


def test_chart_files_have_a_structure_for_plot_and_check() -> None:
    assert is_chart_file("a/b.yaml") and is_chart_file("c.JSON") and not is_chart_file("m.py")
    structure = chart_file_structure(str(CHARTS / "combo_attack.yaml"))
    alive, combo = "Character.Alive", "Character.Alive.ComboAttack"
    edges = {(e.source, e.target, e.kind) for e in structure.edges}
    assert {
        ("Character", alive, K.INNER_ENTRY),
        (alive, "Character.Dead", K.SIBLING),
        (alive, combo, K.INNER),
        (alive, "Character.Alive.Idle", K.INNER_ENTRY),
        (combo, f"{combo}.ComboAttack1", K.INNER_ENTRY),
        (combo, f"{combo}.ComboAttack2", K.INNER),
        (combo, f"{combo}.ComboAttack3", K.INNER),
        (f"{combo}.ComboAttack1.Pre", f"{combo}.ComboAttack1.Window", K.SIBLING),
    } <= edges
    # Only the first child is entered; Dead is reached by Alive's transition, not by entry.
    assert ("Character", "Character.Dead", K.INNER_ENTRY) not in edges
    assert (combo, f"{combo}.ComboAttack2", K.INNER_ENTRY) not in edges
    assert structure.validate().ok
    assert structure.depth(f"{combo}.ComboAttack1.Pre") == 4
    assert structure.state(combo).location is not None
    assert structure.state(combo).location.line == 45  # type: ignore[union-attr]


def test_concurrent_children_are_region_edges() -> None:
    structure = chart_file_structure(str(CHARTS / "platformer.yaml"))
    assert {(e.target, e.kind) for e in structure.edges_from("Hero")} == {
        ("Hero.Legs", K.CONCURRENT),
        ("Hero.Arms", K.CONCURRENT),
    }


def test_a_structure_still_needs_a_valid_chart(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "X", "root": {"name": "R", "policy": "priority"}}')
    with pytest.raises(ChartError, match="priority state with no children"):
        chart_file_structure(str(bad))


class _Piped(io.TextIOWrapper):
    """Standard input a pipe feeds: bytes underneath, not a terminal."""

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize(
    ("data", "status", "said"),
    [
        ("\ufeffinput BasicAttackButton\n".encode(), 0, ""),  # a byte order mark, as a file's
        (
            "input BasicAttackButton\ninput Caf\u00e9\n".encode("latin-1"),
            2,
            "statetree: error: <stdin>:2: not UTF-8 text: byte 0xe9 at column 10; save the "
            "file as UTF-8\n",
        ),
    ],
)
def test_a_piped_script_is_read_as_a_script_file_is(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data: bytes,
    status: int,
    said: str,
) -> None:
    monkeypatch.setattr(sys, "stdin", _Piped(io.BytesIO(data), encoding="utf-8"))
    ran, out, err = run(capsys, BASIC, "-r", GAME_FILE)
    assert (ran, err) == (status, said)
    if status == 0:
        assert out[-1] == "active: Character, Character.BasicAttack"


def test_a_target_that_is_no_chart_file_cannot_run(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(CHARTS / "basic_attack.events"))
    assert (status, out) == (2, [])  # as statetree check says of it
    assert err.endswith("not a chart file: use one of .yaml, .yml, .toml, .json\n")


def test_a_step_the_machine_refuses_is_named_with_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "late.events"
    script.write_text("tick 1.7e308\ntick 1.7e308\n")  # the second would overflow the clock
    status, _, err = run(capsys, BASIC, "-r", GAME_FILE, "-e", str(script))
    assert status == 2
    assert err == (
        f"statetree: error: {script}:2: tick(1.7e+308): the clock (1.7e+308) would pass the "
        "largest float\n"
    )
