"""The settle loop: every change of a stack goes through :func:`apply`.

One function pops states and pushes the target, and the loop (when settling) finds the next
change with one pass of the book's algorithm, outermost state first. The per-change work is
written out in :func:`apply` rather than split into calls, because on the per-frame path the
calls would cost more than the work. What few machines use (tracing, listeners, regions, the
loop watch) costs one test per change when unused: a machine without extras never enters
those branches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from statetree.core import capi
from statetree.core.arguments import check_arguments, check_hooks
from statetree.core.loops import KEPT_CHANGES, LoopWatch
from statetree.core.options import DEFAULT_MAX_TRANSITIONS, Extras
from statetree.core.state import COMPILED, UNPLACED, State
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
from statetree.errors import StateArgumentError, TransitionTargetError

if TYPE_CHECKING:
    from statetree.core.machine import MachineCore

__all__ = [
    "INIT_STEP",
    "PLAIN_CHANGES",
    "apply",
    "enter",
    "exit_regions",
    "hook_returned",
    "next_change",
    "not_a_transition",
    "pop_to",
    "settle",
]

Found = tuple[Transition | None, Stack, int, int]
"""A pass's result: the transition, the stack of the state that chose it, its index there
and its depth."""

# Enum member lookups cost about 100 ns each in CPython: the loop uses these names.
INIT_STEP, _ENTRY, _INNER, _SIBLING, _REGION, _POP = (
    StepKind.INIT,
    StepKind.ENTRY,
    StepKind.INNER,
    StepKind.SIBLING,
    StepKind.REGION,
    StepKind.POP,
)

# The slots every state's owner and machine are set through.
_OWNER, _MACHINE = State.__dict__["owner"], State.__dict__["machine"]

PLAIN_CHANGES: Final = DEFAULT_MAX_TRANSITIONS - KEPT_CHANGES
"""Changes a machine without extras makes before the loop watch starts noting them."""


def settle(machine: MachineCore, changes: int) -> None:
    """Apply the first change each pass finds, outermost state first, until none is found.

    Enters the initial state first if the machine has none. ``changes`` is how many changes
    this processing made already.

    Raises:
        TransitionLoopError: more than ``machine.max_transitions`` changes in all.
        TransitionTargetError: a ``transition()`` returned something else than a transition.
        Exception: whatever a hook raised (the stack then holds only entered states).
    """
    extras = machine._extras
    quiet = (DEFAULT_MAX_TRANSITIONS if extras is None else extras.max_transitions) - KEPT_CHANGES
    watch: LoopWatch | None = None
    stack = machine._stack
    if not stack:
        enter(machine, stack, machine._initial, 0, INIT_STEP)
    while True:
        extras = machine._extras  # a hook may create it (entering regions does)
        chosen, home, index, depth = next_change(
            stack, None if extras is None else extras.regions, 0
        )
        if chosen is None:
            return
        changes += 1
        if changes > quiet:
            watch = LoopWatch.note(watch, machine, chosen, changes)
        apply(machine, home, index, depth, chosen)


def apply(
    machine: MachineCore,
    home: Stack,
    index: int,
    depth: int,
    chosen: Transition | None,
    step: StepKind | None = None,
) -> None:
    """Change ``home``: exit its states from the end until it holds ``index``, innermost
    first, then push ``chosen``'s target (none when ``chosen`` is ``None``) at ``depth`` and
    enter it, traced as ``step`` (a concurrent transition enters the regions of ``home``'s
    last state instead).

    Without ``step``, the change is the one ``chosen`` makes as chosen by ``home[index]``
    (at ``depth``): a sibling replaces the state, the other kinds replace its inners.

    Raises:
        StateArgumentError: ``chosen``'s arguments do not fit the target's ``on_enter``.
        Exception: whatever a hook raised; a state whose ``on_exit`` raised is exited all
            the same, one whose ``on_enter`` raised is not on the stack.
    """
    if step is None:
        kind = chosen.kind  # type: ignore[union-attr]  # a change always has a transition
        if kind is SIBLING:
            step = _SIBLING
        else:
            index += 1
            depth += 1
            step = _INNER if kind is INNER else _ENTRY
    extras = machine._extras
    # Untyped: a hook called the Python way is one vectorcall, where a typed method would
    # go through a bound method (and, for on_enter, two dicts).
    states: list[Any] = home
    state = None
    try:  # around the loop, not each exit: a change pays for one
        while len(states) > index:
            state = states[-1]
            if extras is not None:
                _leaving(machine, extras, state)
            try:
                # Compiled, a class's own field is read from its dictionary (see capi.pxd).
                if capi.own(type(state), "_st_exits") if COMPILED else type(state)._st_exits:
                    returned = state.on_exit()
                    if isinstance(returned, Transition):
                        raise hook_returned(state, "on_exit", returned)
            finally:
                # Even when on_exit raises, the state counts as exited: it leaves the stack
                # and gives back its state values, so the stack only holds entered states.
                states.pop()
                extras = machine._extras  # on_exit may have created it
                if extras is not None:
                    _forget(extras, state)
    except TypeError as error:
        if state is not None:
            check_hooks((state,), error)
        raise
    if chosen is None:
        return
    if chosen.kind is CONCURRENT:
        _enter_regions(machine, home[-1], chosen, depth)
        return
    if extras is not None and extras.regions and home:
        exit_regions(machine, home[-1])  # an inner replaces a host's regions
    cls = chosen.target
    if not chosen.built_by_call:
        if COMPILED:
            plain = cls  # typed: a C call (see BUILT_BY_CALL)
            state = plain.__new__(plain)
        else:
            state = cls()
    else:
        try:
            if type(cls).__call__ is not type.__call__:
                state = cls()  # its metaclass's call makes it
            else:  # its own __init__: reading its machine there is refused
                state = cls.__new__(cls)
                state.owner = state.machine = UNPLACED  # type: ignore[assignment]
                state.__init__()  # type: ignore[misc]  # as the class call would
        except TypeError as error:
            _check_init(cls, error)
            raise
    if COMPILED:  # set through State's slots, without looking them up (see capi.pxd)
        capi.set_slot(_OWNER, state, machine._owner)
        capi.set_slot(_MACHINE, state, machine)
    else:
        state.owner = machine._owner
        state.machine = machine  # type: ignore[assignment]  # a MachineCore is a StateMachine's
    states.append(state)
    if extras is not None:
        if extras.timers is not None:
            extras.timers[id(state)] = 0.0
        tracer = extras.tracer  # read once: another thread may replace it
        if tracer is not None:
            try:
                tracer.record(Step(machine.name, step, cls, depth))
            except BaseException:  # a sink or listener that raised: nothing was entered
                _unpush(machine, home, state)
                raise
    if chosen.enters:
        try:
            # Its result is looked at: a port of a C++ hook may return a transition.
            if chosen.has_arguments:
                returned = state.on_enter(*chosen.args, **chosen.kwargs)  # type: ignore[func-returns-value]
            else:
                returned = state.on_enter()  # type: ignore[func-returns-value]
            if isinstance(returned, Transition):
                raise hook_returned(state, "on_enter", returned)
        except BaseException as error:
            _not_entered(machine, home, state, chosen, error)
            raise


def pop_to(machine: MachineCore, home: Stack, size: int) -> None:
    """Exit states from the end of ``home`` until it holds ``size``, innermost first.

    Raises:
        Exception: whatever an ``on_exit`` raised (its state is exited all the same).
    """
    apply(machine, home, size, -1, None, _POP)


def enter(
    machine: MachineCore, home: Stack, chosen: Transition, depth: int, step: StepKind
) -> None:
    """Push ``chosen``'s target on ``home`` at ``depth`` and enter it, traced as ``step``
    (a concurrent transition enters the regions of ``home``'s last state instead).

    Raises:
        StateArgumentError: ``chosen``'s arguments do not fit the target's ``on_enter``.
        Exception: whatever ``on_enter`` raised (the state is then not on the stack).
    """
    apply(machine, home, len(home), depth, chosen, step)


def _not_entered(
    machine: MachineCore,
    home: Stack,
    state: State[Any],
    chosen: Transition,
    error: BaseException,
) -> None:
    """``state``'s on_enter raised ``error``: it was never entered, so it leaves without
    on_exit; arguments that do not fit on_enter raise :class:`StateArgumentError` instead."""
    _unpush(machine, home, state)
    if isinstance(error, TypeError):
        check_arguments(chosen, error, initial=chosen is machine._initial)


def _check_init(cls: type[State[Any]], error: TypeError) -> None:
    """Raise what a ``TypeError`` making ``cls`` means if its ``__init__`` needs arguments:
    the machine makes states without any (a port's habit is to pass them there)."""
    import inspect  # noqa: PLC0415  (only on this error)

    try:
        inspect.signature(cls).bind()
    except TypeError:
        raise StateArgumentError(
            f"{cls.__qualname__}.__init__ takes arguments, but the machine creates states "
            "without any: take them in on_enter (def on_enter(self, ...)) and give them with "
            f"the transition, st.sibling({cls.__qualname__}, ...)"
        ) from error
    except ValueError:  # no signature to read: the error stands as it is
        pass


def _unpush(machine: MachineCore, home: Stack, state: State[Any]) -> None:
    """Take ``state``, pushed last on ``home`` but never entered, off it (no on_exit)."""
    home.pop()
    changed = machine._extras
    if changed is not None:
        _forget(changed, state)


def _forget(extras: Extras, state: State[Any]) -> None:
    """``state`` left the stack: give back its state values, drop its time."""
    if extras.saved:
        extras.restore_values(state)
    if extras.timers:
        extras.timers.pop(id(state), None)


def next_change(main: Stack, regions: Regions | None, base: int) -> Found:
    """One pass of the book's algorithm: the first change, outermost state first.

    ``main`` is the main stack (or a region's, whose first state is at depth ``base``),
    ``regions`` the machine's region stacks (``None`` without extras). Returns the
    transition, the stack of the state that chose it, its index there and its depth; the
    transition is ``None`` when nothing would change (the machine settled). A tuple that is
    never ``None`` costs the compiled core nothing.
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
        chosen = result  # a Transition from here on (typed when compiled)
        kind = chosen.kind
        if kind is SIBLING or (
            kind is INNER and (index == last or type(states[index + 1]) is not chosen.target)
        ):
            return chosen, main, index, base + index
        if index == last and (not regions or not _hosts(regions, state, kind)):
            # an inner entry (or regions) for the innermost state
            return chosen, main, index, base + index
    if not regions or not main:
        return None, main, -1, -1
    return _first_change_in_regions(main[-1], regions, base + len(main))


def hook_returned(state: object, hook: str, returned: object) -> TransitionTargetError:
    """The error for an ``on_enter``, ``on_exit`` or ``update`` that returned a transition,
    which the machine would drop (the book's hooks return nothing; ``transition()`` returns
    them)."""
    return TransitionTargetError(
        f"{type(state).__qualname__}.{hook}() returned {returned!r}, which the machine would "
        "drop: return transitions from transition(), which it calls every processing"
    )


def not_a_transition(state: object, returned: object) -> TransitionTargetError:
    """The error for a ``transition()`` that returned something else than a transition."""
    return TransitionTargetError(
        f"{type(state).__qualname__}.transition() returned {returned!r}; return "
        "st.sibling(...), st.inner(...), st.inner_entry(...), st.concurrent(...) or None"
    )


# -- regions and tracing: only machines with extras get here ----------------------------------


def _hosts(regions: Regions, state: State[Any], kind: TransitionKind) -> bool:
    """Whether ``state`` holds states in its regions: in one of them (so it has an inner
    state), or for ``concurrent`` in all of them (an emptied region is entered again)."""
    stacks = regions.get(id(state))
    if stacks is None:
        return False
    return all(stacks) if kind is CONCURRENT else any(stacks)


def _first_change_in_regions(host: State[Any], regions: Regions, base: int) -> Found:
    """The first change, region by region, of ``host``'s regions (and theirs, in turn),
    whose roots are at depth ``base``."""
    for region in regions.get(id(host), ()):
        found = next_change(region, regions, base)
        if found[0] is not None:
            return found
    return None, [], -1, -1


def _leaving(machine: MachineCore, extras: Extras, state: State[Any]) -> None:
    """Before ``state`` pops: exit its regions, then trace the pop."""
    if extras.regions:
        exit_regions(machine, state)
    tracer = extras.tracer  # read once: another thread may replace it
    if tracer is not None:
        tracer.record(Step(machine.name, _POP, type(state), machine._depth_of(state)))


def exit_regions(machine: MachineCore, host: State[Any]) -> None:
    """Exit ``host``'s regions, last region first, each innermost first."""
    extras = machine._extras
    if extras is None:
        return
    stacks = extras.regions.get(id(host))
    if stacks is None:
        return
    for region in stacks[::-1]:
        pop_to(machine, region, 0)
    del extras.regions[id(host)]


def _enter_regions(machine: MachineCore, host: State[Any], chosen: Transition, depth: int) -> None:
    """Enter the root of each region of ``host`` that is not active, at ``depth``."""
    stacks = machine._extra().regions.setdefault(id(host), [])
    for position, root in enumerate(chosen.regions):
        if position == len(stacks):
            stacks.append([])
        if not stacks[position]:
            entry = sibling(root)
            enter(machine, stacks[position], entry, depth, _REGION)
