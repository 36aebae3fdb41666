"""Which agents of a sharded batch a call names: global indexes, checked before any shard
hears of the call (so a refused call changes no shard)."""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

from statetree.errors import UsageError

__all__ = ["Bools", "Entities", "Indexes", "select"]

Bools: TypeAlias = NDArray[np.bool_]
Indexes: TypeAlias = NDArray[np.intp]
Entities: TypeAlias = "int | NDArray[np.integer] | NDArray[np.bool_] | list[int] | range | None"
"""``None`` (every agent), one global index, global indexes (any order, no repeats) or a
boolean mask with one entry per agent slot of the whole batch."""


def select(entities: Entities, alive: Bools) -> Indexes:
    """The global indexes ``entities`` names, ascending.

    Args:
        alive: whether each slot of the whole batch holds an agent.

    Raises:
        UsageError: not indexes or a mask of the right length, an index out of range, named
            twice, or of a slot without an agent.
    """
    if entities is None:
        return np.flatnonzero(alive)
    array = np.asarray(entities)
    if array.dtype.kind == "b":
        if array.shape != alive.shape:
            raise UsageError(
                f"a mask of agents needs one entry per agent slot ({alive.size}), "
                f"got shape {array.shape}"
            )
        ids = np.flatnonzero(array)
    else:
        ids = _indexes(array, alive.size, entities)
    dead = ids[~alive[ids]]
    if dead.size:
        raise UsageError(f"agent {int(dead[0])} does not exist (it was despawned or never spawned)")
    return ids


def _indexes(array: NDArray[np.generic], size: int, entities: Entities) -> Indexes:
    if array.size and array.dtype.kind not in "iu":
        raise UsageError(f"entities must be agent indexes or a mask of agents, got {entities!r}")
    ids = np.sort(array.reshape(-1).astype(np.intp))
    if ids.size and (ids[0] < 0 or ids[-1] >= size):
        outside = ids[(ids < 0) | (ids >= size)]
        raise UsageError(f"agent index {int(outside[0])} is out of range: the batch has {size}")
    twice = ids[1:][ids[1:] == ids[:-1]]
    if twice.size:
        raise UsageError(
            f"agent {int(twice[0])} is named twice; to deliver an event twice, send it twice"
        )
    return ids
