"""The arrays a JAX step looks up: a completed table, laid out for one gather per column.

Built once per program from a :class:`~statetree.chart.batch.table.Table` completed by
:func:`~statetree.chart.jax.complete.complete`. Agents are on the last axis of every array
a step touches, so per-row columns are stored ``(rows, entries)`` and a lookup by each
agent's entry gives ``(rows, agents)`` directly. Every size a compiled step depends on is
an array's shape, and everything else (the bound, how many events) is data, so tables
padded to the same shapes (:func:`padded`) share one compilation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from statetree.chart.actions import ActionCall
from statetree.chart.batch.derive import KILL, START
from statetree.chart.batch.table import (
    CALLS,
    FAIL,
    FIRE,
    LEVELS,
    NCALLS,
    NEXT,
    SRC,
    STARTED,
    Table,
)

__all__ = ["KEEP", "Tables", "build", "padded"]

KEEP = -1.0
"""A timer code: the row keeps its deadline (NaN: it stops; a delay: a timer starts)."""
WORD = 32
"""Host actions per word of an entry's call bits."""


class Tables(NamedTuple):
    """One chart's behaviour as arrays (``S`` situations, ``X`` inputs, ``E`` entries,
    ``R`` timer rows, ``W`` words of host-action bits).

    Attributes:
        table: ``(S, X)`` int32, the entry of each situation and input.
        started: ``(S,)`` whether the situation has started.
        levels: ``(S,)`` int32, its held level bits.
        fire: ``(R, S)`` int32, the input the timer of each row fires.
        relevel: ``(S, 2 ** levels)`` int32, the situation with other level bits.
        next: ``(E,)`` int32, the situation an entry ends in.
        fail: ``(E,)`` int32, the cycle an entry fails with (-1: it settles).
        timer: ``(R, E)`` float64, what an entry does to each row: :data:`KEEP`, NaN
            (stop) or the delay of a timer it starts.
        rank: ``(R, E)`` int64, the start order of the timers an entry starts.
        calls: ``(W, E)`` uint32, bit ``a % 32`` of word ``a // 32``: the entry performs
            host action ``a``.
        mapping: ``(C,)`` int32, the input of each event an agent can be given.
        events: ``()`` int32, how many of ``mapping`` are events (the rest pads).
        bound: ``()`` int32, the most timers an agent fires in one step.
        active: ``(S, states)`` whether each state is active in each situation.
    """

    table: jax.Array
    started: jax.Array
    levels: jax.Array
    fire: jax.Array
    relevel: jax.Array
    next: jax.Array
    fail: jax.Array
    timer: jax.Array
    rank: jax.Array
    calls: jax.Array
    mapping: jax.Array
    events: jax.Array
    bound: jax.Array
    active: jax.Array


def _relevel(table: Table) -> np.ndarray[Any, Any]:
    """Each situation with each combination of level bits (itself where it has not
    started: an agent starts before it holds levels)."""
    count = len(table.situations)
    width = 1 << len(table.layout.levels)
    found = np.repeat(np.arange(count, dtype=np.int32)[:, None], width, axis=1)
    for number in range(1, count):
        if table.info[number, STARTED]:
            found[number] = [table.with_levels(number, bits) for bits in range(width)]
    return found


def _call_bits(table: Table, actions: Sequence[ActionCall]) -> np.ndarray[Any, Any]:
    """``(words, entries + 1)``: which host actions each entry performs."""
    index = {id(call): a for a, call in enumerate(actions)}
    words = np.zeros((max(1, -(-len(actions) // WORD)), table.count + 1), np.uint32)
    for e in range(table.count):
        start = int(table.entries[e, CALLS])
        stop = start + int(table.entries[e, NCALLS])
        for key in table.call_keys[start:stop].tolist():
            a = index.get(id(table.keys[key][1]))
            if a is None:  # an old chart's exit, in an entry of a batch's reload (shared
                continue  # table): the outcome of a reload, which no step takes
            words[a // WORD, e] |= np.uint32(1 << (a % WORD))
    return words


def _timer_codes(table: Table, entries: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    rows = table.layout.rows
    sources = entries[:, SRC : SRC + rows].T
    codes = np.full(sources.shape, KEEP)
    codes[sources == KILL] = np.nan
    started = sources == START
    delays = np.concatenate([table.delays[: table.count], np.zeros((1, rows))])
    codes[started] = delays.T[started]
    return codes


def build(table: Table, inputs: Sequence[int], actions: Sequence[ActionCall]) -> Tables:
    """The arrays of ``table`` (completed), for agents given the inputs ``inputs`` (by
    choice) and reporting the host actions ``actions`` (by identity).

    One more entry than the table's comes last: it changes nothing (no timer row, no
    call, no failure), and every pair no agent can meet leads to it."""
    count, rows = len(table.situations), table.layout.rows
    idle = np.zeros((1, table.entries.shape[1]), table.entries.dtype)
    idle[0, FAIL] = -1
    idle[0, SRC : SRC + rows] = range(rows)
    entries = np.concatenate([table.entries[: table.count], idle])
    pairs = np.where(table.table[:count] >= 0, table.table[:count], table.count)
    # A step starts an agent in its first round only: no processing leaves it unstarted.
    # (Entries no pair reaches, a despawn's say, which leave agents unstarted, no step takes.)
    reached = np.unique(pairs[pairs < table.count])
    assert table.info[entries[reached, NEXT], STARTED].all()
    with jax.enable_x64(True):
        return Tables(
            table=jnp.asarray(pairs, jnp.int32),
            started=jnp.asarray(table.info[:count, STARTED] != 0),
            levels=jnp.asarray(table.info[:count, LEVELS], jnp.int32),
            fire=jnp.asarray(table.info[:count, FIRE : FIRE + rows].T, jnp.int32),
            relevel=jnp.asarray(_relevel(table), jnp.int32),
            next=jnp.asarray(entries[:, NEXT], jnp.int32),
            fail=jnp.asarray(entries[:, FAIL], jnp.int32),
            timer=jnp.asarray(_timer_codes(table, entries), jnp.float64),
            rank=jnp.asarray(entries[:, SRC + rows : SRC + 2 * rows].T, jnp.int64),
            calls=jnp.asarray(_call_bits(table, actions), jnp.uint32),
            mapping=jnp.asarray(np.array([*inputs, 0], np.int32), jnp.int32),  # never empty
            events=jnp.asarray(len(inputs), jnp.int32),
            bound=jnp.asarray(table.bound, jnp.int32),
            active=jnp.asarray(table.active[:count]),
        )


def padded(tables: Tables, like: Tables) -> Tables:
    """``tables`` padded to the shapes of ``like`` (every axis at least as long), so that
    steps of both compile once. Padding is never reached: no entry leads to a padded
    situation, padded rows never run a timer, padded actions are never performed, padded
    events are refused."""

    def pad(array: jax.Array, shape: tuple[int, ...], fill: object) -> jax.Array:
        if not shape:
            return array
        if any(have > want for have, want in zip(array.shape, shape, strict=True)):
            raise ValueError(f"cannot pad an array of shape {array.shape} to {shape}")
        widths = [(0, want - have) for have, want in zip(array.shape, shape, strict=True)]
        return jnp.pad(array, widths, constant_values=fill)

    fills = (0, False, 0, 0, 0, 0, -1, KEEP, 0, 0, 0, 0, 0, False)
    with jax.enable_x64(True):
        return Tables(
            *(
                pad(array, model.shape, fill)
                for array, model, fill in zip(tables, like, fills, strict=True)
            )
        )
