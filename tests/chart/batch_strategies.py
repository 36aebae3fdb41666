"""Strategies for the batch engine: random charts with host actions, random per-agent steps.

The charts are those of :mod:`chart_strategies` (every policy, up to four levels, regions,
timers, history, raised events) with host actions added to their enter and exit lists:
``host(tag=N)`` with a tag unique in the chart, so that every call says where it came from,
``echo``, whose handler sends the event ``E`` back into the processing when it is an enter
action (exit actions also run outside processings, where sending is refused), and a second timer
with a random delay, so that timers of one agent race. Some charts run their timer ``T`` with a
zero delay (states restarting each other's timers: cycles that never let time pass) or a tiny
one (long chains of firings within one tick), with more states starting it and more
transitions on it.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from chart_strategies import charts
from hypothesis import strategies as st

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionDef,
    ActionType,
    Chart,
    Event,
    Param,
    StateDef,
    TriggerDef,
)
from statetree.chart import builder as b

REGISTRY = DEFAULT_REGISTRY.with_actions(
    ActionType("host", (Param("tag", int),)), ActionType("echo")
)
HOST_ACTIONS = ("host", "echo")
ECHO = Event("event", "E")
EVENTS = (
    Event("input", "X"),
    Event("input", "Y"),
    Event("event", "E"),
    Event("event", "F"),
    Event("anim_finished", "Anim"),
    Event("input", "Unknown"),
)
HELD = Event("held", "H")
LEVELS = (HELD, Event("held", "G"))
"""The levels a ``levels`` step sets (no chart uses ``G``)."""
MAX_AGENTS = 5
_Part = TypeVar("_Part", bound=Any)


def _extras(draw: st.DrawFn, tags: Iterator[int]) -> list[ActionDef]:
    extra = draw(st.sampled_from(("none", "host", "host", "echo", "timer")))
    if extra == "host":
        return [b.action("host", tag=next(tags))]
    if extra == "echo":
        return [b.action("echo")]
    if extra == "timer":
        return [b.start_timer("U", draw(st.sampled_from((0.0, 0.02, 0.1, 0.3, 0.5, 0.7))))]
    return []


@dataclass(frozen=True)
class _Timing:
    """How a chart runs its timer ``T``: its delay (``None``: as drawn, 0.5 s)."""

    delay: float | None
    tags: Iterator[int]


def _timed(
    draw: st.DrawFn, state: StateDef, timing: _Timing, siblings: tuple[str, ...]
) -> StateDef:
    """``state`` with every ``T`` timer at the chart's delay; maybe one more start of it
    and, under an explicit parent, one more transition on it."""
    delay = timing.delay
    if delay is None:
        return state
    retimed = [
        b.start_timer("T", delay) if action == b.start_timer("T", 0.5) else action
        for action in state.enter
    ]
    if draw(st.integers(0, 3)):
        retimed.append(b.start_timer("T", delay))
    transitions = state.transitions
    if siblings and draw(st.integers(0, 3)):
        # First, so that the chart's other transitions do not hide it.
        transitions = (b.on(b.timer("T"), draw(st.sampled_from(siblings))), *transitions)
    return dataclasses.replace(state, enter=tuple(retimed), transitions=transitions)


def _decorated(
    draw: st.DrawFn, state: StateDef, timing: _Timing, siblings: tuple[str, ...] = ()
) -> StateDef:
    state = _timed(draw, state, timing, siblings)
    enter = [*state.enter]
    enter[draw(st.integers(0, len(enter))) : 0] = _extras(draw, timing.tags)
    exit_ = [*state.exit]
    exit_[draw(st.integers(0, len(exit_))) : 0] = _extras(draw, timing.tags)
    names = tuple(child.name for child in state.states)
    inside = names if state.policy == "explicit" else ()
    children = tuple(_decorated(draw, child, timing, inside) for child in state.states)
    return dataclasses.replace(state, states=children, enter=tuple(enter), exit=tuple(exit_))


@st.composite
def batch_charts(draw: st.DrawFn) -> Chart:
    """A random chart of :func:`chart_strategies.charts` with host actions added, its
    timer ``T`` sometimes at a zero or tiny delay."""
    chart = draw(charts())
    delay = draw(st.sampled_from((None, None, 0.0, 0.02)))
    root = _decorated(draw, chart.root, _Timing(delay, itertools.count(1)))
    if delay is not None and draw(st.booleans()):
        root = b.state("Root", dataclasses.replace(root, name="Main"), _blink(delay))
        root = dataclasses.replace(root, policy="concurrent")
    return b.chart(chart.name, root, registry=REGISTRY)


def _blink(delay: float) -> StateDef:
    """A region whose two states restart each other's timer ``T`` for ever."""
    start, expired = [b.start_timer("T", delay)], b.timer("T")
    return b.state(
        "Blink",
        b.state("Wait", enter=start, transitions=[b.on(expired, "Go")]),
        b.state("Go", enter=start, transitions=[b.on(expired, "Wait")]),
    )


StepKind = Literal[
    "send",
    "send_each",
    "hold",
    "release",
    "levels",
    "tick",
    "frame",
    "start",
    "stop",
    "spawn",
    "despawn",
    "migrate",
]


