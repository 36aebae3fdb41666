"""Watching a chart file: broken saves are reported, the old chart runs on, good saves apply."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest
from chart_samples import CHARTS, GAME

from statetree.chart import ChartError, ChartWatcher, load
from statetree.chart.session import ChartSession, watch

TEXT = (CHARTS / "basic_attack.yaml").read_text()
GOOD = TEXT.replace("damage: 1.0", "damage: 2.0")

# Saves that must each be reported with their line, the running chart kept.
BROKEN: dict[str, tuple[bytes, int | None]] = {
    "merge key": (TEXT.replace("  name: Character\n", "  <<: {name: A}\n").encode(), 6),
    "omap": (TEXT.replace("root:\n", "root: !!omap\n").encode(), 5),
    "python object": (TEXT.replace("root:\n", "root: !!python/object:os.system\n").encode(), 5),
    "unknown tag": (TEXT.replace("name: Idle", "name: !State Idle").encode(), 18),
    "deep flow": (TEXT.replace("name: Idle", "name: " + "[" * 300 + "]" * 300).encode(), 18),
    "long integer": (TEXT.replace("damage: 1.0", "damage: " + "9" * 5000).encode(), 15),
    "not UTF-8": (TEXT.replace("Idle", "Idl\xe9").encode("latin-1"), 2),
    "UTF-16": (TEXT.encode("utf-16"), 1),
    "NUL byte": (TEXT.replace("name: Idle", "name: Id\x00le").encode(), 18),
    "alias bomb": (b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a]\n", 2),
    # The line of an unclosed flow list is where ruamel.yaml gives up, which its versions differ on.
    "half typed": (TEXT[: TEXT.index("enter:")].encode() + b"enter: [play_anim", None),
    "wrong type": (TEXT.replace("damage: 1.0", "damage: oops").encode(), 15),
    "empty": (b"", 1),
    "too large": (b"#" * (1 << 20), 0),
}


# A valid chart that never settles: Idle raises Attack, which BasicAttack answers by
# raising Attack again, which ends it.
LOOPING = """\
name: BasicAttack
root:
  name: Character
  policy: priority
  states:
    - {name: BasicAttack, pre: {event: Attack}, post: {event: Attack}, enter: [raise: Attack]}
    - {name: Idle, enter: [raise: Attack]}
"""


class Saves:
    """A chart file saved by the test; its modification time moves on with each save."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.time = 0
        self.save(TEXT.encode())

    def save(self, data: bytes) -> None:
        self.path.write_bytes(data)
        self.time += 1

    def mtime(self, path: Path) -> int:
        if not self.path.exists():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))
        return self.time


@pytest.fixture
def saves(tmp_path: Path) -> Saves:
    return Saves(tmp_path / "attack.yaml")


@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_save_is_reported_with_its_line_and_the_next_good_save_loads(
    saves: Saves, name: str
) -> None:
    data, line = BROKEN[name]
    watcher = ChartWatcher(saves.path, GAME, mtime=saves.mtime)
    saves.save(data)
    with pytest.raises(ChartError) as failure:
        watcher.poll()
    assert failure.value.file == str(saves.path)
    if line is None:
        assert failure.value.line is not None and failure.value.line > 0
    else:
        assert failure.value.line == line
    assert watcher.poll() is None  # reported once, not on every poll
    saves.save(GOOD.encode())
    chart = watcher.poll()
    assert chart is not None and chart.root.states[0].enter[2].arguments["damage"] == 2.0


def test_a_file_that_vanishes_while_saved_is_reported_once_then_loads_again(
    saves: Saves,
) -> None:
    watcher = ChartWatcher(saves.path, GAME, mtime=saves.mtime)
    saves.path.unlink()  # an editor replacing the file: gone for a moment
    with pytest.raises(ChartError, match=f"cannot read: {re.escape(os.strerror(errno.ENOENT))}"):
        watcher.poll()
    assert watcher.poll() is None
    saves.save(TEXT.encode())  # back, unchanged: nothing to reload
    assert watcher.poll() is None
    saves.save(GOOD.encode())
    assert watcher.poll() is not None


