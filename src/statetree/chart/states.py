"""The base class of the state classes compiled from a chart.

Every chart state is a generated subclass of :class:`ChartState` whose class attributes
hold what its definition says, precomputed: its actions, its compiled conditions, the
transitions it can return. Instances only carry what changes at run time: when they were
entered, their active child, their parent and their timers. Generated classes add no
slots, so an active state's class can be swapped for its newly compiled twin on reload.

A generated class's ``transition`` is one of the ``ChartState`` methods below, picked by
the compiler for what its definition uses (:func:`statetree.chart.policies.transition_of`):
explicit transitions first, then its children's policy. Each only reads data, as
``transition()`` must.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from statetree.chart.actions import perform_all
from statetree.chart.runtime import ChartRuntime, Timer
from statetree.core.state import State
from statetree.core.transition import Transition

if TYPE_CHECKING:
    from statetree.chart.actions import Performer
    from statetree.chart.conditions import Compiled
    from statetree.chart.model import StateDef

__all__ = ["ChartState", "Hooks"]

Out = tuple[tuple[int, "Compiled", Transition], ...]
"""Explicit transitions: latch index of a lone edge trigger (else -1), condition, transition."""


class Hooks:
    """What a generated class's ``on_enter`` and ``on_exit`` read, in one object: read
    through it, each hook looks up one class attribute instead of five."""

    __slots__ = ("enter", "exit", "id", "index", "parent_id")

    def __init__(self, cls: type[ChartState]) -> None:
        self.id = cls._id
        self.parent_id = cls._parent_id
        self.index = cls._index
        self.enter = cls._enter
        self.exit = cls._exit


class ChartState(State[ChartRuntime]):
    """A state of a compiled chart (see :func:`statetree.chart.compile_chart`).

    Attributes:
        entry: the event serial number when the state was entered: its post-conditions
            and transitions only count events latched after it.
        child: the active child (of an explicit, sequential or priority state), or ``None``.
        parent: the active parent, or ``None`` for the root.
        timers: the timers this state started, cancelled when it exits.
    """

    __slots__ = ("child", "entry", "parent", "timers")

    child: ChartState | None
    entry: int
    parent: ChartState | None
    timers: list[Timer] | None

    # Set on each generated class by the compiler.
    _path: ClassVar[str] = ""
    _definition: ClassVar[StateDef]
    _id: ClassVar[int] = 0
    _parent_id: ClassVar[int] = -1
    _index: ClassVar[int] = 0
    _enter: ClassVar[tuple[Performer, ...]] = ()
    _exit: ClassVar[tuple[Performer, ...]] = ()
    _out: ClassVar[Out] = ()
    _post: ClassVar[Compiled | None] = None
    _advance: ClassVar[Transition | None] = None
    _entries: ClassVar[tuple[Transition, ...]] = ()
    _inners: ClassVar[tuple[Transition, ...]] = ()
    _pres: ClassVar[tuple[Compiled | None, ...]] = ()
    _regions: ClassVar[Transition | None] = None
    _hooks: ClassVar[Hooks]  # made from the above once the class is complete

    def on_enter(self) -> None:
        runtime = self.owner
        hooks = self._hooks
        self.entry = runtime.serial
        self.child = None
        self.timers = None
        runtime.live[hooks.id] = self
        parent_id = hooks.parent_id
        if parent_id >= 0:
            parent = runtime.live[parent_id]
            self.parent = parent
            if parent is not None:
                parent.child = self
            runtime.history[parent_id] = hooks.index
        else:
            self.parent = None
        if hooks.enter:
            perform_all(hooks.enter, self, runtime)

    def on_exit(self) -> None:
        runtime = self.owner
        hooks = self._hooks
        if hooks.exit:
            perform_all(hooks.exit, self, runtime)
        if self.timers:
            for timer in self.timers:
                runtime.cancel(timer)
        runtime.live[hooks.id] = None
        parent = self.parent
        if parent is not None and parent.child is self:
            parent.child = None

    def done(self) -> bool:
        """Whether a post-condition holds, counting events latched since this state's entry."""
        post = self._post
        if post is None:
            return False
        runtime = self.owner
        base = runtime.base
        entry = self.entry
        return post.holds(runtime, entry if entry > base else base)

    # -- transition(), one method per kind of definition -----------------------------------

    def fire(self) -> Transition | None:
        """The first explicit transition whose condition holds since the state's entry.

        A condition that is a single edge trigger comes with its latch index (else -1), and
        is tested here without a call: most transitions fire on one event.
        """
        runtime = self.owner
        base = runtime.base
        entry = self.entry
        threshold = entry if entry > base else base
        latched = runtime.latched
        for index, condition, chosen in self._out:
            if index >= 0:
                if latched[index] > threshold:
                    return chosen
            elif condition.holds(runtime, threshold):
                return chosen
        return None

    def resume(self) -> Transition | None:
        """Enter the child recorded in the history (the first one unless cleared otherwise)."""
        if self.child is None:
            return self._entries[self.owner.history[self._id]]
        return None

    def fire_or_resume(self) -> Transition | None:
        """``fire`` then ``resume`` in one call: the most common composite state, per frame."""
        chosen = ChartState.fire(self)
        if chosen is None and self.child is None:
            return self._entries[self.owner.history[self._id]]
        return chosen

    def sequential(self) -> Transition | None:
        """Resume a child, then advance to the next one once the active child is done."""
        child = self.child
        if child is None:
            return self._entries[self.owner.history[self._id]]
        advance = child._advance
        if advance is not None and ChartState.done(child):
            return advance
        return None

    def fire_or_sequential(self) -> Transition | None:
        """``fire`` then ``sequential``."""
        chosen = ChartState.fire(self)
        return ChartState.sequential(self) if chosen is None else chosen

    def priority(self) -> Transition | None:
        """The child whose pre-condition holds, highest first; the active one until done."""
        runtime = self.owner
        base = runtime.base
        pres = self._pres
        child = self.child
        if child is None:
            return self._inners[_first_holding(pres, runtime, base, -1)]
        index = child._index
        for higher in range(index):
            pre = pres[higher]
            if pre is not None and pre.holds(runtime, base):
                return self._inners[higher]
        if child._post is not None:
            if ChartState.done(child):
                return self._inners[_first_holding(pres, runtime, base, index)]
            return None
        pre = pres[index]
        if pre is not None and not pre.holds(runtime, base):
            return self._inners[_first_holding(pres, runtime, base, index)]
        return None

    def fire_or_priority(self) -> Transition | None:
        """``fire`` then ``priority``."""
        chosen = ChartState.fire(self)
        return ChartState.priority(self) if chosen is None else chosen

    def concurrent(self) -> Transition | None:
        """Enter every child as a region (once: the core ignores it while they are active)."""
        return self._regions

    def fire_or_concurrent(self) -> Transition | None:
        """``fire`` then ``concurrent``."""
        chosen = ChartState.fire(self)
        return self._regions if chosen is None else chosen


def _first_holding(
    pres: tuple[Compiled | None, ...], runtime: ChartRuntime, base: int, skip: int
) -> int:
    """The first child, ``skip`` aside, whose pre-condition holds (the ground at worst)."""
    for index, pre in enumerate(pres):
        if index != skip and (pre is None or pre.holds(runtime, base)):
            return index
    return len(pres) - 1

