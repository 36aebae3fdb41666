"""The step: every agent's processings of one call, as table lookups and masked updates.

It does for each agent exactly what the compiled pass of a :class:`ChartBatch` does (see
:mod:`statetree.chart.batch.kernel`): its start if it has not started, its event if it has
one, then its timers due by the end of the step in (deadline, start order), each a
processing, at most the bound of them; an agent that fails to settle stops there, its
clock reading the moment it failed. Here all agents advance together, one processing
each per round of a ``lax.while_loop``, until none has one left: a round is a few gathers
from the tables and selects over the agents' arrays, whatever each agent does, so it runs
the same under ``jit``, ``vmap`` (one loop over many environments, as long as the busiest)
and ``lax.scan``.

Clocks and deadlines are float64, as in every other engine, so agents fire timers at the
very same instants. These functions work under ``jax.enable_x64`` themselves: the
caller's own code keeps JAX's default 32-bit types.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

from statetree.chart.jax.tables import WORD, Tables

__all__ = ["FREE", "FRESH", "SETTLED", "TIMERS", "Agents", "Frame", "init", "set_levels", "step"]

FREE, FRESH = 0, 1
"""Situations: a free slot, and an agent that has not started."""
SETTLED, TIMERS = -1, -2
"""Failure codes besides a cycle's number: none, and more timers due than the bound."""


class Agents(NamedTuple):
    """The agents' state (``n`` agents on the last axis).

    Attributes:
        situation: ``(n,)`` int32, each agent's situation in the program's table
            (:data:`FREE`: no agent).
        clock: ``(n,)`` float64, each agent's clock.
        due: ``(rows, n)`` float64, the deadline of the timer each row runs (NaN: none).
        order: ``(rows, n)`` int64, the start order of each row's timer; no rows when
            the chart never runs two timers at once.
    """

    situation: jax.Array
    clock: jax.Array
    due: jax.Array
    order: jax.Array


class Frame(NamedTuple):
    """What one call did (``n`` agents on the last axis).

    Attributes:
        calls: ``(actions, n)`` whether each agent performed each host action (one row
            per action of the chart, as the program lists them).
        entries: ``(record, n)`` int32, the table entry of each agent's processings, in
            order (-1: none), as far as ``record`` rounds of the call; with the table they
            give every host call in the order the agent made it.
        failure: ``(n,)`` int32, :data:`SETTLED`, :data:`TIMERS` (more timers were due
            than the bound) or the number of the cycle the agent could not leave.
        refused: ``(n,)`` the agent was given a choice that names no event, or is a free
            slot given one: it got no event.
        overflow: ``(n,)`` the agent made host calls in processings past ``record``
            rounds: ``entries`` does not list them all (``calls`` does).
    """

    calls: jax.Array
    entries: jax.Array
    failure: jax.Array
    refused: jax.Array
    overflow: jax.Array


class _Run(NamedTuple):
    """An agent's working state through one call."""

    situation: jax.Array
    clock: jax.Array  # the clock of its last processing
    due: jax.Array
    order: jax.Array
    failure: jax.Array
    bits: jax.Array  # (words, n) the host actions performed
    entries: jax.Array
    overflow: jax.Array


class _Loop(NamedTuple):
    run: _Run
    round: jax.Array  # how many rounds ran
    pending: jax.Array  # its event is still to be processed
    fired: jax.Array  # timers fired
    row: jax.Array  # the row of its first timer due (-1: none)
    when: jax.Array  # that timer's deadline
    busy: jax.Array  # it has a processing left


def init(tables: Tables, n: int) -> Agents:
    """``n`` agents that have not started (their first step starts them), clocks at 0."""
    rows = tables.fire.shape[0]
    with jax.enable_x64(True):
        return Agents(
            situation=jnp.full((n,), FRESH, jnp.int32),
            clock=jnp.zeros((n,), jnp.float64),
            due=jnp.full((rows, n), jnp.nan, jnp.float64),
            order=jnp.zeros((rows if rows > 1 else 0, n), jnp.int64),
        )


