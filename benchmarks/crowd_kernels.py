"""The crowd character of ``examples/charts/crowd.json``, written by hand for speed.

The references ``ChartBatch`` is measured against: what a programmer who knows this one
chart would write, once with NumPy and once as a numba kernel. Each agent is one byte: its
leaf state (``IDLE`` .. ``DEAD``) and, in bit 3, which locomotion state it resumes (the
chart's history of ``Locomotion``); plus one timer deadline. A frame gives some agents an
event (0 Attack, 1 Jump, 2 Move, 3 Stop, 4 Died, 5 Respawn), then advances every clock by
``dt``; the timers of this chart are never shorter than a frame, so each agent fires at most
one per frame. Host calls come out as ChartBatch's do: one call per animation and phase
(the inputs, then the tick), naming the agents that play it, ascending.

``bench_batch.py`` checks that both end every frame with the states and the animations of a
``ChartBatch`` before it times anything.
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

IDLE, WALK, JUMP, WINDUP, WINDOW, RECOVER, HIT2, DEAD = range(8)
LEAF_PATHS = (
    "Character.Alive.Locomotion.Idle",
    "Character.Alive.Locomotion.Walk",
    "Character.Alive.Jump",
    "Character.Alive.Combo.Hit1.Windup",
    "Character.Alive.Combo.Hit1.Window",
    "Character.Alive.Combo.Hit1.Recover",
    "Character.Alive.Combo.Hit2",
    "Character.Dead",
)
ANIMATIONS = ("Idle", "Walk", "Jump", "Hit1", "Hit2", "Die")
A_IDLE, A_WALK, A_JUMP, A_HIT1, A_HIT2, A_DIE = range(6)
NONE = -1
WALKED = 8  # bit 3: Locomotion resumes Walk

Animate = Callable[[int, np.ndarray], None]  # type: ignore[type-arg]
"""Called with an animation number and the agents playing it (a host call)."""


def _inputs(code: int, row: dict[int, tuple[int, int, float]]) -> None:
    """What each event does to an agent of ``code``: (next code, animation, delay)."""
    leaf, walked = code & 7, code & WALKED
    locomotion = (WALK if walked else IDLE) | walked
    if leaf == DEAD:
        row[5] = (locomotion, A_WALK if walked else A_IDLE, np.nan)
        return
    row[4] = (DEAD | walked, A_DIE, np.nan)
    if leaf in (IDLE, WALK, JUMP):
        row[0] = (WINDUP | walked, A_HIT1, 0.3)
    if leaf in (IDLE, WALK):
        row[1] = (JUMP | walked, A_JUMP, 0.8)
    if leaf == IDLE:
        row[2] = (WALK | WALKED, A_WALK, -1.0)
    if leaf == WALK:
        row[3] = (IDLE, A_IDLE, -1.0)
    if leaf == WINDOW:
        row[0] = (HIT2 | walked, A_HIT2, 0.6)


def _firing(code: int) -> tuple[int, int, float]:
    """What a timer firing does to an agent of ``code``: (next code, animation, delay)."""
    leaf, walked = code & 7, code & WALKED
    if leaf in (JUMP, RECOVER, HIT2):
        return (WALK if walked else IDLE) | walked, A_WALK if walked else A_IDLE, np.nan
    if leaf == WINDUP:
        return WINDOW | walked, NONE, 0.4
    if leaf == WINDOW:
        return RECOVER | walked, NONE, 0.3
    return code, NONE, np.nan


def tables() -> tuple[np.ndarray, ...]:  # type: ignore[type-arg]
    """``(16 codes x 6 events)`` next code, animation and timer delay (NaN: stop the
    timer, -1: keep it); then ``(16 codes)`` the same for a timer firing."""
    nxt = np.arange(16)[:, None].repeat(6, axis=1)
    anim = np.full((16, 6), NONE)
    delay = np.full((16, 6), -1.0)
    fired = [_firing(code) for code in range(16)]
    for code in range(16):
        row: dict[int, tuple[int, int, float]] = {}
        _inputs(code, row)
        for event, (code_after, animation, wait) in row.items():
            nxt[code, event], anim[code, event], delay[code, event] = code_after, animation, wait
    fire_next = np.array([f[0] for f in fired])
    fire_anim = np.array([f[1] for f in fired])
    fire_delay = np.array([f[2] for f in fired])
    return nxt, anim, delay, fire_next, fire_anim, fire_delay


NEXT, ANIM, DELAY, FIRE_NEXT, FIRE_ANIM, FIRE_DELAY = tables()


class NumpyCrowd:
    """The crowd with NumPy array operations."""

    def __init__(self, agents: int, animate: Animate) -> None:
        self.code = np.full(agents, IDLE, np.int8)
        self.due = np.full(agents, np.nan)
        self.clock = 0.0
        self.animate = animate
        animate(A_IDLE, np.arange(agents))

    def frame(self, choices: np.ndarray, dt: float) -> None:  # type: ignore[type-arg]
        chosen = np.flatnonzero(choices >= 0)
        events = choices[chosen]
        code = self.code[chosen]
        delay = DELAY[code, events]
        self.code[chosen] = NEXT[code, events]
        self.due[chosen] = np.where(
            delay >= 0, self.clock + delay, np.where(np.isnan(delay), np.nan, self.due[chosen])
        )
        self._calls(chosen, ANIM[code, events])
        end = self.clock + dt
        firing = np.flatnonzero(self.due <= end)
        code = self.code[firing]
        self.code[firing] = FIRE_NEXT[code]
        self.due[firing] = self.due[firing] + FIRE_DELAY[code]
        self._calls(firing, FIRE_ANIM[code])
        self.clock = end

    def _calls(self, agents: np.ndarray, animations: np.ndarray) -> None:  # type: ignore[type-arg]
        for animation in np.unique(animations[animations >= 0]).tolist():
            self.animate(animation, agents[animations == animation])


@numba.njit(cache=True)  # type: ignore[misc]
def _frame(crowd, choices, times, tables, out):  # type: ignore[no-untyped-def]
    """One frame of every agent (``crowd``: codes, deadlines; ``times``: the clock, the end
    of the frame); ``out`` gets (agent, phase * 6 + animation) pairs."""
    code, due = crowd
    clock, end = times
    nxt, anim, delay, fire_next, fire_anim, fire_delay = tables
    calls = 0
    for agent in range(code.size):
        c = code[agent]
        choice = choices[agent]
        if choice >= 0:
            wait = delay[c, choice]
            if wait >= 0:
                due[agent] = clock + wait
            elif np.isnan(wait):
                due[agent] = np.nan
            a = anim[c, choice]
            if a >= 0:
                out[calls, 0], out[calls, 1] = agent, a
                calls += 1
            c = nxt[c, choice]
        d = due[agent]
        if d <= end:
            due[agent] = d + fire_delay[c]
            a = fire_anim[c]
            if a >= 0:
                out[calls, 0], out[calls, 1] = agent, 6 + a
                calls += 1
            c = fire_next[c]
        code[agent] = c
    return calls


@numba.njit(cache=True)  # type: ignore[misc]
def _buckets(out, calls):  # type: ignore[no-untyped-def]
    """The agents of each of the 12 (phase, animation) buckets, ascending."""
    offsets = np.zeros(13, np.int64)
    for n in range(calls):
        offsets[out[n, 1] + 1] += 1
    for k in range(1, 13):
        offsets[k] += offsets[k - 1]
    fill = offsets[:-1].copy()
    agents = np.empty(calls, np.int64)
    for n in range(calls):
        bucket = out[n, 1]
        agents[fill[bucket]] = out[n, 0]
        fill[bucket] += 1
    return offsets, agents


class NumbaCrowd:
    """The crowd as one compiled loop a frame, then a counting sort of its host calls."""

    def __init__(self, agents: int, animate: Animate) -> None:
        self.code = np.full(agents, IDLE, np.int8)
        self.due = np.full(agents, np.nan)
        self.clock = 0.0
        self.animate = animate
        self.out = np.zeros((2 * agents, 2), np.int64)
        self.tables = tuple(
            np.ascontiguousarray(t) for t in (NEXT, ANIM, DELAY, FIRE_NEXT, FIRE_ANIM, FIRE_DELAY)
        )
        animate(A_IDLE, np.arange(agents))

    def frame(self, choices: np.ndarray, dt: float) -> None:  # type: ignore[type-arg]
        end = self.clock + dt
        crowd, times = (self.code, self.due), (self.clock, end)
        calls = _frame(crowd, choices, times, self.tables, self.out)
        offsets, agents = _buckets(self.out, calls)
        for bucket in np.flatnonzero(np.diff(offsets)).tolist():
            self.animate(bucket % 6, agents[offsets[bucket] : offsets[bucket + 1]])
        self.clock = end
