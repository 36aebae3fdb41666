"""The other core in a second process: a save written by this process's core is loaded and
continued by the other one (the Python source when this one runs compiled, the compiled
core when this one runs the source), and a save written there is continued here.

:func:`other_core` starts one worker process for a test module; :meth:`OtherCore.call`
runs a function (found by name, as pickle finds it) there with pickled arguments and
returns its pickled result. :func:`played` and :func:`go_on` are what the save tests run
there, on any host: an object with ``play(step)`` and ``outcome()``.
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Protocol

import pytest

import statetree

_ROOT = Path(__file__).resolve().parent.parent

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


class OtherCore:
    """A worker process running the core this process does not run."""

    def __init__(self) -> None:
        paths = [path for path in sys.path if path and Path(path).resolve().is_relative_to(_ROOT)]
        environment = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(paths),
            statetree.core.PURE_VARIABLE: "0" if not statetree.__compiled__ else "1",
        }
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
def other_core() -> Iterator[OtherCore]:
    """A worker running the other core, closed on leaving; skips the test where the other
    core cannot run (this process runs the source and the core was not compiled)."""
    other = OtherCore()
    try:
        if other.compiled == statetree.__compiled__:
            pytest.skip("the core is not compiled here: there is no other core to run")
        yield other
    finally:
        other.close()


def played(host: Host, steps: Sequence[Any]) -> bytes:
    """``host`` saved once it has played ``steps`` (run in the other core)."""
    for step in steps:
        host.play(step)
    return pickle.dumps(host)


def go_on(saved: bytes, steps: Sequence[Any]) -> Any:
    """The outcome of the host ``saved`` once it has played ``steps`` (run in the other
    core)."""
    host: Host = pickle.loads(saved)
    for step in steps:
        host.play(step)
    return host.outcome()
