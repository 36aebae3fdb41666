"""Pausing and stepping the program from the page, and numbering its frames."""

from __future__ import annotations

import threading

from statetree.inspect.adapters import InspectError

__all__ = ["Gate", "Hit"]

Hit = tuple[int, str, str, str, int]
"""A breakpoint that paused the program: serial number, machine id, ``enter``/``exit``/
``event``, the state or event, and the frame it happened in."""


class Gate:
    """Decides, once per frame of the program, whether the frame runs.

    The program asks :meth:`allow` at the top of each frame; the page pauses, resumes and
    steps through :meth:`pause` and :meth:`step`. Only programs that ask can be paused:
    :attr:`driven` tells the page whether this one does.
    """

    __slots__ = ("_hits", "_lock", "_steps", "driven", "frame", "hit", "paused")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._steps = 0
        self.frame = 0
        """The number of frames allowed so far; step records carry it."""
        self.paused = False
        self.driven = False
        """Whether the program has asked :meth:`allow` at least once."""
        self._hits = 0
        self.hit: Hit | None = None
        """The last breakpoint that paused the program."""

    def allow(self) -> bool:
        """Whether the program should run its next frame (False while paused)."""
        with self._lock:
            self.driven = True
            if self.paused:
                if not self._steps:
                    return False
                self._steps -= 1
            self.frame += 1
            return True

    def pause(self, paused: bool) -> None:
        """Pause or resume the program; resuming forgets steps not taken yet."""
        with self._lock:
            self.paused = paused
            self._steps = 0

    def stop_at(self, machine: str, on: str, target: str) -> None:
        """A breakpoint was hit in this frame: pause from the next one, steps forgotten."""
        with self._lock:
            self.paused = True
            self._steps = 0
            self._hits += 1
            self.hit = (self._hits, machine, on, target, self.frame)

    def step(self, frames: int) -> None:
        """Let a paused program run ``frames`` more frames.

        Raises:
            InspectError: the program is not paused, or it never asks whether to run.
        """
        with self._lock:
            if not self.driven:
                raise InspectError(
                    "this program cannot be stepped: its loop does not call "
                    "Inspector.frame() before each frame"
                )
            if not self.paused:
                raise InspectError("the program is running: pause it before stepping")
            self._steps += frames
