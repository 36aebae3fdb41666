"""What the compiled core does in C (``capi.pxd``) on its per-frame path, as Python.

Compiled, a core module that imports this module calls the C functions of ``capi.pxd``
instead: the same results without the attribute machinery's type lookups. As Python these
functions are one more call than the attribute syntax they stand for, so the hottest places
of the Python source write that syntax (``type(state)._st_exits``, ``state.owner = ...``).
"""

from __future__ import annotations

from threading import get_ident as thread_id
from typing import Any

__all__ = ["cached", "own", "set_slot", "thread_id"]


def own(target: object, name: str) -> Any:
    """``target``'s attribute ``name``, or ``None`` (compiled: read from the class's own
    dictionary when it holds it, as every ``State`` subclass holds its ``_st_`` fields)."""
    return getattr(target, name, None)


def cached(target: object, name: str) -> Any:
    """``target``'s attribute ``name`` when its own dictionary holds it (not inherited),
    else ``None``; ``None`` when ``target`` is not a class."""
    return vars(target).get(name) if isinstance(target, type) else None


def set_slot(descriptor: Any, instance: object, value: object) -> None:
    """Set ``instance``'s field through ``descriptor`` (a slot of its class)."""
    descriptor.__set__(instance, value)
