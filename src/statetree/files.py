"""Files written whole: a failed or interrupted write leaves the file as it was.

The data goes to a file beside the target, which is then renamed over it in one step, so a
reader (or the next run) sees the old file or the new one, never part of one. The new file
keeps the old one's mode (and owner, where this process may give it), and a read-only file
is refused rather than replaced. A link is followed (the file it names is replaced); a
device or a pipe (``/dev/stdout``) is written in place, as there is nothing to rename over it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import threading
from dataclasses import dataclass

__all__ = ["Staged", "replace_file", "stage_file"]


@dataclass(frozen=True, slots=True)
class Staged:
    """New data written beside the file it replaces, not yet in its place.

    Attributes:
        temporary: the file beside it; ``target``: the file replaced (a link followed);
        asked: the path the caller gave, which errors name.
    """

    temporary: str
    target: str
    asked: str

    def commit(self) -> None:
        """Put the new data in the file's place, at once.

        Raises:
            OSError: the rename failed; the file is as it was, and the new data is gone.
        """
        try:
            os.replace(self.temporary, self.target)
        except OSError as error:
            self.discard()
            raise type(error)(error.errno, error.strerror, self.asked) from None
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Drop the new data; the file stays as it was."""
        with contextlib.suppress(OSError):
            os.remove(self.temporary)


def replace_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` as the whole content of the file at ``path``.

    Raises:
        OSError: the file cannot be written, or is read-only; a file already there is left
            as it was.
    """
    target = os.path.realpath(path)
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISREG(os.stat(target).st_mode):
            with open(target, "wb") as file:
                file.write(data)
            return
    stage_file(path, data).commit()


def stage_file(path: str | os.PathLike[str], data: bytes) -> Staged:
    """Write ``data`` to a new file beside the file at ``path`` (or beside the file its
    link names), with that file's mode and owner, for :meth:`Staged.commit`.

    Raises:
        OSError: the folder cannot be written, or the file is read-only; nothing was left
            there.
    """
    asked = os.fspath(path)
    target = os.path.realpath(path)
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    # A file nobody may write is refused even where this process could (as root).
    if old is not None and (not old.st_mode & 0o222 or not os.access(target, os.W_OK)):
        raise PermissionError(errno.EACCES, "the file is read-only", asked)
    folder, name = os.path.split(target)
    # Unique to this thread: tempfile would make it so too, at a cost to every import.
    partial = os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident()}.part")
    staged = Staged(partial, target, asked)
    with contextlib.suppress(OSError):  # one left by a run that died
        os.remove(partial)
    try:
        # Only its owner reads the new data of a file that exists until it has that file's
        # mode; a new file gets the usual one.
        handle = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if old else 0o666)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        if old is not None:
            _take_over(partial, old)
    except OSError as error:  # named by the file asked for, not the one beside it
        staged.discard()
        raise type(error)(error.errno, error.strerror, asked) from None
    except BaseException:
        staged.discard()
        raise
    return staged


def _take_over(new: str, old: os.stat_result) -> None:
    """Give ``new`` the mode and, if allowed, the owner of the file ``old`` describes."""
    os.chmod(new, stat.S_IMODE(old.st_mode))
    if hasattr(os, "chown"):
        with contextlib.suppress(OSError):  # only the owner's group, or root, may
            os.chown(new, old.st_uid, old.st_gid)
