"""Files written whole: a failed or interrupted write leaves the file as it was.

The data goes to a file beside the target, which is then renamed over it in one step, so a
reader (or the next run) sees the old file or the new one, never part of one. A link is
followed (the file it names is replaced); a device or a pipe (``/dev/stdout``) is written in
place, as there is nothing to rename over it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading

__all__ = ["replace_file"]


def replace_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` as the whole content of the file at ``path``.

    Raises:
        OSError: the file cannot be written; a file already there is left as it was.
    """
    target = os.path.realpath(path)
    try:
        regular = stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        regular = True
    if not regular:
        with open(target, "wb") as file:
            file.write(data)
        return
    folder, name = os.path.split(target)
    # Unique to this thread: tempfile would make it so too, at a cost to every import.
    partial = os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident()}.part")
    try:
        with open(partial, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, target)
    except OSError as error:  # named by the file asked for, not the one beside it
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise type(error)(error.errno, error.strerror, os.fspath(path)) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise
