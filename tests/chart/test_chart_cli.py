"""``statetree run``, watching a file, and chart files for ``plot`` and ``check``."""

from __future__ import annotations

import os
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
    status, _, err = run(capsys, BASIC, "--events", str(CHARTS / "basic_attack.events"))
    assert status == 1
    assert "unknown action type 'play_animation'" in err
    script = tmp_path / "bad.events"
    script.write_text("input Go\ntick soon\n")
    status, _, err = run(capsys, BASIC, "--registry", GAME_FILE, "--events", str(script))
    assert status == 2
    assert f"{script}:2: tick needs a time of at least 0, got 'soon'" in err
    with pytest.raises(LoadError, match="not a chart Registry"):
        load_registry(f"{GAME_FILE}:annotations")


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
        (alive, "Character.Alive.Idle", K.INNER),
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
