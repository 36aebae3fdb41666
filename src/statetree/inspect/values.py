"""An owner's public fields as short text, for the page's time travel.

Read on the program's thread after each frame that changed a watched machine, so reading is
bounded: at most :data:`MAX_FIELDS` fields, each shown through :mod:`reprlib` (long lists
and strings are cut), and a field whose ``repr`` raises shows the error instead.
"""

from __future__ import annotations

import enum
import reprlib
import types
from collections.abc import Iterator
from typing import Any

from statetree.bitmask import BitmaskMachine
from statetree.chart.machine import ChartMachine
from statetree.core.machine import StateMachine
from statetree.core.state_value import StateValue
from statetree.inspect.adapters import Value

__all__ = ["MAX_FIELDS", "owner_values", "text_of"]

MAX_FIELDS = 40
"""The most fields shown for one owner."""

_SHORT = reprlib.Repr()
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxdict = 8
_SHORT.maxlevel = 3

_PLAIN = (bool, int, float, type(None))
# Machines are drawn on cards of their own; their repr says nothing about the frame.
_SKIPPED = (
    types.FunctionType,
    types.MethodType,
    types.ModuleType,
    type,
    StateMachine,
    BitmaskMachine,
    ChartMachine,
)


def text_of(value: object) -> str:
    """``value`` as short text: numbers and enums as they print, the rest cut short."""
    if isinstance(value, enum.Enum):
        return str(value)
    if isinstance(value, _PLAIN):
        return repr(value)
    try:
        return _SHORT.repr(value)
    except Exception as error:  # a user's __repr__ failed: show that, not the page's error
        return f"<repr failed: {type(error).__name__}>"


def _fields(owner: object) -> Iterator[tuple[str, Any]]:
    """The public attributes of ``owner``: its ``__dict__`` and its slots."""
    seen: set[str] = set()
    names = list(getattr(owner, "__dict__", {}))
    for cls in type(owner).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    for name in names:
        if name in seen or name.startswith("_"):
            continue
        seen.add(name)
        try:
            yield name, getattr(owner, name)
        except AttributeError:  # a slot not set yet
            continue


def owner_values(owner: object) -> tuple[Value, ...]:
    """The public fields of ``owner`` (``None``: none): its state values first, then the
    other fields, leaving out methods, modules, classes and machines."""
    if owner is None:
        return ()
    held: list[Value] = []
    plain: list[Value] = []
    for name, value in _fields(owner):
        if isinstance(value, StateValue):
            held.append(("state values", name, text_of(value.value)))
        elif not isinstance(value, _SKIPPED):
            plain.append(("fields", name, text_of(value)))
        if len(held) + len(plain) >= MAX_FIELDS:
            break
    return (*held, *plain)
