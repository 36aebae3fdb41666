"""Save files: any object holding machines (a game's world), written and read back whole.

A save file is a short header, a checksum and the object pickled (machines pickle without
running a hook, see the saving guide): a file damaged on disk or cut short is refused
before anything is built. :func:`write_save` writes nothing unless the whole object was
saved, and replaces the previous file in one step, so a failed or interrupted save never
damages the last good one. :func:`read_save` names what a save needs and the program no
longer defines. Like any pickle, a save file runs code when read: read only the files your
program wrote (for data from players or the network, use the checked snapshot bytes).
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from typing import Any, Final

from statetree.core.refs import PROTOCOL, missing, unimportable
from statetree.errors import LoadError, SaveError
from statetree.files import replace_file

__all__ = ["read_save", "write_save"]

FORMAT: Final = 2
"""The version of the save file format (its first line says which one a file is in)."""
HEADER: Final = b"statetree save %d\n" % FORMAT
_CHECKSUM: Final = 32  # bytes of SHA-256


def write_save(path: str | os.PathLike[str], value: object) -> None:
    """Save ``value`` (with everything it refers to) to the file at ``path``.

    Raises:
        SaveError: something ``value`` refers to cannot be saved (the message names it);
            the file was not touched.
        OSError: the file cannot be written; a file already there is left as it was.
    """
    try:
        data = pickle.dumps(value, PROTOCOL)
    except SaveError:
        raise
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        raise SaveError(f"cannot save {type(value).__qualname__}: {error}") from error
    replace_file(path, HEADER + _checksum(data) + data)


def _checksum(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


_DAMAGED = (
    pickle.UnpicklingError,
    EOFError,
    ValueError,
    TypeError,
    IndexError,
    KeyError,
    AttributeError,
    OverflowError,
    RecursionError,
    MemoryError,  # a damaged length asks for more than there is
)
"""What unpickling damaged bytes raises, inside the objects' own loading code too."""


def read_save(path: str | os.PathLike[str]) -> Any:
    """The object saved by :func:`write_save` in the file at ``path``.

    Raises:
        LoadError: the file is not a save, is damaged, or needs a class or function the
            program no longer defines (the message names it); nothing was built.
        OSError: the file cannot be read.
    """
    with open(path, "rb") as file:
        data = file.read()
    if not data.startswith(HEADER):
        first = data.partition(b"\n")[0]
        if data and HEADER.startswith(data):  # cut short inside its own first line
            raise LoadError(f"{path} is damaged: it ends inside its header")
        if first.startswith(b"statetree save ") and len(first) < 40:
            raise LoadError(
                f"{path} is a save of another format ({first.decode(errors='replace')}); this "
                f"version of statetree reads format {FORMAT}"
            )
        raise LoadError(f"{path} is not a statetree save (its first bytes are wrong)")
    checksum, body = data[len(HEADER) : len(HEADER) + _CHECKSUM], data[len(HEADER) + _CHECKSUM :]
    if _checksum(body) != checksum:
        raise LoadError(f"{path} is damaged: its contents do not match their checksum")
    try:
        return _Reader(io.BytesIO(body)).load()
    except LoadError as error:
        raise LoadError(f"{path}: {error}") from None
    except _DAMAGED as error:
        raise LoadError(f"{path} is damaged: {type(error).__name__}: {error}") from None


class _Reader(pickle.Unpickler):
    """Names what the save needs and the program lacks."""

    def find_class(self, module: str, name: str) -> Any:
        try:
            return super().find_class(module, name)
        except ImportError as error:
            raise unimportable(module, name, error) from None
        except AttributeError:
            raise missing(module, name) from None