def test_a_file_that_vanishes_between_the_poll_and_the_read_is_reported(saves: Saves) -> None:
    reads: list[Path] = []

    def vanishing(path: Path) -> bytes:
        reads.append(path)
        if len(reads) > 1:  # the first read is the watcher's own, when it starts
            path.unlink()
        return path.read_bytes()

    watcher = ChartWatcher(saves.path, GAME, mtime=saves.mtime, read=vanishing)
    saves.save(GOOD.encode())
    with pytest.raises(ChartError, match="cannot read") as failure:
        watcher.poll()
    assert failure.value.file == str(saves.path)


def test_the_watcher_only_watches_chart_files(tmp_path: Path) -> None:
    with pytest.raises(ChartError, match="not a chart file"):
        ChartWatcher(tmp_path / "notes.txt")


def test_a_chart_file_that_does_not_exist_is_refused_when_watched(tmp_path: Path) -> None:
    (tmp_path / "enemy.yaml").write_text("name: Enemy\nroot: {name: Enemy}\n")
    typo = tmp_path / "enemy.yml"
    with pytest.raises(ChartError, match=f"cannot read: {re.escape(os.strerror(errno.ENOENT))}"):
        ChartWatcher(typo)
    assert ChartWatcher(tmp_path / "enemy.yaml").poll() is None  # loaded when made


def test_watch_reports_every_broken_save_and_keeps_the_old_chart_running(
    saves: Saves,
) -> None:
    out: list[str] = []
    session = ChartSession(load(saves.path, GAME), out.append)
    watcher = ChartWatcher(saves.path, GAME, mtime=saves.mtime)
    session.play([])
    steps: list[bytes | str] = [data for data, _ in BROKEN.values()]
    steps += [LOOPING.encode(), "input BasicAttackButton\n", "tick soon\n", GOOD.encode()]

    def lines() -> object:
        for step in steps:
            if isinstance(step, bytes):
                saves.save(step)
                yield None
            else:
                yield step

    out.clear()
    watch(session, watcher, lines())  # type: ignore[arg-type]
    reported = [line for line in out if line.startswith("! ")]
    assert len(reported) == len(BROKEN) + 2  # every broken save, the loop, the bad line
    assert reported[-2].startswith("! not reloaded: machine 'BasicAttack' changed its state")
    assert reported[-1] == (
        "! <stdin>:2: tick needs a number of seconds, 0 or more (tick 0.5); 'soon' is not a number"
    )
    # The old chart ran on: the attack still deals 1.0 ...
    attack = "  enter Character.BasicAttack: enable_damage_collision(name='BasicAttack', damage=%s)"
    assert out.index(attack % "1.0") > out.index(reported[-2])
    # ... until the good save: the attack is exited, and the ground state chosen again.
    assert out[-2:] == ["  exited: Character.BasicAttack", "  entered: Character.Idle"]
    assert session.machine.chart.root.states[0].enter[2].arguments["damage"] == 2.0


# -- the files a chart imports patterns from ------------------------------------------------

LIBRARY = """\
patterns:
  Glow:
    params: {colour: string}
    enter: [{raise: $colour}]
"""
USER = """\
name: {name}
imports: [lib/looks.yaml]
root:
  name: Top
  states:
    - {{name: Lit, use: Glow, with: {{colour: {colour}}}}}
"""


