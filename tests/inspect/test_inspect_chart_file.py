"""What an edit from the page writes: the file stays what it was (its mode, its link, its
line ends and byte order mark, its comments and flow style), changed only where the edit
says, and all at once."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from statetree.chart import ChartError, ChartMachine, load
from statetree.inspect import ChartFile, EditableChartAdapter, InspectError
from statetree.inspect.chart_file import Unchanged

pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")

COMMENTED = """\
# A guard.
version: 1
name: Guard
root:
  name: Guard
  states:
    # Idle: waits at its post.
    - name: Idle    # the first state
      transitions:
        - {on: {input: Go}, to: Patrol}
    # Patrol: walks the walls.
    - name: Patrol
      enter: [{raise: {name: Step}}]
    # Alert: heard something.

    - name: Alert
      transitions:
        # back to its post
        - {on: {input: Calm}, to: Idle}
# The end.
"""


def chart_file(tmp_path: Path, text: str, name: str = "guard.yaml") -> ChartFile:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return ChartFile(path)


def edited(file: ChartFile, edit: dict[str, Any]) -> str:
    prepared = file.prepare(edit)
    file.save(prepared.text)
    return file.path.read_bytes().decode()


def test_a_moved_state_takes_its_comments(tmp_path: Path) -> None:
    file = chart_file(tmp_path, COMMENTED)

    text = edited(file, {"op": "move-state", "path": "Guard.Patrol", "index": 0})

    assert text == COMMENTED.replace(
        """\
    # Idle: waits at its post.
    - name: Idle    # the first state
      transitions:
        - {on: {input: Go}, to: Patrol}
    # Patrol: walks the walls.
    - name: Patrol
      enter: [{raise: {name: Step}}]
""",
        """\
    # Patrol: walks the walls.
    - name: Patrol
      enter: [{raise: {name: Step}}]
    # Idle: waits at its post.
    - name: Idle    # the first state
      transitions:
        - {on: {input: Go}, to: Patrol}
""",
    )


def test_a_removed_state_takes_its_comments_and_leaves_the_next_ones(tmp_path: Path) -> None:
    file = chart_file(tmp_path, COMMENTED)

    text = edited(file, {"op": "remove-state", "path": "Guard.Idle"})

    # Alert's transition to Idle goes too, with the comment written on it.
    assert text == (
        """\
# A guard.
version: 1
name: Guard
root:
  name: Guard
  states:
    # Patrol: walks the walls.
    - name: Patrol
      enter: [{raise: {name: Step}}]
    # Alert: heard something.

    - name: Alert
# The end.
"""
    )


def test_a_state_removed_between_two_keeps_both_neighbours_comments(tmp_path: Path) -> None:
    file = chart_file(tmp_path, COMMENTED)

    text = edited(file, {"op": "remove-state", "path": "Guard.Patrol"})

    assert text == COMMENTED.replace(
        """\
        - {on: {input: Go}, to: Patrol}
    # Patrol: walks the walls.
    - name: Patrol
      enter: [{raise: {name: Step}}]
