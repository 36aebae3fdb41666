"""Files written whole (``statetree.files``): the old file or the new one, never part of one."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from statetree.files import replace_file


def test_the_data_replaces_the_file_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "plot.dot"
    target.write_bytes(b"old")

    replace_file(target, b"new")

    assert target.read_bytes() == b"new"
    assert [path.name for path in tmp_path.iterdir()] == ["plot.dot"]


def test_a_write_that_fails_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "save.bin"
    target.write_bytes(b"the last good save")

    def no_room(source: object, destination: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_room)
    with pytest.raises(OSError):
        replace_file(target, b"half")

    assert target.read_bytes() == b"the last good save"
    assert [path.name for path in tmp_path.iterdir()] == ["save.bin"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_link_stays_a_link_to_the_new_content(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_bytes(b"old")
    link = tmp_path / "link.json"
    link.symlink_to(real)

    replace_file(link, b"new")

    assert link.is_symlink() and real.read_bytes() == b"new"


@pytest.mark.skipif(not os.path.exists(os.devnull), reason="needs a null device")
def test_a_device_is_written_in_place_never_replaced() -> None:
    replace_file(os.devnull, b"discarded")

    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_the_new_file_keeps_the_old_ones_mode(tmp_path: Path) -> None:
    target = tmp_path / "private.json"
    target.write_bytes(b"old")
    target.chmod(0o600)

    replace_file(target, b"new")

    assert (target.read_bytes(), stat.S_IMODE(target.stat().st_mode)) == (b"new", 0o600)


def test_a_read_only_file_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "schema.json"
    target.write_bytes(b"kept")
    target.chmod(0o444)

    with pytest.raises(PermissionError) as refused:
        replace_file(target, b"new")

    assert (refused.value.strerror, refused.value.filename) == (
        "the file is read-only",
        str(target),
    )
    assert target.read_bytes() == b"kept"
    assert [path.name for path in tmp_path.iterdir()] == ["schema.json"]


def test_the_new_data_of_a_private_file_is_never_readable_by_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "secrets.yaml"
    target.write_bytes(b"old")
    target.chmod(0o600)
    modes: list[int] = []
    synced = os.fsync

    def fsync(handle: int) -> None:  # while the new data is on disk beside the file
        modes.append(stat.S_IMODE(os.fstat(handle).st_mode))
        synced(handle)

    monkeypatch.setattr(os, "fsync", fsync)
    replace_file(target, b"new")

    assert modes == [0o600] and target.read_bytes() == b"new"
