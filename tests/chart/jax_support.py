"""A JAX program beside Twins (a ChartBatch and a ChartMachine per agent), fed the same calls.

The program's tables are padded to a few fixed shapes, so that the step of every random
chart of a test run compiles only a handful of times. Agents are compared through
snapshots (every array, bit for bit, timer start orders included), their host calls in
order, and the loops reported.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from batch_strategies import EVENTS, LEVELS, Step
from batch_support import Twins

from statetree.chart import Chart, ChartBatch
from statetree.chart.batch.step import backend_names
from statetree.chart.jax import ChartProgram, engine
from statetree.chart.jax.tables import Tables, padded

ACTIONS = 64
"""Rows of ``Frame.calls`` every padded program reports."""

step = jax.jit(partial(engine.step, record=2 + 40, actions=ACTIONS))
set_levels = jax.jit(partial(engine.set_levels, record=2 + 40, actions=ACTIONS))


def _bucket(size: int, least: int) -> int:
    return max(least, 1 << max(0, size - 1).bit_length())


def padding(tables: Tables) -> Tables:
    """Shapes to pad ``tables`` to: each axis rounded up to a power of two, at least a floor
    that most random charts fit."""
    situations, inputs = tables.table.shape
    rows, entries = tables.timer.shape
    shapes = Tables(
        table=(_bucket(situations, 64), _bucket(inputs, 8)),
        started=(_bucket(situations, 64),),
        levels=(_bucket(situations, 64),),
        fire=(_bucket(rows, 4), _bucket(situations, 64)),
        relevel=(_bucket(situations, 64), _bucket(tables.relevel.shape[1], 2)),
        next=(_bucket(entries, 128),),
        fail=(_bucket(entries, 128),),
        timer=(_bucket(rows, 4), _bucket(entries, 128)),
        rank=(_bucket(rows, 4), _bucket(entries, 128)),
        calls=(ACTIONS // 32, _bucket(entries, 128)),
        mapping=tables.mapping.shape,
        events=(),
        bound=(),
        active=(_bucket(situations, 64), _bucket(tables.active.shape[1], 32)),
    )
    pairs = zip(shapes, tables, strict=True)
    return Tables(*(jax.ShapeDtypeStruct(shape, array.dtype) for shape, array in pairs))


class Triplets(Twins):
    """Twins, and the agents of a JAX program fed the same calls."""

    def __init__(self, chart: Chart, count: int) -> None:
        backend = backend_names()[0]
        super().__init__(chart, count, backend=backend)
        self.quiet = True  # a program's host actions are outputs: they cannot send
        self.program = ChartProgram(chart, EVENTS, max_transitions=self.bound, record=2 + 40)
        self.tables = padded(self.program.tables, padding(self.program.tables))
        self.agents = engine.init(self.tables, count)
        self.calls: dict[int, list[str]] = defaultdict(list)
        self.failed: tuple[tuple[int, ...], Any] = ((), ((), False))

    def play(self, step_: Step) -> None:
        levels = self.program.levels
        if step_.kind == "levels":  # a program holds only the levels its chart uses
            used = sum(1 << n for n, event in enumerate(LEVELS) if event in levels)
            step_ = dataclasses.replace(step_, choices=tuple(c & used for c in step_.choices))
        super().play(step_)
        before = self.agents
        with jax.enable_x64(True):
            if step_.kind == "levels":
                bits, given = np.zeros((2, len(self.machines)), np.int32)
                for agent, choice in zip(step_.agents, step_.choices, strict=True):
                    for n, event in enumerate(LEVELS):
                        if event in levels:
                            bit = 1 << levels.index(event)
                            bits[agent] |= bit if choice >> n & 1 else 0
                            given[agent] |= bit
                self.agents, frame = set_levels(self.tables, self.agents, bits, given)
                choices = None
            else:
                picks = step_.choices if step_.kind == "frame" else ()
                choices = np.array(
                    [picks[n] if n < len(picks) else -1 for n in range(len(self.machines))]
                )
                dt = jnp.asarray(step_.dt, jnp.float64)
                self.agents, frame = step(self.tables, self.agents, jnp.asarray(choices), dt)
        assert not np.asarray(frame.refused).any()
        for call in self.program.host_calls(frame):
            for agent in call.entities.tolist():
                self.calls[agent].append(str(call.action))
        rows = np.flatnonzero(np.asarray(frame.calls).any(axis=1))
        assert rows.max(initial=-1) < len(self.program.actions)
        error = self.program.loop_error(frame, before, choices, step_.dt)
        self.failed = (
            ((), ((), False)) if error is None else (error.entities, (error.cycle, error.timers))
        )

    def check(self, context: object = "") -> None:
        super().check(context)
        where = f"the program after {context}"
        batch = self.batch.snapshot()
        mine = self.program.snapshot(self.agents)
        for name, array in batch.arrays.items():
            assert np.array_equal(mine.arrays[name], array, equal_nan=True), (where, name)
        restored = ChartBatch.restore(mine, self.program.compiled, _ignoring(self.program))
        for agent in self.machines:
            assert restored.agent(agent).timers == self.batch.agent(agent).timers, where
        assert dict(self.calls) == {a: c for a, c in self.batch_calls.items() if c}, where
        assert self.failed == self.batch_failed, where


def _ignoring(program: ChartProgram) -> dict[str, Any]:
    return dict.fromkeys(program.compiled.host_actions, lambda call: None)
