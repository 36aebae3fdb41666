"""Undo and redo of the edits saved from the page: the file's texts before and after each.

Going back restores the exact text the file had, comments and layout included. It is only
offered while the file still holds the text the last edit saved: a file changed by someone
else has no history here until it holds that text again, and the next edit saved here
starts a new history.

Pages check their undos on worker threads while the program commits edits on its own
thread, so a check changes nothing: a commit checks again that the history still holds the
step it makes (:meth:`EditHistory.check`) before anything is reloaded or saved.
"""

from __future__ import annotations

import threading
from typing import Literal

from statetree.inspect.adapters import InspectError, PreparedEdit

__all__ = ["EditHistory"]

HISTORY = 100
"""How many edits can be undone."""


class EditHistory:
    """The edits saved to one file, as ``(text before, text after)`` pairs; each pair's
    text after is the next one's text before."""

    def __init__(self, limit: int = HISTORY) -> None:
        self._limit = limit
        self._undo: list[tuple[str, str]] = []
        self._redo: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def counts(self, current: str) -> dict[str, int]:
        """How many edits can be undone and redone, given the file's text ``current``."""
        with self._lock:
            undo = len(self._undo) if self._undo and self._undo[-1][1] == current else 0
            redo = len(self._redo) if self._redo and self._redo[-1][0] == current else 0
        return {"undo": undo, "redo": redo}

    def target(self, step: Literal["undo", "redo"], current: str) -> str:
        """The text that undoing or redoing the last edit writes, given the file's text.

        Raises:
            InspectError: there is nothing to undo or redo, or the file changed since.
        """
        with self._lock:
            top = self._top(step)
        if top is None:
            raise InspectError(f"nothing to {step}")
        expected, wanted = _ends(step, top)
        if current != expected:
            raise InspectError(
                f"the chart file changed since the last edit made here: nothing to {step}"
            )
        return wanted

    def check(self, prepared: PreparedEdit) -> None:
        """Check that an undo or redo is still the next step of the history (another page
        may have made it, or made a new edit, since it was prepared).

        Raises:
            InspectError: it is not; nothing changed.
        """
        if prepared.step == "edit":
            return
        with self._lock:
            top = self._top(prepared.step)
        if top is None or _ends(prepared.step, top) != (prepared.base, prepared.text):
            raise InspectError(
                f"the edits made here changed while this {prepared.step} was checked: "
                "nothing was saved"
            )

    def made_here(self, base: str, current: str) -> bool:
        """Whether the file went from ``base`` to ``current`` by edits saved here only (the
        last ones, in order), or by the undo saved last."""
        with self._lock:
            if self._redo and self._redo[-1] == (current, base):
                return True
            text = current
            for before, after in reversed(self._undo):
                if after != text:
                    return False
                text = before
                if text == base:
                    return True
        return False

    def saved(self, prepared: PreparedEdit) -> None:
        """Remember an edit that was just saved, after :meth:`check` (an undo or redo moves
        between stacks)."""
        with self._lock:
            if prepared.step == "edit":
                if self._undo and self._undo[-1][1] != prepared.base:
                    self._undo.clear()  # the file was changed elsewhere: a new history
                self._undo.append((prepared.base, prepared.text))
                del self._undo[: -self._limit]
                self._redo.clear()
            elif prepared.step == "undo":
                self._redo.append(self._undo.pop())
            else:
                self._undo.append(self._redo.pop())

    def _top(self, step: Literal["undo", "redo"]) -> tuple[str, str] | None:
        stack = self._undo if step == "undo" else self._redo
        return stack[-1] if stack else None


def _ends(step: Literal["undo", "redo"], pair: tuple[str, str]) -> tuple[str, str]:
    """The file's text before and after undoing or redoing the edit ``pair``."""
    before, after = pair
    return (after, before) if step == "undo" else (before, after)
