"""The step: every agent's processings of one call, as table lookups and masked updates.

It does for each agent exactly what the compiled pass of a :class:`ChartBatch` does (see
:mod:`statetree.chart.batch.kernel`): its start if it has not started, its event if it has
one, then its timers due by the end of the step in (deadline, start order), each a
processing, at most the bound of them; an agent that fails to settle stops there, its
clock reading the moment it failed. Here all agents advance together, one processing
each per round, until none has one left: a round is a few gathers from the tables and
selects over the agents' arrays, whatever each agent does, so it runs the same under
``jit``, ``vmap`` (one loop over many environments, as long as the busiest) and
``lax.scan``. Round 0 runs outside the ``lax.while_loop`` of the others, and a round
carries only the agents' own arrays: what it reads besides them (each agent's event, how
many processings come before its timers, the end of the step) is fixed for the call, so
the loop moves as few arrays as it can, which is what a step's time goes to.

Clocks and deadlines are float64, as in every other engine, so agents fire timers at the
very same instants. These functions work under ``jax.enable_x64`` themselves: the
caller's own code keeps JAX's default 32-bit types.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

from statetree.chart.jax.tables import WORD, Tables

__all__ = ["FREE", "FRESH", "SETTLED", "TIMERS", "Agents", "Frame", "init", "set_levels", "step"]

FREE = 0
"""The situation of a free slot."""
FRESH = 1
"""The situation of an agent that has not started."""
SETTLED = -1
"""A frame's failure code of an agent that settled (else a cycle's number, or TIMERS)."""
TIMERS = -2
"""A frame's failure code of an agent that had more timers due than the bound."""
NONE = -1
"""A ``Frame.entries`` value: no processing."""
UNRECORDED = -2
"""A ``Frame.entries`` value (in the last slot): processings past the record that made
host calls."""


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
            order (:data:`NONE`: none), as far as ``record`` rounds of the call; with the
            table they give every host call in the order the agent made it.
        failure: ``(n,)`` int32, :data:`SETTLED`, :data:`TIMERS` (more timers were due
            than the bound) or the number of the cycle the agent could not leave.
        refused: ``(n,)`` the agent was given a choice that names no event, or is a free
            slot given one: it got no event.
        overflow: ``(n,)`` the agent made host calls in processings past ``record``
            rounds: ``entries`` does not list them all (its last slot reads
            :data:`UNRECORDED`; ``calls`` has them all).
    """

    calls: jax.Array
    entries: jax.Array
    failure: jax.Array
    refused: jax.Array
    overflow: jax.Array


class _Run(NamedTuple):
    """The agents' working state through one call: all a round changes."""

    situation: jax.Array
    clock: jax.Array  # the clock of its last processing
    due: jax.Array
    order: jax.Array
    failure: jax.Array
    bits: jax.Array  # (words, n) the host actions performed
    entries: jax.Array  # (record, n) the entry of each round's processing


class _Call(NamedTuple):
    """What a step's rounds read and never change, each ``(n,)``."""

    alive: jax.Array
    inputs: jax.Array  # the input of its event
    phases: jax.Array  # int32, its processings before its timers: its start, its event
    end: jax.Array  # its clock at the end of the step


_MOST = (1 << 31) - 1
"""The largest choice a step reads as it is (any larger names no event either)."""


def _modes() -> contextlib.ExitStack:
    """JAX's 64-bit types and its standard type promotion, whatever the caller's modes."""
    modes = contextlib.ExitStack()
    modes.enter_context(jax.enable_x64(True))
    modes.enter_context(jax.numpy_dtype_promotion("standard"))
    return modes


def init(tables: Tables, n: int) -> Agents:
    """``n`` agents that have not started (their first step starts them), clocks at 0."""
    rows = tables.fire.shape[0]
    with _modes():
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
        entries=jnp.full((record, n), NONE, jnp.int32),
    )


