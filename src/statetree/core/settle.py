"""The settle loop: every change of a stack goes through :func:`change`.

One loop pops states, pushes the target, and (when settling) finds the next change with one
pass of the book's algorithm, outermost state first. The per-change work is written out in
the loop rather than split into calls, because on the per-frame path the calls would cost
more than the work. What few machines use (tracing, listeners, regions, the loop watch)
costs one test per change when unused: a machine without extras never enters those
branches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from statetree.core.arguments import check_arguments
from statetree.core.loops import KEPT_CHANGES, LoopWatch
from statetree.core.options import DEFAULT_MAX_TRANSITIONS, Extras
from statetree.core.state import HAS_ENTER, HAS_EXIT, NEEDS_DICT, State, give_dict
from statetree.core.trace import Step, StepKind
from statetree.core.transition import (
    CONCURRENT,
    INNER,
    SIBLING,
    Transition,
    TransitionKind,
    sibling,
)
from statetree.core.tree import Regions, Stack
from statetree.errors import TransitionTargetError

if TYPE_CHECKING:
    from statetree.core.machine import StateMachine

__all__ = ["change", "exit_regions", "next_change", "not_a_transition", "plan"]

Found = tuple[Transition | None, Stack, int]
"""A pass's result: the transition, the stack of the state that chose it, its index."""

# Enum member lookups cost about 100 ns each in CPython: the loop uses these names.
_INIT, _ENTRY, _INNER, _SIBLING, _REGION, _POP = (
    StepKind.INIT,
    StepKind.ENTRY,
    StepKind.INNER,
    StepKind.SIBLING,
    StepKind.REGION,
    StepKind.POP,
)


def change(
    machine: StateMachine[Any],
    home: Stack,
    size: int,
    chosen: Transition | None,
    settle: bool = False,
    *,
    depth: int = 0,
    step: StepKind = _INIT,
    changes: int = 0,
) -> None:
    """Pop ``home`` down to ``size`` states, then enter ``chosen`` (unless ``None``).

    ``chosen``'s target is pushed at ``depth`` (a concurrent transition enters the regions
    of ``home``'s last state instead). With ``settle``, the loop then applies the first
    change that each pass over the whole configuration finds, until a pass finds none.
    ``changes`` counts ``chosen`` as the first change of the processing (a pass found it),
    rather than as an entry of the initial state or a tool's change.

    Raises:
        TransitionLoopError: more than ``machine.max_transitions`` changes while settling.
        TransitionTargetError: a ``transition()`` returned something else than a transition.
        Exception: whatever a hook raised (the stack then holds only entered states).
    """
    extras = machine._extras
    bound = DEFAULT_MAX_TRANSITIONS if extras is None else extras.max_transitions
    quiet = bound - KEPT_CHANGES  # changes before the loop watch starts
    watch: LoopWatch | None = None
    if changes > quiet and chosen is not None:
        watch = LoopWatch.note(watch, machine, chosen, changes)
    while True:
        extras = machine._extras  # a hook may create it (entering regions does)
        if len(home) > size:
            _pop_to(machine, extras, home, size)
        if chosen is not None:
            _enter(machine, extras, home, size, chosen, depth=depth, step=step)
        if not settle:
            return
        chosen, home, index = next_change(
            machine._stack, extras.regions if extras is not None else None
        )
        if chosen is None:
            return
        size, depth, step = plan(home, index, chosen)
        changes += 1
        if changes > quiet:
            watch = LoopWatch.note(watch, machine, chosen, changes)


def _pop_to(machine: StateMachine[Any], extras: Extras | None, home: Stack, size: int) -> None:
    """Exit states from the end of ``home`` until it holds ``size``, innermost first."""
    while len(home) > size:
        state = home[-1]
        if extras is not None:
            _leaving(machine, extras, state)
        try:
            if state._st_hooks & HAS_EXIT:
                state.on_exit()
        finally:
            # Even when on_exit raises, the state counts as exited: it leaves the stack
            # and gives back its state values, so the stack only holds entered states.
            home.pop()
            changed = machine._extras  # on_exit may have created it
            if changed is not None:
                _forget(changed, state)


def _enter(
    machine: StateMachine[Any],
    extras: Extras | None,
    home: Stack,
    size: int,
    chosen: Transition,
    *,
    depth: int,
    step: StepKind,
) -> None:
    """Push ``chosen``'s target at ``depth`` and enter it (or enter a host's regions)."""
    if chosen.kind is CONCURRENT:
        _enter_regions(machine, home[-1], chosen)
        return
    if extras is not None and extras.regions and size:
        exit_regions(machine, home[size - 1])  # an inner replaces a host's regions
    cls = chosen.target
    state = cls()
    state.owner = machine.owner
    state.machine = machine
    state.depth = depth
    home.append(state)
    hooks = cls._st_hooks
    if hooks & NEEDS_DICT:
        give_dict(state)
    if extras is not None:
        if extras.timers is not None:
            extras.timers[id(state)] = 0.0
        tracer = extras.tracer  # read once: another thread may replace it
        if tracer is not None:
            tracer.record(Step(machine.name, step, cls, depth))
    if hooks & HAS_ENTER:
        try:
            if chosen.has_arguments:
                state.on_enter(*chosen.args, **chosen.kwargs)
            else:
                state.on_enter()
        except BaseException as error:
            _not_entered(machine, home, state, chosen, error)
            raise


