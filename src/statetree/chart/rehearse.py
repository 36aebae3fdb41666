"""Rehearsing a reload: the same reload, run first on a copy of the machine.

A reload exits states (running exit actions), switches the chart and processes; if that
processing loops, the machine would be left half way, on a chart the host never accepted.
So the reload is first run on a copy: a scratch machine holding copies of the active
states (entry serials, active children, timers), of the history, latches, levels and
clock, whose host actions do nothing. Whatever the copy raises, the real machine has not
been touched; when the copy settles, the real reload follows the same steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from statetree.chart.actions import ActionCall
from statetree.chart.compile import CompiledChart
from statetree.chart.reload import reload_machine
from statetree.chart.runtime import ChartRuntime, Timer
from statetree.chart.states import ChartState
from statetree.core.machine import StateMachine
from statetree.core.transition import CONCURRENT, INNER, SIBLING, Transition

__all__ = ["rehearse_reload"]


def _nothing(call: ActionCall) -> None:
    """The host actions of a rehearsal: not performed."""


def _handlers(compiled: CompiledChart) -> list[Callable[[ActionCall], None]]:
    return [_nothing] * len(compiled.host_actions)


def rehearse_reload(machine: StateMachine[ChartRuntime], new: CompiledChart) -> tuple[str, ...]:
    """Reload a copy of ``machine`` with ``new`` and process it; ``machine`` is not touched.

    Returns:
        The paths of the states the copy has active once settled.

    Raises:
        TransitionLoopError: the reloaded copy does not settle.
    """
    runtime = machine.owner
    copy = _Copy(runtime)
    scratch: StateMachine[ChartRuntime] = StateMachine(
        runtime.compiled.root,
        owner=copy.runtime,
        name=machine.name,
        max_transitions=machine.max_transitions,
    )
    copy.rebuild(machine, scratch)
    reload_machine(scratch, copy.runtime, new, _handlers(new))
    copy.runtime.base = copy.runtime.serial
    copy.runtime.processing = True
    scratch.process_state_transitions()
    return tuple(type(state).__qualname__ for state in scratch.walk())


def _roots(host: ChartState) -> tuple[type[ChartState], ...]:
    """The region roots of a concurrent state."""
    return tuple(cast("type[ChartState]", entry.target) for entry in host._inners)


class _Copy:
    """A runtime like ``runtime``, and the means to fill a scratch machine with its states."""

    def __init__(self, runtime: ChartRuntime) -> None:
        self.source = runtime
        copied = ChartRuntime(runtime.compiled, _handlers(runtime.compiled))
        for name in ("serial", "base", "clock", "sequence", "dead"):
            setattr(copied, name, getattr(runtime, name))
        copied.held = set(runtime.held)
        copied.latched = list(runtime.latched)
        copied.levels = list(runtime.levels)
        copied.history = list(runtime.history)
        self.timers: dict[int, Timer] = {}
        copied.timers = [(due, order, self.timer(timer)) for due, order, timer in runtime.timers]
        self.runtime = copied
        self.twins: dict[str, ChartState] = {}

    def timer(self, timer: Timer) -> Timer:
        """The copy of ``timer`` (one copy per timer, shared by the heap and its state)."""
        found = self.timers.get(id(timer))
        if found is None:
            found = self.timers[id(timer)] = Timer(timer.event, timer.due, timer.owner)
            found.alive = timer.alive
        return found

    def rebuild(self, machine: StateMachine[ChartRuntime], scratch: StateMachine[Any]) -> None:
        """Enter in ``scratch`` a copy of each active state of ``machine``, outermost first."""
        states = [state for state in machine.walk() if isinstance(state, ChartState)]
        self.twins = {state._path: state for state in states}
        for state in states:
            parent = self.runtime.live[state._parent_id] if state.parent is not None else None
            if parent is None:
                scratch.initial = Transition(SIBLING, self.adopter(type(state)))
                scratch.start()
            elif self.runtime.live[state._id] is not None:
                continue  # a region root, entered with its host's other regions
            elif parent._regions is not None:
                regions = tuple(self.adopter(region) for region in _roots(parent))
                transition = Transition(CONCURRENT, regions[0], regions=regions)
                scratch.apply_transition(parent, transition)
            else:
                scratch.apply_transition(parent, Transition(INNER, self.adopter(type(state))))

    def adopter(self, cls: type[ChartState]) -> type[ChartState]:
        """A subclass of ``cls`` whose entry copies the active instance of ``cls``.

        Transitions to it are built here, not with ``st.inner`` and the like, which keep
        one transition per class for good: these classes live for one rehearsal.
        """
        copy = self

        def on_enter(state: ChartState) -> None:
            state.__class__ = cls
            copy.adopt(state, copy.twins[cls._path])

        namespace = {"__slots__": (), "__qualname__": cls.__qualname__, "on_enter": on_enter}
        return type(cls.__name__, (cls,), namespace)

    def adopt(self, state: ChartState, twin: ChartState) -> None:
        """Give ``state`` the run-time fields of ``twin``, the instance it copies."""
        runtime = self.runtime
        state.entry = twin.entry
        state.child = None
        state.timers = None if twin.timers is None else [self.timer(t) for t in twin.timers]
        runtime.live[state._id] = state
        parent = runtime.live[state._parent_id] if state._parent_id >= 0 else None
        state.parent = parent
        if parent is not None and twin.parent is not None and twin.parent.child is twin:
            parent.child = state