@dataclass(frozen=True)
class Step:
    """One call on a batch, and the same call on each agent's machine.

    ``agents`` are slot indexes; those without a live agent when the step runs are left out.
    """

    kind: StepKind
    agents: tuple[int, ...] = ()
    event: Event | None = None
    dt: float = 0.0
    choices: tuple[int, ...] = ()
    """For ``send_each`` and ``frame``: the index in ``EVENTS`` of each agent's event (-1:
    none); for ``levels``: each agent's levels, bit ``i`` holding ``LEVELS[i]``; for
    ``migrate`` (a sharded batch's call): the shard the agents move to."""

    def __str__(self) -> str:
        what = self.event if self.kind != "tick" else self.dt
        return f"{self.kind} {what or ''} {list(self.agents)}"


def _agents() -> st.SearchStrategy[tuple[int, ...]]:
    return st.sets(st.integers(0, MAX_AGENTS - 1)).map(lambda found: tuple(sorted(found)))


@st.composite
def _each(draw: st.DrawFn) -> Step:
    agents = draw(_agents())
    choices = st.integers(-1, len(EVENTS) - 1)
    picked = tuple(draw(choices) for _ in agents)
    return Step("send_each", agents, choices=picked)


@st.composite
def _frame(draw: st.DrawFn) -> Step:
    """A frame: an event (or none) for each slot, then a tick."""
    picked = tuple(draw(st.integers(-1, len(EVENTS) - 1)) for _ in range(MAX_AGENTS))
    dt = draw(st.sampled_from((0.1, 0.25, 0.5, 1.0)))
    return Step("frame", tuple(range(MAX_AGENTS)), dt=dt, choices=picked)


@st.composite
def _levels(draw: st.DrawFn) -> Step:
    agents = draw(_agents())
    picked = tuple(draw(st.integers(0, (1 << len(LEVELS)) - 1)) for _ in agents)
    return Step("levels", agents, choices=picked)


def steps(spawning: bool = True) -> st.SearchStrategy[Step]:
    """A random step: mostly events, holds and ticks; sometimes spawning and despawning
    (unless not ``spawning``: drawn without them, not filtered, which starves Hypothesis)."""
    kinds = [
        st.builds(Step, st.just("send"), _agents(), st.sampled_from(EVENTS)),
        _each(),
        st.builds(Step, st.sampled_from(("hold", "release")), _agents(), st.just(HELD)),
        _levels(),
        st.builds(Step, st.just("tick"), dt=st.sampled_from((0.1, 0.25, 0.5, 1.0))),
        _frame(),
        st.builds(Step, st.just("start"), _agents()),
        st.builds(Step, st.just("stop"), _agents()),
    ]
    if spawning:
        kinds += [st.builds(Step, st.just("spawn")), st.builds(Step, st.just("despawn"), _agents())]
    return st.one_of(kinds)


def _mutate(draw: st.DrawFn, state: StateDef, tags: Iterator[int]) -> StateDef:
    """``state`` with one random edit, or its children edited in turn."""
    edit = draw(
        st.sampled_from(
            ("keep", "keep", "keep", "enter", "exit", "swap", "drop", "rename", "untimed")
        )
    )
    children = list(state.states)
    if edit == "enter":
        return dataclasses.replace(state, enter=(*state.enter, *_extras(draw, tags)))
    if edit == "untimed":  # changed enter actions: a reload exits it, stopping its timers
        kept = tuple(action for action in state.enter if action.type != "start_timer")
        state = dataclasses.replace(state, enter=kept)
    if edit == "exit":
        return dataclasses.replace(state, exit=(b.action("host", tag=next(tags)),))
    if edit == "swap" and len(children) > 1:
        children[0], children[-1] = children[-1], children[0]
    elif edit == "drop" and len(children) > 1:
        del children[draw(st.integers(0, len(children) - 1))]
    elif edit == "rename" and children:
        children[-1] = dataclasses.replace(children[-1], name="Z")
    children = [_mutate(draw, child, tags) for child in children]
    return dataclasses.replace(state, states=tuple(children))


def _unlevelled(value: _Part) -> _Part:
    """``value`` with every trigger on a level made an input no one sends."""
    if isinstance(value, TriggerDef):
        return TriggerDef("input", "Never") if value.type == "held" else value
    if isinstance(value, tuple):
        return tuple(_unlevelled(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _unlevelled(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    return value


@st.composite
def edited_charts(draw: st.DrawFn, chart: Chart) -> Chart:
    """``chart`` with random edits (which may make it invalid: check before use); sometimes
    without its level, which agents keep holding aside."""
    root = _mutate(draw, chart.root, itertools.count(1000))
    if draw(st.integers(0, 3)) == 0:
        root = _unlevelled(root)
    return Chart(chart.name, root, registry=REGISTRY)


def frame_steps() -> st.SearchStrategy[Step]:
    """A call a JAX program makes as a batch does: a frame (events and a tick), a tick, or
    levels."""
    return st.one_of(
        _frame(),
        st.builds(Step, st.just("tick"), dt=st.sampled_from((0.1, 0.25, 0.5, 1.0))),
        _levels(),
    )
