"""The base class of the state classes compiled from a chart.

Every chart state is a generated subclass of :class:`ChartState` whose class attributes
hold what its definition says, precomputed: its actions, its compiled conditions, the
transitions it can return. Instances only carry what changes at run time: when they were
entered, their active child, their parent and their timers. Generated classes add no
slots, so an active state's class can be swapped for its newly compiled twin on reload.
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

__all__ = ["ChartState"]


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
    _out: ClassVar[tuple[tuple[int, Compiled, Transition], ...]] = ()
    _post: ClassVar[Compiled | None] = None
    _advance: ClassVar[Transition | None] = None
    _entries: ClassVar[tuple[Transition, ...]] = ()
    _inners: ClassVar[tuple[Transition, ...]] = ()
    _pres: ClassVar[tuple[Compiled | None, ...]] = ()
    _regions: ClassVar[Transition | None] = None

    def on_enter(self) -> None:
        runtime = self.owner
        self.entry = runtime.serial
        self.child = None
        self.timers = None
        runtime.live[self._id] = self
        parent_id = self._parent_id
        if parent_id >= 0:
            parent = runtime.live[parent_id]
            self.parent = parent
            if parent is not None:
                parent.child = self
            runtime.history[parent_id] = self._index
        else:
            self.parent = None
        if self._enter:
            perform_all(self._enter, self, runtime)

    def on_exit(self) -> None:
        runtime = self.owner
        if self._exit:
            perform_all(self._exit, self, runtime)
        if self.timers:
            for timer in self.timers:
                runtime.cancel(timer)
        runtime.live[self._id] = None
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
