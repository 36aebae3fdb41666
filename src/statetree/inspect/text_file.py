"""A text file saved the way it was: its line ends, byte order mark, mode and link kept.

An editor works on text with ``\\n`` line ends; what it writes back gets the file's own
(the first line end says which) and its UTF-8 byte order mark if it had one. The file is
replaced at once: the new text is written to a file beside it, with its mode, and renamed
over it, so a reader sees the old file or the new one, never half of one. A symbolic link
stays a link: the file it points to is the one replaced.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Layout", "Staged", "stage"]

BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class Layout:
    """How a text file ends its lines and whether it starts with a byte order mark."""

    newline: str = "\n"
    bom: bool = False

    @classmethod
    def of(cls, text: str) -> Layout:
        """The layout of ``text`` as read from a file."""
        end = text.find("\n")
        newline = "\r\n" if end > 0 and text[end - 1] == "\r" else "\n"
        return cls(newline, text.startswith(BOM))

    def plain(self, text: str) -> str:
        """``text`` as an editor works on it: ``\\n`` line ends, no byte order mark."""
        return text.removeprefix(BOM).replace("\r\n", "\n")

    def dressed(self, text: str) -> str:
        """``text`` (with any line ends) written with this layout."""
        text = self.plain(text)
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return BOM + text if self.bom else text


@dataclass(frozen=True, slots=True)
class Staged:
    """A new text written beside the file it replaces, not yet in its place."""

    temporary: Path
    target: Path

    def commit(self) -> None:
        """Put the new text in the file's place, at once.

        Raises:
            OSError: the rename failed; the file is as it was, and the new text is gone.
        """
        try:
            os.replace(self.temporary, self.target)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Drop the new text; the file stays as it was."""
        self.temporary.unlink(missing_ok=True)


def stage(path: Path, text: str) -> Staged:
    """Write ``text`` in UTF-8 to a new file beside the file at ``path`` (or beside the
    file its link points to), with that file's mode (and owner, where this process may
    give it), for :meth:`Staged.commit`.

    Raises:
        OSError: the folder cannot be written; nothing was left there.
    """
    target = Path(os.path.realpath(path))
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    staged = Staged(Path(name), target)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        _take_over(staged.temporary, target)
    except BaseException:
        staged.discard()
        raise
    return staged


def _take_over(new: Path, old: Path) -> None:
    """Give ``new`` the mode and, if allowed, the owner of ``old`` (if ``old`` exists)."""
    try:
        info = old.stat()
    except FileNotFoundError:  # a new file keeps mkstemp's mode
        return
    os.chmod(new, stat.S_IMODE(info.st_mode))
    if hasattr(os, "chown"):
        with contextlib.suppress(OSError):  # only the owner's group, or root, may
            os.chown(new, info.st_uid, info.st_gid)
