"""Conditions compiled for evaluation: small objects asked ``holds(runtime, threshold)``.

An edge trigger holds when its event was latched with a serial number above ``threshold``
(the start of the current processing, or the entry of the state asking, whichever is
later). A level trigger holds while the host keeps it on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from statetree.chart.events import Event
from statetree.chart.model import AllOf, AnyOf, Condition, NotOf, TriggerDef

if TYPE_CHECKING:
    from statetree.chart.runtime import ChartRuntime

__all__ = ["Compiled", "Latched", "Level", "compile_all", "compile_any", "compile_condition"]


class Compiled:
    """A compiled condition (one subclass per kind of condition)."""

    __slots__ = ()

    def holds(self, runtime: ChartRuntime, threshold: int) -> bool:
        """Whether the condition holds now, counting events latched after ``threshold``."""
        raise NotImplementedError


class Latched(Compiled):
    """An edge trigger: its event was latched after the threshold."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def holds(self, runtime: ChartRuntime, threshold: int) -> bool:
        return runtime.latched[self.index] > threshold


class Level(Compiled):
    """A level trigger: the host holds it on."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def holds(self, runtime: ChartRuntime, threshold: int) -> bool:
        return runtime.levels[self.index]


class All(Compiled):
    __slots__ = ("items",)

    def __init__(self, items: tuple[Compiled, ...]) -> None:
        self.items = items

    def holds(self, runtime: ChartRuntime, threshold: int) -> bool:
        # A loop: compiled, a C method cannot hold the generator that all() would take.
        for item in self.items:
            if not item.holds(runtime, threshold):
                break
        else:
            return True
        return False


class Any_(Compiled):
    __slots__ = ("items",)

    def __init__(self, items: tuple[Compiled, ...]) -> None:
        self.items = items

    def holds(self, runtime: ChartRuntime, threshold: int) -> bool:
        # A loop: compiled, a C method cannot hold the generator that any() would take.
        for item in self.items:
            if item.holds(runtime, threshold):
                break
        else:
            return False
        return True


class Not(Compiled):
    __slots__ = ("item",)

    def __init__(self, item: Compiled) -> None:
        self.item = item

    def holds(self, runtime: ChartRuntime, threshold: int) -> bool:
        return not self.item.holds(runtime, threshold)


class Triggers(Protocol):
    """Where each trigger's event is counted: an index among edges or among levels."""

    @property
    def edges(self) -> Mapping[Event, int]:
        """The index of each edge trigger's event."""

    @property
    def levels(self) -> Mapping[Event, int]:
        """The index of each level trigger's event."""


def compile_condition(condition: Condition, triggers: Triggers) -> Compiled:
    """``condition`` as an evaluator over the indexes of ``triggers``."""
    if isinstance(condition, TriggerDef):
        event = Event(condition.type, condition.name)
        level = triggers.levels.get(event)
        return Latched(triggers.edges[event]) if level is None else Level(level)
    if isinstance(condition, NotOf):
        return Not(compile_condition(condition.condition, triggers))
    items = tuple(compile_condition(item, triggers) for item in condition.conditions)
    return All(items) if isinstance(condition, AllOf) else Any_(items)


def compile_all(conditions: tuple[Condition, ...], triggers: Triggers) -> Compiled | None:
    """Pre-conditions: all of them (``None`` when there are none)."""
    return _combined(AllOf(conditions), triggers) if conditions else None


def compile_any(conditions: tuple[Condition, ...], triggers: Triggers) -> Compiled | None:
    """Post-conditions: any of them (``None`` when there are none)."""
    return _combined(AnyOf(conditions), triggers) if conditions else None


def _combined(condition: AllOf | AnyOf, triggers: Triggers) -> Compiled:
    if len(condition.conditions) == 1:
        return compile_condition(condition.conditions[0], triggers)
    return compile_condition(condition, triggers)
