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

import math
from collections.abc import Mapping
from operator import eq
from typing import Any, SupportsFloat, cast

from statetree.errors import UsageError

__all__ = ["add_frame_time", "caused_by", "find_event", "matches", "seconds"]


def matches(event: object, kind: object) -> bool:
    """Whether ``event`` is of ``kind``: an instance of it when ``kind`` is a class (or of
    one of them, for a tuple of classes), else equal to it (a string, an enum member, a
    value).

    Raises:
        UsageError: ``==`` gives no truth value (it raised, or gave something whose truth
            raised); the exception it raised is the cause.
    """
    if isinstance(kind, type) and isinstance(event, kind):
        return True
    if (
        isinstance(kind, tuple)
        and kind
        and all(isinstance(each, type) for each in kind)
        and isinstance(event, kind)
    ):  # a tuple of classes: an instance of any of them, as isinstance reads it
        return True
    # == may give any object (NumPy scalars give numpy.bool): its truth is what counts.
    # operator.eq keeps it an object in compiled code too, where == is taken as a bool.
    try:
        return bool(eq(event, kind))
    except Exception as error:
        raise caused_by(
            UsageError(
                f"comparing it with the event {event!r} gives neither true nor false (an "
                "event's == must give a truth value)"
            ),
            error,
        ) from error


def caused_by(error: UsageError, cause: BaseException | None) -> UsageError:
    """``error`` with ``cause`` as its ``__cause__`` (set here: compiled code does not set
    it from ``raise ... from``)."""
    error.__cause__ = cause
    return error


def find_event(events: list[object], kind: object, take: bool) -> Any:
    """The oldest event of ``kind`` in ``events`` (removed when ``take``), or ``None``."""
    for index, event in enumerate(events):
        if matches(event, kind):
            if take:
                del events[index]
            return event
    return None


def seconds(value: object) -> float:
    """``value`` as a float number of seconds, whatever real number it is (an int, a float,
    a NumPy scalar, a ``Fraction``, a ``Decimal``); NaN for anything else (a bool, NumPy's
    included, a string, ``None``, a list) and infinity for an int too large for a float, so
    that one range check refuses them all.
    """
    if type(value) is float:
        return value
    if isinstance(value, (bool, str, bytes, bytearray)):  # float() reads text, not time
        return math.nan
    if getattr(getattr(value, "dtype", None), "kind", None) == "b":  # np.True_ and the like
        return math.nan
    try:
        return float(cast(SupportsFloat, value))
    except OverflowError:
        return math.inf
    except (TypeError, ValueError, ArithmeticError):
        return math.nan


def add_frame_time(
    times: dict[int, float], args: tuple[Any, ...], kwargs: Mapping[str, Any], machine: str
) -> None:
    """Add the ``dt`` of an ``update_states`` call (its first argument, or ``dt=``) to each
    of the times in state ``times``.

    Raises:
        UsageError: there is none, it is not a finite number of seconds at least 0, or it
            would take a time in state past the largest float; nothing changed.
    """
    longest = max(times.values()) if times else 0.0
    dt = args[0] if args else kwargs.get("dt")
    found = seconds(dt)
    if not 0 <= found < math.inf:  # NaN fails every comparison
        raise UsageError(
            f"update_states() on {machine} tracks time in state, so it needs the frame's "
            f"time as its first argument or dt= (a finite number of seconds, at least 0); "
            f"got {dt!r}"
        )
    if longest + found == math.inf:
        raise UsageError(
            f"update_states({dt!r}) on {machine} would take a time in state of {longest!r} "
            "past the largest float; nothing changed"
        )
    for key in times:
        times[key] += found
