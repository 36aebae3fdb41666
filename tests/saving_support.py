"""What the save tests share: a host (an object with ``play(step)`` and ``outcome()``) saved
at any step goes on as never saved, here and in the other core.

The other core runs in a second process: the Python source when this process runs the
compiled core, the compiled core when this one runs the source. :func:`running_other_core`
starts one (the suite's fixture ``other_core`` holds one for the session);
:meth:`OtherCore.call` runs a function (found by name, as pickle finds it) there with pickled
arguments and returns its pickled result.
"""

from __future__ import annotations

import copy
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

import pytest

import statetree

_ROOT = Path(__file__).resolve().parent.parent
_VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"
_COMPILED_BUILDS = (_ROOT / "build" / f"compiled-{_VERSION}", _ROOT / "build" / "compiled")
"""Where the compiled core is built (a copy of the package put first on the path): by the
other CPythons' runs of ``make test`` (``noxfile.py``), then by ``make`` itself."""

# The worker: it reports which core it runs, then answers each request (a function and its
# arguments, pickled) with ("ok", result) or ("error", traceback), each framed by its size.
_WORKER = """
import pickle, struct, sys, traceback
import statetree
replies, requests = sys.stdout.buffer, sys.stdin.buffer
sys.stdout = sys.stderr  # what the code run prints never mixes with the replies

def reply(value):
    data = pickle.dumps(value)
    replies.write(struct.pack("<Q", len(data)) + data)
    replies.flush()

reply(statetree.__compiled__)
while (head := requests.read(8)):
    request = requests.read(struct.unpack("<Q", head)[0])
    try:
        function, args = pickle.loads(request)
        answer = ("ok", function(*args))
    except Exception:
        answer = ("error", traceback.format_exc())
    reply(answer)
"""


class Host(Protocol):
    def play(self, step: Any) -> None: ...

    def outcome(self) -> Any: ...


H = TypeVar("H", bound=Host)
T = TypeVar("T")


class OtherCore:
    """A worker process running the core this process does not run."""

    def __init__(self) -> None:
        # The core that runs is the package first on the path: the compiled build, or the
        # source. The worker's path leaves out this process's package and, for the compiled
        # core, puts the build first.
        running = Path(statetree.__file__).resolve().parents[1]
        paths = [
            path
            for path in sys.path
            if path
            and Path(path).resolve().is_relative_to(_ROOT)
            and Path(path).resolve() != running
        ]
        if not statetree.__compiled__:
            paths[:0] = [str(build) for build in _COMPILED_BUILDS if build.is_dir()][:1]
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        self._process = subprocess.Popen(
            [sys.executable, "-c", _WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment,
        )
        self.compiled: bool = self._receive()

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` run in the other core.

        Raises:
            AssertionError: it raised there (the message is its traceback).
        """
        data = pickle.dumps((function, args))
        requests = self._pipe(self._process.stdin)
        requests.write(struct.pack("<Q", len(data)) + data)
        requests.flush()
        kind, value = self._receive()
        if kind == "error":
            raise AssertionError(f"in the other core:\n{value}")
        return value

    def _receive(self) -> Any:
        replies = self._pipe(self._process.stdout)
        head = replies.read(8)
        if len(head) < 8:
            raise AssertionError(f"the other core's process ended ({self._process.wait()})")
        return pickle.loads(replies.read(struct.unpack("<Q", head)[0]))

    @staticmethod
    def _pipe(pipe: IO[bytes] | None) -> IO[bytes]:
        assert pipe is not None
        return pipe

    def close(self) -> None:
        """End the worker (it ends when its requests end) and wait for it."""
        self._pipe(self._process.stdin).close()
        self._process.wait()
        self._pipe(self._process.stdout).close()


@contextmanager
def running_other_core() -> Iterator[OtherCore]:
    """A worker running the other core, closed on leaving; skips the test where the other
    core cannot run (this process runs the source and the core was not compiled)."""
    other = OtherCore()
    try:
        if other.compiled == statetree.__compiled__:
            pytest.skip(
                "no compiled build of the core for this Python (make test builds one): "
                "there is no other core to run"
            )
        yield other
    finally:
        other.close()


def playing(host: H, steps: Sequence[Any]) -> H:
    """``host`` once it has played ``steps``."""
    for step in steps:
        host.play(step)
    return host


COPIES = ("pickle", "deepcopy")
"""How :func:`saved` saves."""


def saved(value: T, how: str) -> T:
    """``value`` pickled and loaded (``"pickle"``), or deep-copied (``"deepcopy"``)."""
    if how == "pickle":
        loaded: T = pickle.loads(pickle.dumps(value))
        return loaded
    return copy.deepcopy(value)


def goes_on_as_never_saved(
    make: Callable[..., Host],
    args: tuple[Any, ...],
    steps: Sequence[Any],
    cut: int,
    save: Callable[[Any], Any],
) -> None:
    """The host ``make(*args)`` saved with ``save`` after ``steps[:cut]`` is what it was, no
    hook having run, and from there the copy and the original go on as it does never saved.

    Raises:
        AssertionError: they do not.
    """
    expected = playing(make(*args), steps).outcome()
    original = playing(make(*args), steps[:cut])
    before = original.outcome()
    twin = save(original)
    assert twin.outcome() == before == original.outcome()  # nothing ran while saving
    for host in (twin, original):
        assert playing(host, steps[cut:]).outcome() == expected


def goes_on_alike(
    other: OtherCore,
    make: Callable[..., Host],
    args: tuple[Any, ...],
    steps: Sequence[Any],
    cut: int,
) -> None:
    """The host ``make(*args)`` saved here after ``steps[:cut]`` goes on in the other core
    as it does never saved, and saved there at that step, it goes on here alike.

    Raises:
        AssertionError: it does not.
    """
    expected = playing(make(*args), steps).outcome()
    saved_here = pickle.dumps(playing(make(*args), steps[:cut]))
    assert other.call(go_on, saved_here, steps[cut:]) == expected
    saved_there: Host = pickle.loads(other.call(played, make, args, steps[:cut]))
    assert playing(saved_there, steps[cut:]).outcome() == expected


def played(make: Callable[..., Host], args: tuple[Any, ...], steps: Sequence[Any]) -> bytes:
    """The host ``make(*args)`` saved once it has played ``steps`` (run in the other core)."""
    return pickle.dumps(playing(make(*args), steps))


def go_on(saved: bytes, steps: Sequence[Any]) -> Any:
    """The outcome of the host ``saved`` once it has played ``steps`` (run in the other
    core)."""
    host: Host = pickle.loads(saved)
    return playing(host, steps).outcome()
