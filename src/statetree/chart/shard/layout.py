"""Where each agent of a sharded batch lives: its shard and its slot there.

Every global slot, free or not, belongs to one shard and has a local slot there, and each
shard's slots are in increasing global order. Spawning takes the lowest free global slots
first (as ``ChartBatch`` does), each in the shard that holds it; a new slot goes to the shard
with the fewest agents, after its others. So a shard's ``ChartBatch.spawn`` picks exactly the
local slots of the global ones chosen, and the order survives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from statetree.chart.batch.agents import check_room
from statetree.chart.batch.arrays import Bools, Indexes

__all__ = ["Layout"]

K = TypeVar("K")


@dataclass
class Layout:
    """The place of every global slot.

    Attributes:
        alive: whether each global slot holds an agent.
        owner: the shard of each global slot.
        row: the local slot of each global slot in its shard.
        members: for each shard, the global index of each of its local slots (increasing).
    """

    alive: Bools
    owner: NDArray[np.int32]
    row: Indexes
    members: list[Indexes]
    _room: tuple[Bools, NDArray[np.int32], Indexes] | None = None
    """Arrays with room for more slots, whose first ``size`` entries the three above view
    (capacity doubles, as a batch's does, so spawning is not a copy of every slot)."""

    @classmethod
    def of(cls, members: Sequence[Indexes], alive: Bools) -> Layout:
        """The layout of shards holding ``members`` (together, every slot once)."""
        size = alive.size
        owner = np.zeros(size, np.int32)
        row = np.zeros(size, np.intp)
        for shard, slots in enumerate(members):
            owner[slots] = shard
            row[slots] = np.arange(slots.size)
        return cls(alive.copy(), owner, row, [slots.copy() for slots in members])

    def copy(self) -> Layout:
        return Layout.of(self.members, self.alive)

    @property
    def size(self) -> int:
        return int(self.alive.size)

    def population(self, shard: int) -> int:
        """How many agents shard ``shard`` holds."""
        return int(np.count_nonzero(self.alive[self.members[shard]]))

    def route(self, ids: Indexes) -> dict[int, Indexes]:
        """The local slots of the agents ``ids`` (global, ascending), by shard."""
        owners = self.owner[ids]
        return {int(shard): self.row[ids[owners == shard]] for shard in np.unique(owners).tolist()}

    def local(self, values: NDArray[Any], shard: int) -> NDArray[Any]:
        """``values`` (one per global slot) as one per local slot of ``shard``."""
        slots = self.members[shard]
        if slots.size and slots[-1] - slots[0] == slots.size - 1:  # a range: a view
            return values[slots[0] : slots[-1] + 1]
        return values[slots]

    def split(
        self, values: Mapping[K, NDArray[Any]], entities: object, ids: Indexes | None
    ) -> dict[int, tuple[dict[K, NDArray[Any]], Indexes | None]]:
        """Arrays of one value per agent named, as each shard's part and its local slots.

        Args:
            values: arrays with one entry per agent of ``entities`` (in the order given),
                or, when ``ids`` is ``None``, one per global slot.
            entities: what the caller named (indexes in any order, or a mask).
            ids: the global indexes ``entities`` names, ascending (``None``: every slot).
        """
        if ids is None:
            return {
                shard: ({key: self.local(array, shard) for key, array in values.items()}, None)
                for shard in range(len(self.members))
            }
        named = np.asarray(entities)
        if named.dtype.kind != "b":  # given in any order: put them in ascending order
            order = np.argsort(named.reshape(-1), kind="stable")
            values = {key: array[order] for key, array in values.items()}
        owners = self.owner[ids]
        parts = {}
        for shard in np.unique(owners).tolist():
            mine = owners == shard
            parts[int(shard)] = ({k: a[mine] for k, a in values.items()}, self.row[ids[mine]])
        return parts

    def spawn(self, count: int) -> dict[int, Indexes]:
        """Place ``count`` new agents; their global indexes, by shard."""
        free = np.flatnonzero(~self.alive)[:count]
        added = count - free.size
        if added:
            check_room(self.size + added)
            shards = len(self.members)
            target = min(range(shards), key=lambda shard: (self.population(shard), shard))
            fresh = np.arange(self.size, self.size + added)
            self._extend(added)
            self.alive[fresh] = False
            self.owner[fresh] = target
            self.row[fresh] = self.members[target].size + np.arange(added)
            self.members[target] = np.concatenate([self.members[target], fresh])
            free = np.concatenate([free, fresh])
        self.alive[free] = True
        owners = self.owner[free]
        return {int(shard): free[owners == shard] for shard in np.unique(owners).tolist()}

    def _extend(self, added: int) -> None:
        """``added`` more slots (their entries to be written by the caller)."""
        size = self.size + added
        room = self._room or (self.alive, self.owner, self.row)
        if size > room[0].size:
            capacity = max(size, 2 * room[0].size)
            room = (_grown(room[0], capacity), _grown(room[1], capacity), _grown(room[2], capacity))
        self._room = room
        self.alive, self.owner, self.row = room[0][:size], room[1][:size], room[2][:size]

    def move(self, ids: Indexes, target: int) -> None:
        """Move the agents ``ids`` to shard ``target``, every shard's slots in order."""
        moved = ids[self.owner[ids] != target]
        members = [np.setdiff1d(slots, moved) for slots in self.members]
        members[target] = np.union1d(self.members[target], moved)
        placed = Layout.of(members, self.alive)
        self.alive, self.owner, self.row = placed.alive, placed.owner, placed.row
        self.members, self._room = placed.members, None


def _grown(array: NDArray[Any], capacity: int) -> NDArray[Any]:
    grown = np.zeros(capacity, array.dtype)
    grown[: array.size] = array
    return grown