class Folder:
    """Chart files saved by the test; each save moves the file's modification time on."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.times: dict[Path, int] = {}

    def save(self, name: str, text: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        self.times[path] = self.times.get(path, 0) + 1
        return path

    def mtime(self, path: Path) -> int:
        if not path.exists():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))
        return self.times[path.resolve()]


def test_a_changed_pattern_file_reloads_every_chart_that_imports_it(tmp_path: Path) -> None:
    folder = Folder(tmp_path)
    library = folder.save("lib/looks.yaml", LIBRARY)
    charts = [
        folder.save("red.yaml", USER.format(name="Red", colour="Red")),
        folder.save("blue.yaml", USER.format(name="Blue", colour="Blue")),
        folder.save("plain.yaml", "name: Plain\nroot: {name: Top}\n"),
    ]
    watchers = [ChartWatcher(chart, mtime=folder.mtime) for chart in charts]
    assert [len(watcher.files) for watcher in watchers] == [2, 2, 1]
    assert watchers[0].files == (charts[0], library)
    folder.save("lib/looks.yaml", LIBRARY.replace("$colour", '"${colour}Glow"'))
    reloaded = [watcher.poll() for watcher in watchers]
    assert [str(chart.root.states[0].enter[0]) for chart in reloaded[:2] if chart] == [
        "raise(name='RedGlow')",
        "raise(name='BlueGlow')",
    ]
    assert reloaded[2] is None
    assert [watcher.poll() for watcher in watchers] == [None, None, None]


def test_a_broken_pattern_file_is_reported_once_and_the_chart_runs_on(tmp_path: Path) -> None:
    folder = Folder(tmp_path)
    library = folder.save("lib/looks.yaml", LIBRARY)
    chart = folder.save("red.yaml", USER.format(name="Red", colour="Red"))
    session = ChartSession(load(chart), [].append)
    session.play([])
    watcher = ChartWatcher(chart, mtime=folder.mtime)
    folder.save("lib/looks.yaml", LIBRARY.replace("params: {colour: string}", "params: {x: 1}"))
    with pytest.raises(ChartError) as failure:
        watcher.poll()
    assert (failure.value.file, failure.value.line) == (str(library), 3)
    assert watcher.poll() is None  # reported once
    assert str(session.machine.chart.root.states[0].enter[0]) == "raise(name='Red')"
    library.unlink()  # a vanished pattern file: the chart no longer loads, said once
    with pytest.raises(ChartError, match=r"cannot import 'lib/looks\.yaml'") as failure:
        watcher.poll()
    assert (failure.value.file, failure.value.line) == (str(chart), 2)
    assert watcher.poll() is None
    folder.save("lib/looks.yaml", LIBRARY.replace("$colour", "Dim$colour"))
    fixed = watcher.poll()
    assert fixed is not None
    report = session.reload(fixed)
    assert report.exited == ("Top.Lit",) and report.entered == ("Top.Lit",)
    assert str(session.machine.chart.root.states[0].enter[0]) == "raise(name='DimRed')"


def test_a_save_importing_a_file_not_written_yet_loads_once_it_is(tmp_path: Path) -> None:
    folder = Folder(tmp_path)
    chart = folder.save("red.yaml", "name: Red\nroot: {name: Top}\n")
    watcher = ChartWatcher(chart, mtime=folder.mtime)
    folder.save("red.yaml", USER.format(name="Red", colour="Red"))  # lib/looks.yaml: not yet
    with pytest.raises(ChartError, match=r"cannot import 'lib/looks\.yaml'"):
        watcher.poll()
    assert watcher.poll() is None  # reported once
    library = folder.save("lib/looks.yaml", LIBRARY)  # the designer saves the library next
    loaded = watcher.poll()
    assert loaded is not None and str(loaded.root.states[0].enter[0]) == "raise(name='Red')"
    assert watcher.files == (chart, library)


def test_a_file_a_pattern_library_imports_loads_the_chart_once_written(tmp_path: Path) -> None:
    folder = Folder(tmp_path)
    chart = folder.save("red.yaml", "name: Red\nroot: {name: Top}\n")
    watcher = ChartWatcher(chart, mtime=folder.mtime)
    folder.save(
        "lib/looks.yaml",
        "imports: [base.yaml]\npatterns:\n  Glow:\n    params: {colour: string}\n"
        "    states: [{name: Core, use: Flash, with: {colour: $colour}}]\n",
    )
    folder.save("red.yaml", USER.format(name="Red", colour="Red"))
    with pytest.raises(ChartError, match=r"cannot import 'base\.yaml'"):
        watcher.poll()  # lib/base.yaml, which the library imports, is not written yet
    folder.save("lib/base.yaml", LIBRARY.replace("Glow", "Flash"))
    loaded = watcher.poll()
    assert loaded is not None
    assert str(loaded.root.states[0].states[0].enter[0]) == "raise(name='Red')"