""",
        "",
    ).replace(
        "    - name: Idle    # the first state\n      transitions:\n",
        "    - name: Idle    # the first state\n",
    )


def test_the_last_state_moved_first_keeps_its_comment_and_blank_line(tmp_path: Path) -> None:
    file = chart_file(tmp_path, COMMENTED)

    text = edited(file, {"op": "move-state", "path": "Guard.Alert", "index": 0})

    lines = text.splitlines()
    assert lines[6:14] == [
        "    # Alert: heard something.",
        "",
        "    - name: Alert",
        "      transitions:",
        "        # back to its post",
        "        - {on: {input: Calm}, to: Idle}",
        "    # Idle: waits at its post.",
        "    - name: Idle    # the first state",
    ]
    assert lines[-1] == "# The end."


def test_a_move_to_the_same_place_changes_nothing(tmp_path: Path) -> None:
    file = chart_file(tmp_path, COMMENTED)
    before = os.stat(file.path)

    with pytest.raises(Unchanged) as caught:
        file.prepare({"op": "move-state", "path": "Guard.Patrol", "index": 1})

    assert str(caught.value) == "the edit changes nothing"
    assert file.path.read_text() == COMMENTED
    assert os.stat(file.path).st_mtime_ns == before.st_mtime_ns


def test_replaced_actions_keep_the_comments_above_them(tmp_path: Path) -> None:
    text = COMMENTED.replace(
        "      enter: [{raise: {name: Step}}]\n",
        "      enter:\n        # first a step\n        - raise: {name: Step}\n",
    )
    file = chart_file(tmp_path, text)
    actions = [{"raise": {"name": "Run"}}]

    written = edited(
        file, {"op": "set-actions", "path": "Guard.Patrol", "kind": "enter", "actions": actions}
    )

    assert written == text.replace("{name: Step}", "{name: Run}")


FLOW_CHARTS = [
    "{version: 1, name: F, root: {name: R, states: [{name: A}, {name: B}]}}\n",
    "version: 1\nname: F\nroot: {name: R, states: [{name: A}, {name: B}]}\n",
    "version: 1\nname: F\nroot:\n  name: R\n  states: [{name: A}, {name: B}]\n",
]


RAISE_E = [{"raise": {"name": "E"}}]
FLOW_EDITS = [
    ({"op": "rename-state", "path": "R.A", "name": "Z"}, "{name: A}", "{name: Z}"),
    (
        {"op": "add-state", "path": "R.B", "name": "C"},
        "{name: B}",
        "{name: B, states: [{name: C}]}",
    ),
    (
        {"op": "move-state", "path": "R.B", "index": 0},
        "{name: A}, {name: B}",
        "{name: B}, {name: A}",
    ),
    ({"op": "remove-state", "path": "R.B"}, "{name: A}, {name: B}", "{name: A}"),
    ({"op": "set-policy", "path": "R", "policy": "concurrent"}, "B}]", "B}], policy: concurrent"),
    (
        {"op": "add-transition", "path": "R.A", "on": {"input": "Go"}, "to": "B"},
        "{name: A}",
        "{name: A, transitions: [{on: {input: Go}, to: B}]}",
    ),
    (
        {"op": "set-actions", "path": "R.A", "kind": "enter", "actions": RAISE_E},
        "{name: A}",
        "{name: A, enter: [{raise: {name: E}}]}",
    ),
]


@pytest.mark.parametrize("text", FLOW_CHARTS, ids=["one line", "flow root", "flow list"])
@pytest.mark.parametrize(("edit", "before", "after"), FLOW_EDITS)
def test_flow_style_charts_are_edited_in_flow_style(
    tmp_path: Path, text: str, edit: dict[str, Any], before: str, after: str
) -> None:
    file = chart_file(tmp_path, text)

    written = edited(file, edit)

    expected = text.replace(before, after)
    if edit["op"] == "set-policy" and text.endswith("}]\n"):  # a key added to a block mapping
        expected = text + "  policy: concurrent\n"
    assert written == expected
    load(file.path)


def test_a_crlf_file_keeps_its_line_ends_and_byte_order_mark(tmp_path: Path) -> None:
    text = "\ufeff" + COMMENTED.replace("\n", "\r\n")
    file = chart_file(tmp_path, text)

    moved = edited(file, {"op": "move-state", "path": "Guard.Patrol", "index": 0})
    assert moved.startswith("\ufeff# A guard.\r\n")
    assert "\n" not in moved.replace("\r\n", "")
    assert moved.count("\r\n") == text.count("\r\n")
    # The page's text area sends "\n" line ends and no mark: the file keeps its own.
    retyped = moved.removeprefix("\ufeff").replace("\r\n", "\n").replace("The end", "Fin")
    assert edited(file, {"op": "replace-text", "text": retyped}) == moved.replace("The end", "Fin")


def test_a_file_with_old_mac_line_ends_keeps_them_and_takes_structured_edits(
    tmp_path: Path,
) -> None:
    text = COMMENTED.replace("\n", "\r")
    file = chart_file(tmp_path, text)

    moved = edited(file, {"op": "move-state", "path": "Guard.Patrol", "index": 0})
    plain = edited(
        chart_file(tmp_path, COMMENTED, "lf.yaml"),
        {"op": "move-state", "path": "Guard.Patrol", "index": 0},
    )
    assert moved == plain.replace("\n", "\r")
    # The page's text area sends "\n" line ends: the file keeps its own.
    retyped = moved.replace("\r", "\n").replace("The end", "Fin")
    assert edited(file, {"op": "replace-text", "text": retyped}) == moved.replace("The end", "Fin")


@pytest.mark.parametrize("ends", ["\r", "\r\n"], ids=repr)
def test_a_text_with_other_line_ends_is_saved_with_the_files_own(tmp_path: Path, ends: str) -> None:
    file = chart_file(tmp_path, COMMENTED)
    retyped = COMMENTED.replace("The end", "Fin")

    assert edited(file, {"op": "replace-text", "text": retyped.replace("\n", ends)}) == retyped
    renamed = edited(file, {"op": "rename-state", "path": "Guard.Idle", "name": "Rest"})
    assert renamed == retyped.replace("name: Idle", "name: Rest").replace("to: Idle", "to: Rest")


@pytest.mark.parametrize("head", ["%YAML 1.2\n---\n", "---\n", "# a guard\n\n--- # start\n"])
def test_an_edit_keeps_the_directives_and_the_start_marker(tmp_path: Path, head: str) -> None:
    text = head + COMMENTED.partition("\n")[2] + "...\n"
    file = chart_file(tmp_path, text)

    renamed = edited(file, {"op": "rename-state", "path": "Guard.Idle", "name": "Rest"})

    assert renamed.startswith(head + "version: 1\n")
    assert renamed.endswith("\n...\n")
    assert renamed.replace("Rest", "Idle").replace("to: Rest", "to: Idle") == text


def test_a_json_chart_keeps_its_line_ends(tmp_path: Path) -> None:
    text = (
        '{\r\n  "version": 1,\r\n  "name": "J",\r\n  "root": {\r\n    "name": "R"\r\n  }\r\n}\r\n'
    )
    file = chart_file(tmp_path, text, "j.json")

    written = edited(file, {"op": "add-state", "path": "R", "name": "A"})

    assert written == text.replace(
        '"R"\r\n',
        '"R",\r\n    "states": [\r\n      {\r\n        "name": "A"\r\n      }\r\n    ]\r\n',
    )


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o664])
def test_saving_keeps_the_files_mode(tmp_path: Path, mode: int) -> None:
    file = chart_file(tmp_path, COMMENTED)
    file.path.chmod(mode)

    edited(file, {"op": "rename-state", "path": "Guard.Idle", "name": "Rest"})

    assert stat.S_IMODE(file.path.stat().st_mode) == mode


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give a file away"
)
def test_saving_keeps_the_files_owner(tmp_path: Path) -> None:
    file = chart_file(tmp_path, COMMENTED)
    os.chown(file.path, 4321, 8765)

    edited(file, {"op": "rename-state", "path": "Guard.Idle", "name": "Rest"})

    assert (file.path.stat().st_uid, file.path.stat().st_gid) == (4321, 8765)


def test_saving_through_a_link_writes_the_file_it_points_to(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    target = shared / "guard.yaml"
    target.write_text(COMMENTED)
    target.chmod(0o644)
    link = tmp_path / "guard.yaml"
    link.symlink_to(target)
    file = ChartFile(link)

    edited(file, {"op": "rename-state", "path": "Guard.Idle", "name": "Rest"})

    assert link.is_symlink()
    assert os.readlink(link) == str(target)
    assert "- name: Rest    # the first state" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert sorted(p.name for p in shared.iterdir()) == ["guard.yaml"]


def test_a_save_that_cannot_be_written_is_a_library_error(tmp_path: Path) -> None:
    link = tmp_path / "guard.yaml"
    link.symlink_to(tmp_path / "gone" / "guard.yaml")

    with pytest.raises(InspectError) as caught:
        ChartFile(link).save(COMMENTED)

    assert str(caught.value).startswith("cannot save guard.yaml: ")
    assert str(caught.value).endswith("; the file is as it was")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["guard.yaml"]


def test_a_refused_reload_leaves_no_file_behind(tmp_path: Path) -> None:
    file = chart_file(tmp_path, COMMENTED)
    machine = ChartMachine(load(file.path))
    adapter = EditableChartAdapter(machine, file)
    prepared = adapter.prepare(
        {"op": "set-actions", "path": "Guard.Idle", "kind": "enter", "actions": ["shake"]}
    )

    with pytest.raises(Exception, match="shake"):
        adapter.commit(prepared)

    assert sorted(p.name for p in tmp_path.iterdir()) == ["guard.yaml"]
    assert file.path.read_text() == COMMENTED


def test_a_save_replaces_the_file_at_once(tmp_path: Path) -> None:
    file = chart_file(tmp_path, COMMENTED)
    reader = file.path.open("rb")  # a reader that opened the file before the save

    edited(file, {"op": "rename-state", "path": "Guard.Idle", "name": "Rest"})

    assert reader.read().decode() == COMMENTED  # still the whole old file, not half a new one
    reader.close()
    assert "Rest" in file.path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["guard.yaml"]


NAMES = hs.sampled_from(["Guard", "Guard.Idle", "Patrol", ""])
KEYS = hs.sampled_from(["on", "to", "raise", "name", "x"])
JSON = hs.recursive(
    hs.none() | hs.booleans() | hs.integers() | hs.floats() | NAMES,
    lambda inner: hs.lists(inner, max_size=3) | hs.dictionaries(KEYS, inner, max_size=3),
    max_leaves=10,
)
OPS = ["replace-text", "rename-state", "add-state", "remove-state", "move-state", "set-policy"]
OPS += ["add-transition", "set-conditions", "set-actions", "set-transitions", "undo", "bogus"]
EDIT_FIELDS = ["path", "name", "index", "policy", "kind", "on", "to", "conditions", "actions"]
EDIT_FIELDS += ["transitions", "text"]


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hs.one_of(hs.sampled_from(OPS), JSON),
    hs.dictionaries(hs.sampled_from(EDIT_FIELDS), JSON, max_size=5),
)
def test_a_hostile_edit_is_made_or_refused_with_the_librarys_error(
    tmp_path: Path, op: object, fields: dict[str, object]
) -> None:
    file = chart_file(tmp_path, COMMENTED)
    try:
        prepared = file.prepare({"op": op, **fields})
    except (InspectError, ChartError):
        pass
    else:
        assert prepared.definition.name == "Guard"
    assert file.path.read_text() == COMMENTED


@pytest.mark.parametrize("odd", ["\r", "\u2028", "\u2029"], ids=repr)  # U+0085: a control
def test_a_yaml_chart_with_other_line_breaks_is_edited_as_text_only(
    tmp_path: Path, odd: str
) -> None:
    text = COMMENTED.replace("name: Step", f'name: "St{odd}ep"')
    file = chart_file(tmp_path, text)
    load(file.path)  # the loader reads it

    with pytest.raises(InspectError) as caught:
        file.prepare({"op": "move-state", "path": "Guard.Alert", "index": 0})

    assert str(caught.value) == (
        f"the chart holds the line break U+{ord(odd):04X} on line 13, which YAML readers "
        "count differently: edit this chart as text"
    )
    assert file.path.read_bytes() == text.encode()
    retyped = text.replace("# The end.", "# Fin.")
    assert edited(file, {"op": "replace-text", "text": retyped}) == retyped


@pytest.mark.parametrize("odd", ["\u2028", "\u2029"], ids=repr)
def test_an_edit_that_would_write_another_line_break_is_refused(tmp_path: Path, odd: str) -> None:
    file = chart_file(tmp_path, COMMENTED)
    actions = [{"raise": {"name": f"St{odd}ep"}}]

    with pytest.raises(InspectError) as caught:
        file.prepare(
            {"op": "set-actions", "path": "Guard.Idle", "kind": "exit", "actions": actions}
        )

    assert str(caught.value).startswith(f"the edit writes the line break U+{ord(odd):04X} on line ")
    assert file.path.read_text() == COMMENTED