def _begin(tables: Tables, agents: Agents, record: int) -> _Run:
    n = agents.situation.shape[-1]
    words = tables.calls.shape[0]
    return _Run(
        situation=agents.situation,
        clock=agents.clock,
        due=agents.due,
        order=agents.order,
        failure=jnp.full((n,), SETTLED, jnp.int32),
        bits=jnp.zeros((words, n), jnp.uint32),
        entries=jnp.full((record, n), -1, jnp.int32),
        overflow=jnp.zeros((n,), jnp.bool_),
    )


def _process(
    tables: Tables, run: _Run, acting: jax.Array, input_: jax.Array, round_: jax.Array | int
) -> _Run:
    """One processing of ``input_`` by the agents ``acting``, each at its ``run.clock``:
    the entry of its situation and input, applied (the kernel's ``_rows``). The others
    take the table's last entry, which changes nothing: every update but the situation's
    needs no mask."""
    idle = tables.next.shape[0] - 1
    e = jnp.where(acting, tables.table[run.situation, input_], idle)
    # Computed once: XLA would otherwise fuse the lookup into each of its many users.
    e = lax.optimization_barrier(e)  # type: ignore[no-untyped-call]
    code = tables.timer[:, e]
    starts = code >= 0
    due = jnp.where(starts, run.clock + code, jnp.where(jnp.isnan(code), jnp.nan, run.due))
    order = run.order
    if order.shape[0]:
        base = jnp.maximum(order.max(axis=0), 0)
        order = jnp.where(starts, base + tables.rank[:, e], order)
    fail = tables.fail[e]
    calls = tables.calls[:, e]
    entries, overflow = run.entries, run.overflow
    record = entries.shape[0]
    if record:
        slot = jnp.minimum(round_, record - 1)
        row = jnp.where(
            acting & (round_ < record), e, lax.dynamic_index_in_dim(entries, slot, keepdims=False)
        )
        entries = lax.dynamic_update_index_in_dim(entries, row, slot, 0)
    overflow |= (round_ >= record) & (calls != 0).any(axis=0)
    return _Run(
        situation=jnp.where(acting, tables.next[e], run.situation),
        clock=run.clock,
        due=due,
        order=order,
        failure=jnp.where(fail >= 0, fail, run.failure),
        bits=run.bits | calls,
        entries=entries,
        overflow=overflow,
    )


