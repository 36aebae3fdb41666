"""Undo and redo from several pages at once: each step is whole or refused, never half made.

Pages check their edits on worker threads while the program commits them on its own; the
interleavings below are played in order, step by step, as the threads could run them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspector_demo import platformer

from statetree.inspect import EditableChartAdapter, InspectError

pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")

RENAME = {"op": "rename-state", "path": "Hero.Arms.Aiming", "name": "Aim"}
UNDO = {"op": "undo"}
REDO = {"op": "redo"}


@pytest.fixture
def editor(tmp_path: Path) -> EditableChartAdapter:
    return platformer(tmp_path / "platformer.yaml")


def test_a_refused_undo_leaves_the_history_to_the_undo_already_checked(
    editor: EditableChartAdapter,
) -> None:
    original = editor.file.read()
    editor.commit(editor.prepare(RENAME))
    renamed = editor.file.read()
    first_page = editor.prepare(UNDO)
    # The file changes and changes back while the first page's undo waits for the program;
    # a second page's undo, checked in between, is refused.
    editor.file.save(renamed + "# touched\n")
    with pytest.raises(InspectError) as caught:
        editor.prepare(UNDO)
    assert str(caught.value) == (
        "the chart file changed since the last edit made here: nothing to undo"
    )
    editor.file.save(renamed)

    result = editor.commit(first_page)

    assert result["step"] == "undo"
    assert editor.file.read() == original
    assert editor.source()["history"] == {"undo": 0, "redo": 1}
    assert editor.chart_machine.chart.find("Hero.Arms.Aiming") is not None
    editor.commit(editor.prepare(REDO))
    assert editor.file.read() == renamed


def test_two_pages_undoing_the_same_edit_undo_it_once(editor: EditableChartAdapter) -> None:
    original = editor.file.read()
    editor.commit(editor.prepare(RENAME))
    first, second = editor.prepare(UNDO), editor.prepare(UNDO)
    editor.commit(first)

    with pytest.raises(InspectError) as caught:
        editor.commit(second)

    assert str(caught.value) == (
        "an edit made here was saved while this undo was checked: nothing was saved, undo "
        "again if it is still wanted"
    )
    assert editor.file.read() == original
    assert editor.source()["history"] == {"undo": 0, "redo": 1}


def test_an_undo_checked_before_the_history_moved_on_is_refused_whole(
    editor: EditableChartAdapter,
) -> None:
    editor.commit(editor.prepare(RENAME))
    renamed = editor.file.read()
    stale = editor.prepare(UNDO)
    # Meanwhile someone else changes the file, a page edits that, and the file is put back
    # as it was when the undo was checked: the undo no longer undoes the last edit here.
    editor.file.save(renamed + "# touched\n")
    editor.commit(editor.prepare({"op": "rename-state", "path": "Hero.Arms.Aim", "name": "A"}))
    editor.file.save(renamed)
    reloads = editor.chart_machine.chart

    with pytest.raises(InspectError) as caught:
        editor.commit(stale)

    assert str(caught.value) == (
        "the edits made here changed while this undo was checked: nothing was saved"
    )
    assert editor.file.read() == renamed
    assert editor.chart_machine.chart is reloads
    # The file does not hold what the last edit here saved: nothing is offered.
    assert editor.source()["history"] == {"undo": 0, "redo": 0}


def test_a_redo_checked_before_a_new_edit_is_refused_whole(editor: EditableChartAdapter) -> None:
    editor.commit(editor.prepare(RENAME))
    editor.commit(editor.prepare(UNDO))
    undone = editor.file.read()
    redo = editor.prepare(REDO)
    # A new edit clears what could be redone; then the file is put back by hand.
    editor.commit(editor.prepare({"op": "rename-state", "path": "Hero.Arms.Aiming", "name": "B"}))
    editor.file.save(undone)

    with pytest.raises(InspectError) as caught:
        editor.commit(redo)

    assert str(caught.value) == (
        "the edits made here changed while this redo was checked: nothing was saved"
    )
    assert editor.file.read() == undone
    assert editor.source()["history"] == {"undo": 0, "redo": 0}


def test_the_history_offered_follows_the_files_text(editor: EditableChartAdapter) -> None:
    editor.commit(editor.prepare(RENAME))
    renamed = editor.file.read()
    assert editor.source()["history"] == {"undo": 1, "redo": 0}

    editor.file.save(renamed + "# touched\n")
    assert editor.source()["history"] == {"undo": 0, "redo": 0}
    editor.file.save(renamed)
    assert editor.source()["history"] == {"undo": 1, "redo": 0}
    # An edit of a file changed elsewhere starts a new history: the older edits are gone.
    editor.file.save(renamed + "# touched\n")
    editor.commit(editor.prepare({"op": "rename-state", "path": "Hero.Arms.Aim", "name": "A"}))
    assert editor.source()["history"] == {"undo": 1, "redo": 0}
    editor.commit(editor.prepare(UNDO))
    assert editor.file.read() == renamed + "# touched\n"
    assert editor.source()["history"] == {"undo": 0, "redo": 1}


def test_edits_sent_back_to_back_are_each_made_on_the_last_one(
    editor: EditableChartAdapter,
) -> None:
    # A page sends two edits before the program commits the first: both are checked on the
    # same text; the second is made again on the file the first left.
    original = editor.file.read()
    first = editor.prepare(RENAME)
    second = editor.prepare({"op": "rename-state", "path": "Hero.Arms.Slashing", "name": "Slash"})
    editor.commit(first)
    result = editor.commit(second)

    chart = editor.chart_machine.chart
    assert chart.find("Hero.Arms.Aim") is not None and chart.find("Hero.Arms.Slash") is not None
    changed = [line for line in result["diff"].splitlines() if line[:2] in ("- ", "+ ")]
    assert "-        - name: Slashing" in changed and "+        - name: Slash" in changed
    assert not [line for line in changed if "Aim" in line]  # the first edit is not in it
    assert editor.source()["history"] == {"undo": 2, "redo": 0}
    editor.commit(editor.prepare(UNDO))
    editor.commit(editor.prepare(UNDO))
    assert editor.file.read() == original


def test_an_edit_sent_back_to_back_that_no_longer_applies_is_refused_whole(
    editor: EditableChartAdapter,
) -> None:
    first = editor.prepare(RENAME)
    second = editor.prepare({"op": "rename-state", "path": "Hero.Arms.Aiming", "name": "Aim2"})
    editor.commit(first)
    renamed, reloads = editor.file.read(), editor.chart_machine.chart

    with pytest.raises(InspectError) as caught:
        editor.commit(second)

    assert str(caught.value).startswith(
        "the edit no longer applies after the edits saved before it ("
    )
    assert str(caught.value).endswith("): nothing was saved")
    assert editor.file.read() == renamed
    assert editor.chart_machine.chart is reloads


def test_a_replacement_of_the_text_sent_back_to_back_is_not_made_again(
    editor: EditableChartAdapter,
) -> None:
    first = editor.prepare(RENAME)
    text = editor.file.read() + "# a note\n"
    second = editor.prepare({"op": "replace-text", "text": text})
    editor.commit(first)

    with pytest.raises(InspectError) as caught:
        editor.commit(second)  # made again, it would undo the first edit unseen

    assert str(caught.value) == (
        "the chart file changed while this edit was checked: nothing was saved, make the edit again"
    )
    assert editor.chart_machine.chart.find("Hero.Arms.Aim") is not None
