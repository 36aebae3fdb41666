"""Save files: a world written whole or not at all, never damaging the last good save, and
read back with errors that name the file and what is missing."""

from __future__ import annotations

import hashlib
import sys
import threading
from pathlib import Path

import pytest
import saved_machines as sm
from test_saving import running_hero

import statetree as st
from statetree import saves


def test_a_saved_world_reads_back_and_goes_on_as_the_original(tmp_path: Path) -> None:
    hero = running_hero()
    st.write_save(tmp_path / "slot1.save", hero)
    loaded = st.read_save(tmp_path / "slot1.save")
    assert loaded.hooks == hero.hooks
    for each in (hero, loaded):
        each.frame(0.25)
    assert (loaded.hooks, loaded.lines) == (hero.hooks, hero.lines)
    assert [path.name for path in tmp_path.iterdir()] == ["slot1.save"]


def test_a_failed_save_leaves_the_last_good_one_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "slot1.save"
    st.write_save(path, running_hero())
    good = path.read_bytes()
    hero = running_hero()
    hero.machine.add_state_override(sm.Walk, type("Runtime", (sm.Walk,), {}))
    with pytest.raises(
        st.SaveError,
        match=r"^cannot save the class test_save_files\.Runtime \(the override of Walk in "
        r"machine 'Hero'\): that name does not lead back to it",
    ):
        st.write_save(path, hero)
    hero.lock = threading.Lock()  # type: ignore[attr-defined]
    hero.machine.remove_state_override(sm.Walk)
    with pytest.raises(st.SaveError, match=r"^cannot save Hero: "):
        st.write_save(path, hero)
    assert path.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["slot1.save"]


def test_what_is_not_a_save_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    with pytest.raises(st.LoadError, match=r"notes\.txt is not a statetree save"):
        st.read_save(path)
    st.write_save(path, running_hero())
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(st.LoadError, match=r"notes\.txt is damaged: "):
        st.read_save(path)


def test_a_save_into_a_missing_folder_names_the_file_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "saves" / "slot1.save"

    with pytest.raises(FileNotFoundError) as refused:
        st.write_save(path, running_hero())

    assert refused.value.filename == str(path)
    assert list(tmp_path.iterdir()) == []


def test_a_byte_changed_on_disk_is_damage_and_nothing_is_built(tmp_path: Path) -> None:
    path = tmp_path / "slot1.save"
    st.write_save(path, running_hero())
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit, inside the pickle: it could load as other values
    path.write_bytes(bytes(data))
    with pytest.raises(st.LoadError, match=r"slot1\.save is damaged: its contents do not match"):
        st.read_save(path)


def test_a_save_of_another_format_says_which(tmp_path: Path) -> None:
    path = tmp_path / "slot1.save"
    st.write_save(path, running_hero())
    path.write_bytes(b"statetree save 1\n" + path.read_bytes().partition(b"\n")[2])
    with pytest.raises(
        st.LoadError,
        match=r"slot1\.save is a save of another format \(statetree save 1\); this version "
        r"of statetree reads format 2",
    ):
        st.read_save(path)


def test_a_save_cut_short_inside_its_header_is_damage(tmp_path: Path) -> None:
    path = tmp_path / "slot1.save"
    st.write_save(path, running_hero())
    path.write_bytes(path.read_bytes()[:10])  # "statetree " of "statetree save 2"
    with pytest.raises(st.LoadError, match=r"slot1\.save is damaged: it ends inside its header"):
        st.read_save(path)


def test_a_renamed_field_in_a_save_is_damage(tmp_path: Path) -> None:
    path = tmp_path / "slot1.save"
    st.write_save(path, running_hero())
    body = path.read_bytes()[len(saves.HEADER) + 32 :]
    assert b"trace" in body  # the machine's fields are saved by name
    body = body.replace(b"trace", b"trxce", 1)  # as a save of another version would hold
    path.write_bytes(saves.HEADER + hashlib.sha256(body).digest() + body)

    with pytest.raises(
        st.LoadError, match=r"slot1\.save: the save holds a damaged machine: it lacks 'trace'"
    ):
        st.read_save(path)


def test_a_save_needing_what_the_program_lost_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "slot1.save"
    st.write_save(path, running_hero())
    monkeypatch.delattr(sm, "Hero")  # the owner's class: an ordinary object of the game
    with pytest.raises(st.LoadError, match=r"slot1\.save: the save needs saved_machines\.Hero"):
        st.read_save(path)
    monkeypatch.undo()
    monkeypatch.delattr(sm, "Sprint")  # a state class, saved by name
    with pytest.raises(st.LoadError, match=r"slot1\.save: the save needs saved_machines\.Sprint"):
        st.read_save(path)


def test_a_save_whose_module_cannot_be_imported_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "slot1.save"
    st.write_save(path, running_hero())
    monkeypatch.setitem(sys.modules, "saved_machines", None)  # as from another folder
    with pytest.raises(st.LoadError) as refused:
        st.read_save(path)
    message = str(refused.value)
    assert message.startswith(
        f"{path}: the save needs saved_machines.Hero, but module saved_machines cannot be "
        "imported ("
    )
    assert message.endswith(
        "): load it from the program that wrote it, with that program's modules importable "
        "(on sys.path), or keep the module if it was renamed or removed"
    )


@pytest.mark.parametrize("replaced", [5, len])
def test_a_save_needing_a_class_the_program_replaced_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replaced: object
) -> None:
    path = tmp_path / "slot1.save"
    st.write_save(path, running_hero())
    monkeypatch.setattr(sm, "Sprint", replaced)  # a state class, now something else
    with pytest.raises(st.LoadError) as refused:
        st.read_save(path)
    assert str(refused.value) == (
        f"{path}: the save needs the State subclass saved_machines.Sprint, which the program now "
        f"defines as {replaced!r}: was it replaced? Keep it under its old name to load the "
        "saves written before"
    )
