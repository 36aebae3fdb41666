"""Frame-numbered inputs delivered once each, in frame order, whatever order they arrive in."""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["InputQueue"]

T = TypeVar("T")


class InputQueue(Generic[T]):
    """Holds inputs until every earlier frame's has arrived, then hands them out in order.

    Args:
        next_frame: the first frame expected (``None``: the first frame pushed, so that a
            peer that joins late, or again, starts where its inputs do).
        window: how far ahead of ``next_frame`` inputs are kept; later ones are dropped
            (a peer cannot make the queue grow without bound).
    """

    __slots__ = ("_next", "_pending", "_window")

    def __init__(self, next_frame: int | None = 1, window: int = 256) -> None:
        self._next = next_frame
        self._window = window
        self._pending: dict[int, T] = {}

    @property
    def next_frame(self) -> int | None:
        """The frame whose input is needed next (``None``: the first one pushed)."""
        return self._next

    def push(self, frame: int, data: T) -> bool:
        """Keep the input of ``frame``; return whether it was new and within the window."""
        if self._next is None:
            self._next = frame
        if not self._next <= frame < self._next + self._window or frame in self._pending:
            return False
        self._pending[frame] = data
        return True

    def pop_ready(self) -> list[tuple[int, T]]:
        """The inputs that now follow each other from ``next_frame``, oldest first."""
        ready: list[tuple[int, T]] = []
        if self._next is None:
            return ready
        while self._next in self._pending:
            ready.append((self._next, self._pending.pop(self._next)))
            self._next += 1
        return ready
