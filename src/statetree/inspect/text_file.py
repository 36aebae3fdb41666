"""A text file saved the way it was: its line ends, byte order mark, mode and link kept.

An editor works on text with ``\\n`` line ends; what it writes back gets the file's own
(the first line end says which: ``\\r\\n``, ``\\n``, or ``\\r`` in a text that ends its lines
with nothing else) and its UTF-8 byte order mark if it had one. Text given to be written,
whatever its line ends, is read the same way. The file is replaced at once, keeping its mode
and link (see :mod:`statetree.files`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from statetree.files import Staged, stage_file

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
        if end < 0:
            newline = "\r" if "\r" in text else "\n"
        else:
            newline = "\r\n" if end > 0 and text[end - 1] == "\r" else "\n"
        return cls(newline, text.startswith(BOM))

    def plain(self, text: str) -> str:
        """``text`` as an editor works on it: ``\\n`` line ends, no byte order mark.

        Its line ends are ``\\r\\n`` or ``\\n``, or ``\\r`` alone in a text with no other
        (old Mac style). A ``\\r`` alone in a text that ends its lines otherwise is not a
        line end of the text: it is left as it is (a YAML chart holding one is edited as
        text only).
        """
        text = text.removeprefix(BOM).replace("\r\n", "\n")
        return text if "\n" in text else text.replace("\r", "\n")

    def dressed(self, text: str) -> str:
        """``text`` (with any line ends) written with this layout."""
        text = self.plain(text)
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return BOM + text if self.bom else text


def stage(path: Path, text: str) -> Staged:
    """Write ``text`` in UTF-8 to a new file beside the file at ``path`` (or beside the
    file its link points to), with that file's mode and owner, for :meth:`Staged.commit`.

    Raises:
        OSError: the folder cannot be written, or the file is read-only; nothing was left
            there.
    """
    return stage_file(path, text.encode("utf-8"))
