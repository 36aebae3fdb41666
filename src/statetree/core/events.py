"""One-shot events and time in state: the rules, kept apart from the settle loop.

Events are posted to a machine and read by its states' ``transition()``: every event
posted before a ``process_state_transitions`` call is visible during that call, until a
state takes it, and whatever is left is discarded when the call ends. An event posted while
the machine processes (from a hook) joins the current call. No event outlives a call, so
nothing but the stack carries over from one frame to the next.

Time in state, when a machine tracks it, is the sum of the ``dt`` given to the
``update_states`` calls made while the state was active.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from statetree.errors import UsageError

__all__ = ["find_event", "frame_time", "matches"]


def matches(event: object, kind: object) -> bool:
    """Whether ``event`` is of ``kind``: an instance of it when ``kind`` is a class, else
    equal to it (a string, an enum member, a value)."""
    return (isinstance(kind, type) and isinstance(event, kind)) or event == kind


def find_event(events: list[object], kind: object, take: bool) -> Any:
    """The oldest event of ``kind`` in ``events`` (removed when ``take``), or ``None``."""
    for index, event in enumerate(events):
        if matches(event, kind):
            if take:
                del events[index]
            return event
    return None


def frame_time(args: tuple[Any, ...], kwargs: Mapping[str, Any], machine: str) -> float:
    """The ``dt`` of an ``update_states`` call: its first argument, or ``dt=``.

    Raises:
        UsageError: there is none, or it is not a number of seconds at least 0.
    """
    dt = args[0] if args else kwargs.get("dt")
    if isinstance(dt, bool) or not isinstance(dt, (int, float)) or not dt >= 0:
        raise UsageError(
            f"update_states() on {machine} tracks time in state, so it needs the frame's "
            f"time as its first argument or dt= (seconds, at least 0); got {dt!r}"
        )
    return float(dt)
