"""Reading the ``entities`` argument of batch calls: which agents a call is for."""

from __future__ import annotations

from typing import Any, TypeAlias

from statetree.chart.batch.arrays import Bools, Indexes, NDArray, np
from statetree.errors import UsageError

__all__ = ["Entities", "agent_index", "count_of", "select", "select_ordered", "slot_range"]

Entities: TypeAlias = "int | NDArray[np.integer] | NDArray[np.bool_] | list[int] | range | None"
"""``None`` (every live agent), one index, indexes (any order, no repeats) or a boolean mask
with one entry per agent slot."""


def select(entities: Entities, alive: Bools) -> Indexes:
    """The indexes ``entities`` names, ascending.

    Args:
        alive: whether each agent slot holds an agent (its length is the batch's size).

    Raises:
        UsageError: not indexes or a mask of the right length, an index out of range, named
            twice, or of a slot without an agent.
    """
    return select_ordered(entities, alive)[0]


def select_ordered(entities: Entities, alive: Bools) -> tuple[Indexes, Indexes | None]:
    """As :func:`select`, with where each ascending index stands in ``entities``: ``ids ==
    given[order]``, so ``values[order]`` lines up values given one per entity with ``ids``
    (``order`` is ``None`` when ``entities`` were ascending already)."""
    if entities is None:
        return alive.nonzero()[0], None
    array = np.asarray(entities)
    kind = array.dtype.kind
    if kind == "b":
        if array.shape != alive.shape:
            raise UsageError(
                f"a mask of agents needs one entry per agent slot ({alive.size}), "
                f"got shape {array.shape}"
            )
        ids, order = array.nonzero()[0], None
    elif array.size == 0:
        ids, order = np.zeros(0, np.intp), None
    elif kind in "iu":  # signed or unsigned integers
        ids, order = _indexes(array.reshape(-1), alive.size)
    else:
        raise UsageError(f"entities must be agent indexes or a mask of agents, got {entities!r}")
    live = alive[ids]
    if not live.all():
        dead = int(ids[~live][0])
        raise UsageError(f"agent {dead} does not exist (it was despawned or never spawned)")
    return ids, order


def _indexes(array: NDArray[np.integer], size: int) -> tuple[Indexes, Indexes | None]:
    if array.min() < 0 or array.max() >= size:  # two reductions: the common case is fine
        outside = array[(array < 0) | (array >= size)]
        raise UsageError(f"agent index {int(outside[0])} is out of range: the batch has {size}")
    ids = array.astype(np.intp)
    if ids.size < 2 or (ids[1:] > ids[:-1]).all():
        return ids, None
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    twice = ids[1:][ids[1:] == ids[:-1]]
    if twice.size:
        raise UsageError(
            f"agent {int(twice[0])} is named twice; to deliver an event twice, send it twice"
        )
    return ids, order


def agent_index(index: object, size: int, live: NDArray[Any]) -> int:
    """``index``, checked to name one agent of the ``size`` slots (``live``: nonzero for
    each slot holding an agent; read at ``index`` only).

    Raises:
        UsageError: it is no integer, out of range, or a free slot's.
    """
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise UsageError(f"an agent index must be an integer, got {index!r}")
    number = int(index)
    if not 0 <= number < size:
        raise UsageError(f"agent {index} does not exist (the batch has {size} slots)")
    if not live[number]:
        raise UsageError(f"agent {index} does not exist (it was despawned)")
    return number


def count_of(value: object, message: str) -> int:
    """``value`` as a count (an integer, NumPy's too; not a boolean), else a ``UsageError``
    with ``message`` and the value."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise UsageError(f"{message} (a whole number), got {value!r}")
    number = int(value)
    if number < 0:
        raise UsageError(f"{message}, got {number}")
    return number


def slot_range(start: object, stop: object, size: int, call: str) -> tuple[int, int]:
    """The slots ``start`` to ``stop - 1`` (``stop`` ``None``: to the end) of ``size``.

    Raises:
        UsageError: they are no range of the slots (``call`` names the call).
    """
    begin = count_of(start, f"{call}() needs a start of at least 0")
    end = size if stop is None else count_of(stop, f"{call}() needs a stop of at least 0")
    if begin > end:
        raise UsageError(f"{call}({start}, {stop}): the start is after the stop")
    if end > size:
        raise UsageError(f"{call}({start}, {stop}): the batch has {size} slots")
    return begin, end
