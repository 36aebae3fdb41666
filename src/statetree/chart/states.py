"""The base class of the state classes compiled from a chart.

Every chart state is a generated subclass of :class:`ChartState` whose class attributes
hold what its definition says, precomputed: its actions, its compiled conditions, the
transitions it can return. Instances only carry what changes at run time: when they were
entered, their active child, their parent and their timers. Generated classes add no
slots, so an active state's class can be swapped for its newly compiled twin on reload.

A generated class's ``transition`` is picked by the compiler for what its definition uses
(:func:`statetree.chart.policies.transition_of`): :func:`fire` for a leaf with explicit
transitions, else a function of its children's policy (:mod:`statetree.chart.policy`),
which calls :func:`fire` and :func:`done` from here. Each only reads data, as
``transition()`` must. They are functions rather than methods so that the compiled build
gives their variables C types (``.pxd`` files), which it cannot do in a method of a Python
class.
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

__all__ = [
    "ChartState",
    "Hooks",
    "done",
    "enter_state",
    "exit_state",
    "fire",
    "unlink",
]

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


def enter_state(state: ChartState) -> None:
    """``ChartState.on_enter``: note the entry, link to the parent, perform enter actions.

    When an action raises, the core drops the state as never entered: it is unlinked, its
    timers stop and its parent's history is as before.
    """
    runtime = state.owner
    hooks = state._hooks
    state.entry = runtime.serial
    state.child = None
    state.timers = None
    runtime.live[hooks.id] = state
    parent_id = hooks.parent_id
    before = -1
    if parent_id >= 0:
        parent = runtime.live[parent_id]
        state.parent = parent
        if parent is not None:
            parent.child = state
        before = runtime.history[parent_id]
        runtime.history[parent_id] = hooks.index
    else:
        state.parent = None
    if hooks.enter:
        try:
            perform_all(hooks.enter, state, runtime)
        except BaseException:
            unlink(state)
            if parent_id >= 0:
                runtime.history[parent_id] = before
            raise


def exit_state(state: ChartState) -> None:
    """``ChartState.on_exit``: perform exit actions, then cancel timers and unlink from the
    parent (also when an action raises: the core counts the state as exited)."""
    hooks = state._hooks
    if hooks.exit:
        try:
            perform_all(hooks.exit, state, state.owner)
        finally:
            unlink(state)
    else:
        unlink(state)


def unlink(state: ChartState) -> None:
    """Cancel the timers of ``state`` and take it out of the runtime and its parent."""
    runtime = state.owner
    timers = state.timers
    if timers:
        for timer in timers:
            runtime.cancel(timer)
    runtime.live[state._hooks.id] = None
    parent = state.parent
    if parent is not None and parent.child is state:
        parent.child = None


def done(state: ChartState) -> bool:
    """Whether a post-condition of ``state`` holds, counting events latched since its entry."""
    post = state._post
    if post is None:
        return False
    runtime = state.owner
    base = runtime.base
    entry = state.entry
    return post.holds(runtime, entry if entry > base else base)


# -- transition(): the explicit transitions every policy's state may have ----------------


def fire(state: ChartState) -> Transition | None:
    """The first explicit transition whose condition holds since the state's entry.

    A condition that is a single edge trigger comes with its latch index (else -1), and
    is tested here without a call: most transitions fire on one event.
    """
    runtime = state.owner
    base = runtime.base
    entry = state.entry
    threshold = entry if entry > base else base
    latched = runtime.latched
    for index, condition, chosen in state._out:
        if index >= 0:
            if latched[index] > threshold:
                return chosen
        elif condition.holds(runtime, threshold):
            return chosen
    return None


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

    # Its hooks are the functions above (compiled, they read the runtime's fields as C).
    on_enter = enter_state
    on_exit = exit_state
