"""The seam between the crowd and the chart runtime that thinks for it.

A crowd hands its chart and its array handlers (``handler(entities, params)``, entities an
array of indexes) to one of two engines with the same calls: :class:`BatchBrains` runs every
enemy in one ``ChartBatch`` (NumPy arrays), :class:`MachineBrains` runs one ``ChartMachine``
per enemy. Both give each enemy the same behaviour; the batch is the faster from a few
thousand enemies on, the machines can be traced and inspected one by one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from statetree.chart import ActionCall, ChartMachine, CompiledChart, Event, Reloaded
from statetree.chart.model import ParamValue

Entities = NDArray[np.intp]
ArrayHandler = Callable[[Entities, Mapping[str, ParamValue]], None]
"""What the crowd registers for a host action: the enemies performing it and its parameters."""


class Brains(Protocol):
    """What the crowd asks of its chart engine."""

    def start(self) -> None: ...
    def set_levels(self, levels: Mapping[Event, NDArray[np.bool_]]) -> None: ...
    def send_each(self, events: list[Event], choices: NDArray[np.intp]) -> None: ...
    def tick(self, dt: float) -> None: ...
    def reload(self, chart: CompiledChart) -> Reloaded: ...
    @property
    def compiled(self) -> CompiledChart: ...
    def active(self, entity: int) -> tuple[str, ...]: ...
    def counts(self) -> dict[str, int]: ...
    def leaves(self, leaves: tuple[str, ...]) -> NDArray[np.intp]: ...


@dataclass(frozen=True)
class Relay:
    """A machine's handler calling an array handler for the one enemy whose action it is
    (a class rather than a lambda, so that a saved game finds it again by its name)."""

    handler: ArrayHandler
    ones: list[Entities]
    """A one-enemy array per enemy, made once."""

    def __call__(self, call: ActionCall) -> None:
        self.handler(self.ones[call.owner], call.params)


class MachineBrains:
    """One ``ChartMachine`` per enemy, owned by the enemy's index, sharing its handlers."""

    def __init__(
        self, chart: CompiledChart, count: int, handlers: Mapping[str, ArrayHandler]
    ) -> None:
        self.compiled = chart
        self.ones = [np.array([i], dtype=np.intp) for i in range(count)]
        shared = {name: Relay(handler, self.ones) for name, handler in handlers.items()}
        self.machines = [
            ChartMachine(chart, shared, name=f"Enemy[{i}]", owner=i) for i in range(count)
        ]
        self.levels: dict[Event, NDArray[np.bool_]] = {}

    def start(self) -> None:
        for machine in self.machines:
            machine.start()

    def set_levels(self, levels: Mapping[Event, NDArray[np.bool_]]) -> None:
        count = len(self.machines)
        changed = np.zeros(count, bool)
        for event, on in levels.items():
            changed |= on != self.levels.get(event, np.zeros(count, bool))
        for i in np.flatnonzero(changed).tolist():
            self.machines[i].set_levels({event: bool(on[i]) for event, on in levels.items()})
        self.levels.update(levels)

    def send_each(self, events: list[Event], choices: NDArray[np.intp]) -> None:
        for i in np.flatnonzero(choices >= 0).tolist():
            self.machines[i].send(events[choices[i]])

    def tick(self, dt: float) -> None:
        for machine in self.machines:
            machine.tick(dt)

    def reload(self, chart: CompiledChart) -> Reloaded:
        reports = [machine.reload(chart) for machine in self.machines]
        self.compiled = chart
        return Reloaded(*(_union(getattr(r, part) for r in reports) for part in _PARTS))

    def active(self, entity: int) -> tuple[str, ...]:
        return self.machines[entity].active

    def counts(self) -> dict[str, int]:
        found = Counter(path for machine in self.machines for path in machine.active)
        return dict(found)

    def leaves(self, leaves: tuple[str, ...]) -> NDArray[np.intp]:
        """Each enemy's innermost active state, as an index into ``leaves``."""
        index = {path: i for i, path in enumerate(leaves)}
        return np.array([index[machine.active[-1]] for machine in self.machines], np.intp)


_PARTS = ("kept", "exited", "entered")


def _union(groups: Any) -> tuple[str, ...]:
    return tuple(sorted({path for group in groups for path in group}))