def _not_entered(
    machine: StateMachine[Any],
    home: Stack,
    state: State[Any],
    chosen: Transition,
    error: BaseException,
) -> None:
    """``state``'s on_enter raised ``error``: it was never entered, so it leaves without
    on_exit; arguments that do not fit on_enter raise :class:`StateArgumentError` instead."""
    home.pop()
    changed = machine._extras
    if changed is not None:
        _forget(changed, state)
    if isinstance(error, TypeError):
        check_arguments(chosen, error)


def _forget(extras: Extras, state: State[Any]) -> None:
    """``state`` left the stack: give back its state values, drop its time."""
    if extras.saved:
        extras.restore_values(state)
    if extras.timers:
        extras.timers.pop(id(state), None)


def next_change(main: Stack, regions: Regions | None) -> Found:
    """One pass of the book's algorithm: the first change, outermost state first.

    ``main`` is the main stack (or a region's), ``regions`` the machine's region stacks
    (``None`` without extras). Returns the transition, the stack of the state that chose
    it and its index there; the transition is ``None`` when nothing would change (the
    machine settled). A tuple that is never ``None`` costs the compiled core nothing.
    """
    # Untyped: the states' hooks are called the Python way anyway, and a wrong return
    # value must reach the check below rather than a type check with a message of its own.
    states: list[Any] = main
    last = len(states) - 1
    for index in range(last + 1):
        state = states[index]
        result: object = state.transition()
        if result is None:
            continue
        if type(result) is not Transition:
            raise not_a_transition(state, result)
        kind = result.kind
        if kind is SIBLING or (
            kind is INNER and (index == last or type(states[index + 1]) is not result.target)
        ):
            return result, main, index
        if index == last and (not regions or not _hosts(regions, state, kind)):
            return result, main, index  # an inner entry (or regions) for the innermost state
    if not regions or not main:
        return None, main, -1
    return _first_change_in_regions(main[-1], regions)


def plan(home: Stack, index: int, chosen: Transition) -> tuple[int, int, StepKind]:
    """What ``chosen``, chosen by ``home[index]``, pops and pushes: the size ``home`` is
    popped to, the depth of the state pushed, and the kind of step that traces it."""
    state = home[index]
    kind = chosen.kind
    if kind is SIBLING:
        return index, state.depth, _SIBLING
    return index + 1, state.depth + 1, _INNER if kind is INNER else _ENTRY


def not_a_transition(state: object, returned: object) -> TransitionTargetError:
    """The error for a ``transition()`` that returned something else than a transition."""
    return TransitionTargetError(
        f"{type(state).__qualname__}.transition() returned {returned!r}; return "
        "st.sibling(...), st.inner(...), st.inner_entry(...), st.concurrent(...) or None"
    )


# -- regions and tracing: only machines with extras get here ----------------------------------


def _hosts(regions: Regions, state: State[Any], kind: TransitionKind) -> bool:
    """Whether ``state`` hosts regions (for ``concurrent``: all of them active)."""
    stacks = regions.get(state)
    if stacks is None:
        return False
    return kind is not CONCURRENT or all(stacks)


def _first_change_in_regions(host: State[Any], regions: Regions) -> Found:
    """The first change, region by region, of ``host``'s regions (and theirs, in turn)."""
    for region in regions.get(host, ()):
        found = next_change(region, regions)
        if found[0] is not None:
            return found
    return None, [], -1


def _leaving(machine: StateMachine[Any], extras: Extras, state: State[Any]) -> None:
    """Before ``state`` pops: exit its regions, then trace the pop."""
    if extras.regions:
        exit_regions(machine, state)
    tracer = extras.tracer  # read once: another thread may replace it
    if tracer is not None:
        tracer.record(Step(machine.name, _POP, type(state), state.depth))


def exit_regions(machine: StateMachine[Any], host: State[Any]) -> None:
    """Exit ``host``'s regions, last region first, each innermost first."""
    extras = machine._extras
    if extras is None:
        return
    stacks = extras.regions.get(host)
    if stacks is None:
        return
    for region in stacks[::-1]:
        change(machine, region, 0, None)
    del extras.regions[host]


def _enter_regions(machine: StateMachine[Any], host: State[Any], chosen: Transition) -> None:
    """Enter the root of each region of ``host`` that is not active."""
    stacks = machine._extra().regions.setdefault(host, [])
    for position, root in enumerate(chosen.regions):
        if position == len(stacks):
            stacks.append([])
        if not stacks[position]:
            entry = sibling(root)
            change(machine, stacks[position], 0, entry, depth=host.depth + 1, step=_REGION)
