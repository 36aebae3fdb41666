"""Hot reload: a running machine takes a changed chart and keeps what did not change.

Every active state whose path still exists, with the same policy and enter actions (and,
for a concurrent state, the same children), is kept: its instance stays, with its entry
serial, timers and active child, and its class is swapped for the newly compiled one, so
its new conditions, transitions and exit actions apply at once. The other active states
are exited with the old definitions, and processing then enters what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from statetree.chart.actions import Handler
from statetree.chart.compile import CompiledChart
from statetree.chart.model import StateDef
from statetree.chart.policy import resumes, runs_regions
from statetree.chart.runtime import ChartRuntime
from statetree.chart.states import ChartState
from statetree.core.machine import StateMachine
from statetree.core.transition import SIBLING, Transition

__all__ = ["Reloaded", "reload_machine", "take_chart"]


@dataclass(frozen=True, slots=True)
class Reloaded:
    """What a reload did, by state path.

    Attributes:
        kept: active states that stayed active (with their new definitions).
        exited: active states exited because they vanished or changed (inners included).
        entered: states entered by the processing after the reload.
    """

    kept: tuple[str, ...]
    exited: tuple[str, ...]
    entered: tuple[str, ...] = ()


def changed(old: StateDef, new: StateDef) -> bool:
    """Whether an active state defined by ``old`` must be re-entered to follow ``new``."""
    if old.policy != new.policy or old.enter != new.enter:
        return True
    names = [child.name for child in old.states] != [child.name for child in new.states]
    return runs_regions(new) and names


def _states(machine: StateMachine[ChartRuntime]) -> list[ChartState]:
    return [state for state in machine.walk() if isinstance(state, ChartState)]


def _doomed(machine: StateMachine[ChartRuntime], new: CompiledChart) -> list[ChartState]:
    """The outermost active states to exit: vanished or changed (their inners go too)."""
    doomed: list[ChartState] = []
    for state in _states(machine):
        if state.parent is not None and any(state.parent is d or _inside(state, d) for d in doomed):
            continue
        twin = new.by_path.get(state._path)
        if twin is None or changed(state._definition, twin._definition):
            doomed.append(state)
    return doomed


def _inside(state: ChartState, outer: ChartState) -> bool:
    parent = state.parent
    while parent is not None:
        if parent is outer:
            return True
        parent = parent.parent
    return False


def _history(runtime: ChartRuntime, new: CompiledChart) -> list[int]:
    """The history of every state that still exists, by its new index and its child's name."""
    old = runtime.compiled
    history = [0] * len(new.classes)
    for old_cls in old.classes:
        twin = new.by_path.get(old_cls._path)
        children = old_cls._definition.states
        if twin is None or not children:
            continue
        # An active state's history is its active child. An inactive one's is kept only
        # where both policies resume it: a priority state's last choice is no history.
        active = runtime.live[old_cls._id] is not None
        if not active and not (resumes(old_cls._definition) and resumes(twin._definition)):
            continue
        resumed = children[runtime.history[old_cls._id]].name
        child = new.by_path.get(f"{twin._path}.{resumed}")
        history[twin._id] = 0 if child is None else child._index
    return history


def reload_machine(
    machine: StateMachine[ChartRuntime],
    runtime: ChartRuntime,
    new: CompiledChart,
    handlers: list[Handler],
) -> Reloaded:
    """Switch ``machine`` and its ``runtime`` to ``new`` (the caller processes afterwards)."""
    before = [state._path for state in _states(machine)]
    for state in _doomed(machine, new):
        machine.exit(state)
    kept = _states(machine)
    history = _history(runtime, new)
    for state in kept:
        state.__class__ = new.by_path[state._path]
    _switch(runtime, new, handlers, history)
    for state in kept:
        runtime.live[state._id] = state
    _restart_with(machine, new.root)
    kept_paths = tuple(state._path for state in kept)
    return Reloaded(kept_paths, tuple(path for path in before if path not in kept_paths))


def take_chart(
    machine: StateMachine[ChartRuntime],
    runtime: ChartRuntime,
    chart: CompiledChart,
    handlers: list[Handler],
) -> None:
    """Make a machine with no state active (vacated) run ``chart`` (a reload undone)."""
    _switch(runtime, chart, handlers, [0] * len(chart.classes))
    _restart_with(machine, chart.root)


def _switch(
    runtime: ChartRuntime, new: CompiledChart, handlers: list[Handler], history: list[int]
) -> None:
    runtime.compiled = new
    runtime.edges = new.edge_table
    runtime.handlers = handlers
    runtime.calls = new.calls
    runtime.history = history
    runtime.live = [None] * len(new.classes)
    runtime.latched = [0] * len(new.edges)
    # A level of a kind the new chart's registry has no more could never be released.
    runtime.held = {event for event in runtime.held if event.kind in new.level_kinds}
    runtime.levels = [event in runtime.held for event in new.levels]


def _restart_with(machine: StateMachine[Any], root: type[ChartState]) -> None:
    # The machine enters its initial state again after stop() or when the root itself was
    # exited; from now on that must be the new root class. The transition is built here:
    # st.sibling keeps one per class for good, and every reload compiles new classes.
    machine.initial = Transition(SIBLING, root)
