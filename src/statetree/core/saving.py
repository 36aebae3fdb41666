"""Saving and loading class machines: what ``pickle`` and ``copy.deepcopy`` write and read.

A machine is saved as plain data (a versioned dict): its states in stack order, the region
stacks of each host, the state values each state holds, its pending events, its time in
state and its settings; each state is saved as its attributes, and classes and functions by
name (see :mod:`statetree.core.refs`). Loading builds the objects and puts them back in
place: no ``__init__``, ``on_enter``, ``on_exit`` or listener runs, and the machine loaded
(or copied) behaves from then on as the original would have.

A save holds what is the machine's own: the trace sink given to it is saved (by name) with
the trace level; the listeners attached with ``add_listener`` belong to the program (an
inspector, a debug view) and are left out.
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Any, Final

from statetree.core.options import Extras
from statetree.core.refs import Ref, attributes, reading, saved_data, set_attributes, target_of
from statetree.core.state import State, set_up
from statetree.core.state_value import StateValue
from statetree.core.trace import TraceLevel, Tracer
from statetree.core.transition import Transition
from statetree.core.tree import walk
from statetree.errors import SaveError

if TYPE_CHECKING:
    from statetree.core.machine import MachineCore

__all__ = ["FORMAT", "machine_state", "set_machine_state"]

FORMAT: Final = 1
"""The version of a machine's saved data (each save says which one it was written in)."""

_OWN: Final = frozenset({"_busy", "_extras", "_stack", "_start", "_owner"})
"""The machine's own fields, saved as the data above (a subclass's are saved as they are)."""


def machine_state(machine: MachineCore) -> dict[str, Any]:
    """What ``machine`` saves (see the module's docstring).

    Raises:
        SaveError: the machine is running (a hook of its own, or another thread).
    """
    if machine._busy:
        raise SaveError(
            f"cannot save {machine._label()} while it runs (from one of its states' hooks, "
            "or while another thread processes it): save between two calls, e.g. after "
            "process_state_transitions() returns"
        )
    label = machine._label()
    extras = machine._extras or Extras()
    states = list(walk(machine._stack, extras.regions))
    timers = extras.timers
    tracer = extras.tracer
    sink = extras.sink
    return {
        "format": FORMAT,
        "initial": machine._initial,
        "name": machine.name,
        "owner": machine.owner,
        "stack": machine._stack,
        "regions": [(h, extras.regions[id(h)]) for h in states if id(h) in extras.regions],
        "values": [(s, extras.saved[id(s)]) for s in states if id(s) in extras.saved],
        "timers": None if timers is None else [(s, timers[id(s)]) for s in states],
        "events": list(extras.events),
        "overrides": [
            (Ref(cls), Ref(over, f"the override of {cls.__qualname__} in {label}"))
            for cls, over in extras.overrides.items()
        ],
        "max_transitions": extras.max_transitions,
        "trace": int(tracer.level if tracer else TraceLevel.NONE),
        "sink": None if sink is None else Ref(sink, f"the trace sink of {label}"),
        "attributes": {k: v for k, v in attributes(machine).items() if k not in _OWN},
    }


def set_machine_state(machine: MachineCore, saved: dict[str, Any]) -> None:
    """Put ``machine`` (made without ``__init__``) in the state ``saved`` describes.

    Raises:
        LoadError: the data is not a machine's, or of a format this version cannot read.
    """
    saved = saved_data(saved, "machine", FORMAT)
    with reading("machine"):
        initial, stack = saved["initial"], saved["stack"]
        if not isinstance(initial, Transition) or not isinstance(stack, list):
            raise TypeError("its initial transition or its stack is of the wrong type")
        if not all(isinstance(state, State) for state in stack):
            raise TypeError("its stack holds what is not a state")
        machine._fresh(initial, saved["name"], saved["owner"], stack)
        kept = saved["attributes"]
        if not isinstance(kept, dict) or not _OWN.isdisjoint(kept):
            raise TypeError("its attributes are not a mapping of the subclass's own attributes")
        set_attributes(machine, kept)
        extras = Extras()
        extras.regions = {id(host): stacks for host, stacks in _regions(saved["regions"])}
        active = _active(stack, extras)
        for state in active:  # each is this machine's, with its owner (as when entered)
            state.machine = machine  # type: ignore[assignment]  # a MachineCore is a StateMachine's
            state.owner = saved["owner"]
        extras.saved = _state_values(saved["values"], active)
        extras.timers = _times(saved["timers"], active)
        events = saved["events"]
        if not isinstance(events, list) or any(event is None for event in events):
            raise TypeError(f"its pending events are not a list of events: {events!r}")
        extras.events = events
        extras.overrides = {target_of(cls): target_of(over) for cls, over in saved["overrides"]}
        if not all(_is_state_class(c) and _is_state_class(o) for c, o in extras.overrides.items()):
            raise TypeError("its state overrides are not pairs of State subclasses")
        bound = saved["max_transitions"]
        if isinstance(bound, bool) or not isinstance(bound, int) or not 1 <= bound <= sys.maxsize:
            raise ValueError(f"its max_transitions is not a count: {bound!r}")
        extras.max_transitions = bound
        extras.sink = target_of(saved["sink"])
        if extras.sink is not None and not callable(extras.sink):
            raise TypeError(f"its trace sink is not callable: {extras.sink!r}")
        level = TraceLevel(saved["trace"])
        extras.tracer = None if level is TraceLevel.NONE else Tracer(level, extras.sink)
        if _needed(extras):
            machine._extras = extras


