"""The crowd's chart run by one ``ChartBatch``: every enemy in NumPy arrays."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.brains import ArrayHandler
from statetree.chart import BatchCall, ChartBatch, CompiledChart, Event, Reloaded


class BatchBrains:
    """Every enemy in one batch; a host action is one call for all the enemies doing it."""

    def __init__(
        self, chart: CompiledChart, count: int, handlers: Mapping[str, ArrayHandler]
    ) -> None:
        self.batch = ChartBatch(
            chart, count, {name: Adapted(handler) for name, handler in handlers.items()}
        )

    def start(self) -> None:
        self.batch.start()

    def set_levels(self, levels: Mapping[Event, NDArray[np.bool_]]) -> None:
        self.batch.set_levels(levels)

    def send_each(self, events: list[Event], choices: NDArray[np.intp]) -> None:
        if (choices >= 0).any():
            self.batch.send_each(events, choices)

    def tick(self, dt: float) -> None:
        self.batch.tick(dt)

    def reload(self, chart: CompiledChart) -> Reloaded:
        return self.batch.reload(chart)

    @property
    def compiled(self) -> CompiledChart:
        return self.batch.compiled

    def active(self, entity: int) -> tuple[str, ...]:
        return self.batch.active(entity)

    def counts(self) -> dict[str, int]:
        return {path: count for path, count in self.batch.counts().items() if count}

    def leaves(self, leaves: tuple[str, ...]) -> NDArray[np.intp]:
        """Each enemy's innermost active state, as an index into ``leaves``: one read for
        the whole crowd, not one per enemy."""
        index = {path: i for i, path in enumerate(leaves)}
        table = np.array([index.get(path, -1) for path in self.batch.paths], np.intp)
        found = self.batch.leaf_ids()
        return np.where(found >= 0, table[found], -1)


@dataclass(frozen=True)
class Adapted:
    """The batch's handler for an array handler: a class rather than a lambda, so that a
    saved game finds it again by its name."""

    handler: ArrayHandler

    def __call__(self, call: BatchCall) -> None:
        self.handler(call.entities, call.params)
