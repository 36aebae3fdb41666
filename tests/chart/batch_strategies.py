"""Strategies for the batch engine: random charts with host actions, random per-agent steps.

The charts are those of :mod:`chart_strategies` (every policy, up to four levels, regions,
timers, history, raised events) with host actions added to their enter and exit lists:
``host(tag=N)`` with a tag unique in the chart, so that every call says where it came from,
``echo``, whose handler sends the event ``E`` back into the processing when it is an enter
action (exit actions also run outside processings, where sending is refused), and a second timer
with a random delay, so that timers of one agent race.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

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
MAX_AGENTS = 5


def _extras(draw: st.DrawFn, tags: Iterator[int]) -> list[ActionDef]:
    extra = draw(st.sampled_from(("none", "host", "host", "echo", "timer")))
    if extra == "host":
        return [b.action("host", tag=next(tags))]
    if extra == "echo":
        return [b.action("echo")]
    if extra == "timer":
        return [b.start_timer("U", draw(st.sampled_from((0.1, 0.3, 0.5, 0.7))))]
    return []


def _decorated(draw: st.DrawFn, state: StateDef, tags: Iterator[int]) -> StateDef:
    enter = [*state.enter]
    enter[draw(st.integers(0, len(enter))) : 0] = _extras(draw, tags)
    exit_ = [*state.exit]
    exit_[draw(st.integers(0, len(exit_))) : 0] = _extras(draw, tags)
    children = tuple(_decorated(draw, child, tags) for child in state.states)
    return dataclasses.replace(state, states=children, enter=tuple(enter), exit=tuple(exit_))


@st.composite
def batch_charts(draw: st.DrawFn) -> Chart:
    """A random chart of :func:`chart_strategies.charts` with host actions added."""
    chart = draw(charts())
    root = _decorated(draw, chart.root, itertools.count(1))
    return b.chart(chart.name, root, registry=REGISTRY)


StepKind = Literal["send", "send_each", "hold", "release", "tick", "start", "spawn", "despawn"]


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
    """For ``send_each``: the index in ``EVENTS`` of each agent's event (-1: none)."""

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


def steps(spawning: bool = True) -> st.SearchStrategy[Step]:
    """A random step: mostly events, holds and ticks; sometimes spawning and despawning
    (unless not ``spawning``: drawn without them, not filtered, which starves Hypothesis)."""
    kinds = [
        st.builds(Step, st.just("send"), _agents(), st.sampled_from(EVENTS)),
        _each(),
        st.builds(Step, st.sampled_from(("hold", "release")), _agents(), st.just(HELD)),
        st.builds(Step, st.just("tick"), dt=st.sampled_from((0.1, 0.25, 0.5, 1.0))),
        st.builds(Step, st.just("start"), _agents()),
    ]
    if spawning:
        kinds += [st.builds(Step, st.just("spawn")), st.builds(Step, st.just("despawn"), _agents())]
    return st.one_of(kinds)


def _mutate(draw: st.DrawFn, state: StateDef, tags: Iterator[int]) -> StateDef:
    """``state`` with one random edit, or its children edited in turn."""
    edit = draw(
        st.sampled_from(("keep", "keep", "keep", "enter", "exit", "swap", "drop", "rename"))
    )
    children = list(state.states)
    if edit == "enter":
        return dataclasses.replace(state, enter=(*state.enter, *_extras(draw, tags)))
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


@st.composite
def edited_charts(draw: st.DrawFn, chart: Chart) -> Chart:
    """``chart`` with random edits (which may make it invalid: check before use)."""
    return Chart(chart.name, _mutate(draw, chart.root, itertools.count(1000)), registry=REGISTRY)