def _process(
    tables: Tables, run: _Run, acting: jax.Array, input_: jax.Array, round_: jax.Array | int
) -> _Run:
    """One processing of ``input_`` by the agents ``acting``, each at its ``run.clock``:
    the entry of its situation and input, applied (the kernel's ``_rows``), recorded as
    the processing of round ``round_``. The others take the table's last entry, which
    changes nothing: every update but the situation's needs no mask."""
    idle = tables.next.shape[0] - 1
    e = jnp.where(acting, tables.table[run.situation, input_], idle)
    code = tables.timer[:, e]
    starts, stops = code >= 0, jnp.isnan(code)
    due = jnp.where(starts, run.clock + code, jnp.where(stops, jnp.nan, run.due))
    order = run.order
    if order.shape[0]:  # a stopped row keeps no start order (as both passes of a batch)
        base = jnp.maximum(order.max(axis=0), 0)
        order = jnp.where(starts, base + tables.rank[:, e], jnp.where(stops, 0, order))
    fail = tables.fail[e]
    calls = tables.calls[:, e]
    entries = run.entries
    record = entries.shape[0]
    if record:
        # Past the record, the last slot says that calls went unrecorded.
        slot = jnp.minimum(jnp.asarray(round_, jnp.int32), record - 1)
        kept = lax.dynamic_index_in_dim(entries, slot, keepdims=False)
        lost = acting & (round_ >= record) & (calls != 0).any(axis=0)
        row = jnp.where(acting & (round_ < record), e, jnp.where(lost, UNRECORDED, kept))
        entries = lax.dynamic_update_index_in_dim(entries, row, slot, 0)
    return _Run(
        situation=jnp.where(acting, tables.next[e], run.situation),
        clock=run.clock,
        due=due,
        order=order,
        failure=jnp.where(fail >= 0, fail, run.failure),
        bits=run.bits | calls,
        entries=entries,
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


def _busy(call: _Call, run: _Run, round_: jax.Array | int) -> jax.Array:
    """Whether each agent has a processing in round ``round_``: its start or its event
    still to come, or a timer due by the end of the step (an agent stays busy from round
    0 to its last processing, one a round)."""
    due = (run.due <= call.end).any(axis=0)
    return call.alive & (run.failure == SETTLED) & ((round_ < call.phases) | due)


def _round(tables: Tables, call: _Call, run: _Run, round_: jax.Array | int) -> _Run:
    """Each busy agent's processing of round ``round_``: its start, else its event, else
    its first timer due (unless it has fired the bound of them: then it fails)."""
    started = tables.started[run.situation]
    live = call.alive & (run.failure == SETTLED)
    starting = live & ~started
    given = live & started & (round_ < call.phases)  # after its start, if it had one
    row, when = _first_due(run.due, run.order, call.end)
    timing = live & started & ~given & (row >= 0)
    # It has fired one timer a round since its start and event: as many as the bound?
    over = timing & (round_ - call.phases >= tables.bound)
    timing &= ~over
    due = run.due
    fired = jnp.zeros_like(call.inputs)
    if due.shape[0]:
        fired = tables.fire[jnp.maximum(row, 0), run.situation]
        rows = jnp.arange(due.shape[0], dtype=jnp.int32)[:, None]
        due = jnp.where(timing & (rows == row), jnp.nan, due)
    input_ = jnp.where(starting, 0, jnp.where(given, call.inputs, fired))
    run = run._replace(
        clock=jnp.where(timing, when, run.clock),
        due=due,
        failure=jnp.where(over, TIMERS, run.failure),
    )
    return _process(tables, run, starting | given | timing, input_, round_)


def _frame(tables: Tables, run: _Run, refused: jax.Array, actions: int) -> Frame:
    number = jnp.arange(actions, dtype=jnp.uint32)
    words = run.bits[number // WORD]
    calls = (words >> (number % WORD)[:, None]) & 1
    if run.entries.shape[0]:
        overflow = run.entries[-1] == UNRECORDED
    else:
        overflow = (run.bits != 0).any(axis=0)
    return Frame(
        calls=calls.astype(jnp.bool_),
        entries=run.entries,
        failure=run.failure,
        refused=refused,
        overflow=overflow,
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
    with _modes():
        raw = jnp.asarray(choices)
        if jnp.issubdtype(raw.dtype, jnp.unsignedinteger) and raw.dtype.itemsize >= 4:
            raw = jnp.minimum(raw, jnp.asarray(_MOST, raw.dtype))  # kept past any event, unwrapped
        wide = raw.astype(jnp.int64)
        alive = agents.situation != FREE
        refused = (wide >= 0) & ((wide >= tables.events.astype(jnp.int64)) | ~alive)
        choices = jnp.where(refused, -1, wide).astype(jnp.int32)
        fresh = (alive & ~tables.started[agents.situation]).astype(jnp.int32)
        last = tables.mapping.shape[0] - 1
        call = _Call(
            alive=alive,
            inputs=tables.mapping[jnp.clip(choices, 0, last)],
            phases=fresh + ((choices >= 0) & ~refused),
            end=agents.clock + jnp.asarray(dt, jnp.float64),
        )
        # Round 0 runs for every agent, outside the loop: most agents have one processing
        # at most in a step, and the loop's rounds then run only for the others.
        run = _round(tables, call, _begin(tables, agents, record), 0)
        _, run = lax.while_loop(
            lambda state: _busy(call, state[1], state[0]).any(),
            lambda state: (state[0] + 1, _round(tables, call, state[1], state[0])),
            (jnp.ones((), jnp.int32), run),
        )
        settled = alive & (run.failure == SETTLED)
        clock = jnp.where(settled, call.end, run.clock)
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
    with _modes():
        given = jnp.asarray(given, jnp.int32)
        run = _begin(tables, agents, record)
        held = tables.levels[run.situation]
        wanted = (held & ~given) | (jnp.asarray(bits, jnp.int32) & given)
        changed = (run.situation != FREE) & (wanted != held)
        none = jnp.zeros_like(run.situation)
        starting = changed & ~tables.started[run.situation]
        run = _process(tables, run, starting, none, 0)
        changed &= run.failure == SETTLED
        run = run._replace(
            situation=jnp.where(changed, tables.relevel[run.situation, wanted], run.situation)
        )
        # One processing number for every agent's levels, as a batch's one pass for them
        # (its host calls grouped alike): after the starts, if any agent started.
        run = _process(tables, run, changed, none, starting.any().astype(jnp.int32))
        refused = jnp.zeros_like(changed)
        return _agents(run, run.clock), _frame(tables, run, refused, actions)
