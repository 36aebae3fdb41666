"""An owner's public fields, for the page's time travel.

Read on the program's thread after each frame that changed a watched machine, so reading is
cheap and bounded: at most :data:`MAX_FIELDS` fields; a value that cannot change (a number,
a string, an enum, a frozen dataclass, a tuple of such) is kept as it is and turned into
text only when a page asks for it; any other value is written down at once, cut short by
:mod:`reprlib`, since the program may change it later.
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

__all__ = ["MAX_FIELDS", "owner_values", "rounded", "text_of"]

MAX_FIELDS = 40
"""The most fields shown for one owner."""


def rounded(number: float) -> str:
    """A float as people read it: six significant digits, so a clock summed from many
    frame times shows ``91.3667``, not ``91.36666666666405`` (and ``2.0`` stays a float)."""
    text = format(number, ".6g")
    return text if any(mark in text for mark in ".ein") else f"{text}.0"


class _Short(reprlib.Repr):
    """``reprlib`` cutting values short, floats rounded wherever they are (in a tuple...)."""

    def repr_float(self, value: float, level: int) -> str:
        return rounded(value)


_SHORT = _Short()
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxdict = 8
_SHORT.maxlevel = 3

_PLAIN = frozenset({bool, int, float, str, bytes, complex, type(None)})

# Machines are drawn on cards of their own; their repr says nothing about the frame.
_SKIPPED = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.ModuleType,
    type,
    StateMachine,
    BitmaskMachine,
    ChartMachine,
)

_SLOTS: dict[type, tuple[str, ...]] = {}


class _Text(str):
    """A value already written down (it could change after the frame)."""

    __slots__ = ()


def text_of(value: object) -> str:
    """``value`` as short text: numbers and enums as they print (floats rounded, see
    :func:`rounded`), the rest cut short."""
    if isinstance(value, _Text):
        return str(value)
    if isinstance(value, enum.Enum):
        return str(value)
    if type(value) is float:
        return rounded(value)
    if type(value) in _PLAIN and not isinstance(value, str):
        return repr(value)
    try:
        return _SHORT.repr(value)
    except Exception as error:  # a user's __repr__ failed: show that, not the page's error
        return f"<repr failed: {type(error).__name__}>"


def _fixed(value: object) -> bool:
    """Whether ``value`` cannot change later (so it can be written down later)."""
    kind = type(value)
    if kind in _PLAIN or isinstance(value, enum.Enum):
        return True
    if kind is tuple:
        return all(type(item) in _PLAIN for item in value)  # type: ignore[attr-defined]
    params = getattr(kind, "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


def _kept(value: object) -> object:
    return value if _fixed(value) else _Text(text_of(value))


def _slots(kind: type) -> tuple[str, ...]:
    found = _SLOTS.get(kind)
    if found is None:
        names: list[str] = []
        for cls in kind.__mro__:
            slots = cls.__dict__.get("__slots__", ())
            names += [slots] if isinstance(slots, str) else list(slots)
        found = _SLOTS[kind] = tuple(names)
    return found


def _fields(owner: object) -> Iterator[tuple[str, Any]]:
    """The public attributes of ``owner``: its ``__dict__`` and its slots."""
    attributes = getattr(owner, "__dict__", None)
    if attributes:
        yield from ((name, value) for name, value in attributes.items() if name[:1] != "_")
    for name in _slots(type(owner)):
        if name[:1] != "_" and name != "__dict__":
            try:
                yield name, getattr(owner, name)
            except AttributeError:  # a slot not set yet
                continue


def owner_values(owner: object) -> tuple[Value, ...]:
    """The public fields of ``owner`` (``None``: none): its state values first, then the
    other fields, leaving out functions, methods, modules, classes and machines."""
    if owner is None:
        return ()
    held: list[Value] = []
    plain: list[Value] = []
    for name, value in _fields(owner):
        if isinstance(value, StateValue):
            held.append(("state values", name, _kept(value.value)))
        elif not isinstance(value, _SKIPPED):
            plain.append(("fields", name, _kept(value)))
        if len(held) + len(plain) >= MAX_FIELDS:
            break
    return (*held, *plain)
