"""Undo and redo of the edits saved from the page: the file's texts before and after each.

Going back restores the exact text the file had, comments and layout included. It is only
offered while the file still holds the text the last edit saved: a file changed by someone
else since has no history here any more.
"""

from __future__ import annotations

from typing import Literal

from statetree.inspect.adapters import InspectError, PreparedEdit

__all__ = ["EditHistory"]

HISTORY = 100
"""How many edits can be undone."""


class EditHistory:
    """The edits saved to one file, as ``(text before, text after)`` pairs."""

    def __init__(self, limit: int = HISTORY) -> None:
        self._limit = limit
        self._undo: list[tuple[str, str]] = []
        self._redo: list[tuple[str, str]] = []

    @property
    def counts(self) -> dict[str, int]:
        """How many edits can be undone and redone."""
        return {"undo": len(self._undo), "redo": len(self._redo)}

    def target(self, step: Literal["undo", "redo"], current: str) -> str:
        """The text that undoing or redoing the last edit writes, given the file's text.

        Raises:
            InspectError: there is nothing to undo or redo, or the file changed since.
        """
        stack = self._undo if step == "undo" else self._redo
        if not stack:
            raise InspectError(f"nothing to {step}")
        before, after = stack[-1]
        expected, wanted = (after, before) if step == "undo" else (before, after)
        if current != expected:
            self._undo.clear()
            self._redo.clear()
            raise InspectError(
                f"the chart file changed since the last edit made here: nothing to {step}"
            )
        return wanted

    def saved(self, prepared: PreparedEdit) -> None:
        """Remember an edit that was just saved (an undo or redo moves between stacks)."""
        if prepared.step == "edit":
            self._undo.append((prepared.base, prepared.text))
            del self._undo[: -self._limit]
            self._redo.clear()
        elif prepared.step == "undo":
            self._redo.append(self._undo.pop())
        else:
            self._undo.append(self._redo.pop())