def _first_due(due: jax.Array, order: jax.Array, end: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Each agent's row whose timer fires first by ``end`` (deadline, then start order),
    -1 for none; and its deadline."""
    found = jnp.full(end.shape, -1, jnp.int32)
    best = jnp.full(end.shape, jnp.inf, due.dtype)
    rank = jnp.zeros(end.shape, jnp.int64)
    for r in range(due.shape[0]):
        deadline = due[r]
        better = (deadline <= end) & ((found < 0) | (deadline < best))
        if order.shape[0]:
            tied = (deadline <= end) & (found >= 0) & (deadline == best) & (order[r] < rank)
            better |= tied
            rank = jnp.where(better, order[r], rank)
        found = jnp.where(better, r, found)
        best = jnp.where(better, deadline, best)
    return found, best


def _waiting(tables: Tables, loop: _Loop, end: jax.Array) -> _Loop:
    """``loop`` with each agent's next timer and whether it has a processing left."""
    run = loop.run
    row, when = _first_due(run.due, run.order, end)
    live = (run.situation != FREE) & (run.failure == SETTLED)
    busy = live & (~tables.started[run.situation] | loop.pending | (row >= 0))
    return loop._replace(row=row, when=when, busy=busy)


def _round(tables: Tables, loop: _Loop, inputs: jax.Array, end: jax.Array) -> _Loop:
    """Each busy agent's next processing: its start, else its event, else its first timer
    due (unless it has fired the bound of them: then it fails)."""
    run = loop.run
    unstarted = ~tables.started[run.situation]
    starting = loop.busy & unstarted
    given = loop.busy & ~unstarted & loop.pending
    timing = loop.busy & ~unstarted & ~loop.pending
    over = timing & (loop.fired >= tables.bound)
    timing &= ~over
    due = run.due
    fired = jnp.zeros_like(inputs)
    if due.shape[0]:
        fired = tables.fire[jnp.maximum(loop.row, 0), run.situation]
        rows = jnp.arange(due.shape[0], dtype=jnp.int32)[:, None]
        due = jnp.where(timing & (rows == loop.row), jnp.nan, due)
    input_ = jnp.where(starting, 0, jnp.where(given, inputs, fired))
    run = run._replace(
        clock=jnp.where(timing, loop.when, run.clock),
        due=due,
        failure=jnp.where(over, TIMERS, run.failure),
    )
    run = _process(tables, run, starting | given | timing, input_, loop.round)
    pending, fired = loop.pending & ~given, loop.fired + timing
    return _waiting(
        tables, loop._replace(run=run, round=loop.round + 1, pending=pending, fired=fired), end
    )


def _frame(tables: Tables, run: _Run, refused: jax.Array, actions: int) -> Frame:
    number = jnp.arange(actions, dtype=jnp.uint32)
    words = run.bits[number // WORD]
    calls = (words >> (number % WORD)[:, None]) & 1
    return Frame(
        calls=calls.astype(jnp.bool_),
        entries=run.entries,
        failure=run.failure,
        refused=refused,
        overflow=run.overflow,
    )


def _agents(run: _Run, clock: jax.Array) -> Agents:
    return Agents(run.situation, clock, run.due, run.order)


def step(
    tables: Tables,
    agents: Agents,
    choices: jax.Array,
    dt: jax.Array | float,
    *,
    record: int,
    actions: int,
) -> tuple[Agents, Frame]:
    """Each agent's event ``choices[i]`` (none when negative), then ``dt`` of its clock
    with its due timers: ``ChartBatch.frame`` (an agent that has not started starts
    first). Returns the agents after, and the frame (see :class:`Frame`)."""
    with jax.enable_x64(True):
        choices = jnp.asarray(choices).astype(jnp.int32)
        alive = agents.situation != FREE
        wrong = choices >= tables.events
        refused = (choices >= 0) & (wrong | ~alive)
        pending = (choices >= 0) & ~refused
        last = tables.mapping.shape[0] - 1
        inputs = tables.mapping[jnp.clip(choices, 0, last)]
        end = agents.clock + jnp.asarray(dt, jnp.float64)
        n = agents.situation.shape[-1]
        start = _Loop(
            run=_begin(tables, agents, record),
            round=jnp.zeros((), jnp.int32),
            pending=pending,
            fired=jnp.zeros((n,), jnp.int32),
            row=jnp.zeros((n,), jnp.int32),
            when=jnp.zeros((n,), jnp.float64),
            busy=jnp.zeros((n,), jnp.bool_),
        )
        loop = lax.while_loop(
            lambda loop: loop.busy.any(),
            lambda loop: _round(tables, loop, inputs, end),
            _waiting(tables, start, end),
        )
        run = loop.run
        settled = alive & (run.failure == SETTLED)
        clock = jnp.where(settled, end, run.clock)
        return _agents(run, clock), _frame(tables, run, refused, actions)


def set_levels(
    tables: Tables,
    agents: Agents,
    bits: jax.Array,
    given: jax.Array | int,
    *,
    record: int,
    actions: int,
) -> tuple[Agents, Frame]:
    """Each agent holds the levels of ``bits`` (bit ``k``: the chart's level ``k``) that
    ``given`` names, keeping the others; an agent whose levels change starts if it has
    not, then processes once, seeing them all: ``ChartBatch.set_levels``."""
    with jax.enable_x64(True):
        given = jnp.asarray(given, jnp.int32)
        run = _begin(tables, agents, record)
        held = tables.levels[run.situation]
        wanted = (held & ~given) | (jnp.asarray(bits, jnp.int32) & given)
        changed = (run.situation != FREE) & (wanted != held)
        none = jnp.zeros_like(run.situation)
        run = _process(tables, run, changed & ~tables.started[run.situation], none, 0)
        changed &= run.failure == SETTLED
        run = run._replace(
            situation=jnp.where(changed, tables.relevel[run.situation, wanted], run.situation)
        )
        run = _process(tables, run, changed, none, 1)
        refused = jnp.zeros_like(changed)
        return _agents(run, run.clock), _frame(tables, run, refused, actions)