def _times(saved: object, active: list[State[Any]]) -> dict[int, float] | None:
    """The saved time in state of each active state (``None``: not kept), checked."""
    if saved is None:
        return None
    if not isinstance(saved, list) or not all(
        isinstance(pair, tuple)
        and len(pair) == 2
        and isinstance(pair[0], State)
        and isinstance(pair[1], float)
        and 0 <= pair[1] < math.inf
        for pair in saved
    ):
        raise TypeError("its times in state are not pairs of a state and a time")
    times = {id(state): time for state, time in saved}
    if any(id(state) not in times for state in active):
        raise ValueError("an active state has no time in state")
    return times


def _regions(saved: object) -> list[tuple[State[Any], list[list[State[Any]]]]]:
    """The saved region stacks, checked: each host with a list of stacks of states."""
    if isinstance(saved, list) and all(
        isinstance(pair, tuple)
        and len(pair) == 2
        and isinstance(pair[0], State)
        and isinstance(pair[1], list)
        and all(
            isinstance(region, list) and all(isinstance(s, State) for s in region)
            for region in pair[1]
        )
        for pair in saved
    ):
        return saved
    raise TypeError("its regions are not pairs of a host state and its stacks of states")


def _is_state_class(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, State)


def _active(stack: list[State[Any]], extras: Extras) -> list[State[Any]]:
    """Every active state of a loaded stack (its classes set up), each instance once."""
    _check_tree(stack, extras.regions)
    active = list(walk(stack, extras.regions))
    for state in active:  # a class first seen here, made by a load
        set_up(type(state))
    return active


def _check_tree(stack: list[State[Any]], regions: dict[int, list[list[State[Any]]]]) -> None:
    """Refuse a configuration no machine has: a state in it twice (a region holding its own
    host, say), a host that is not the last of its stack, regions of no active host."""
    seen: set[int] = set()
    hosts: set[int] = set()
    waiting = [stack]
    while waiting:
        current = waiting.pop()
        for state in current:
            if id(state) in seen:
                raise ValueError("a state instance is active twice")
            seen.add(id(state))
            if id(state) in regions and state is not current[-1]:
                raise ValueError("a state hosting regions is not the last of its stack")
        if current and id(current[-1]) in regions:
            hosts.add(id(current[-1]))
            waiting.extend(regions[id(current[-1])])
    if len(hosts) != len(regions):
        raise ValueError("it holds regions of a state that is not active")


def _state_values(
    pairs: list[tuple[State[Any], list[StateValue[Any]]]], active: list[State[Any]]
) -> dict[int, list[StateValue[Any]]]:
    """The state values each active state holds, from the saved pairs."""
    held: dict[int, list[StateValue[Any]]] = {}
    for state, values in pairs:
        if not any(state is found for found in active) or not (
            isinstance(values, list) and all(isinstance(v, StateValue) for v in values)
        ):
            raise TypeError("its state values are not pairs of an active state and a list")
        held[id(state)] = values
    return held


def _needed(extras: Extras) -> bool:
    """Whether ``extras`` differs from a machine without any (which keeps none)."""
    default = Extras()
    return bool(
        extras.regions
        or extras.saved
        or extras.events
        or extras.overrides
        or extras.timers is not None
        or extras.sink is not None
        or extras.tracer is not None
        or extras.max_transitions != default.max_transitions
        or extras.cause is not default.cause
    )
