"""A program's agents to ``BatchSnapshot`` and back (the lasting format of every batch)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

from statetree.chart.batch.agents import Agents as Slots
from statetree.chart.batch.convert import agents_of, snapshot_of
from statetree.chart.batch.snapshot import BatchSnapshot
from statetree.chart.jax.engine import Agents
from statetree.chart.jax.host import on_host
from statetree.errors import UsageError

if TYPE_CHECKING:
    from statetree.chart.jax.program import ChartProgram

__all__ = ["covers", "restore", "snapshot"]


def snapshot(program: ChartProgram, agents: Agents) -> BatchSnapshot:
    """``agents`` (one environment's) as a snapshot."""
    situation, clock, due, order = (on_host(array, "snapshot()") for array in agents)
    if situation.ndim != 1:
        raise UsageError(
            "snapshot() takes the agents of one environment: index their batch axes first "
            f"(situations of shape {situation.shape})"
        )
    table = program.table
    if due.shape[0] < table.layout.rows:  # more is a padded program's (see tables.padded)
        raise UsageError(
            f"snapshot(): the agents have {due.shape[0]} timer rows, where program "
            f"{program.name!r} has {table.layout.rows}: agents of another program?"
        )
    known = program.tables.table.shape[0]
    if situation.size and not (situation.min() >= 0 and situation.max() < known):
        raise UsageError(
            f"snapshot(): agents in situations {int(situation.min())} to "
            f"{int(situation.max())}, but program {program.name!r} has {known}: agents of "
            "another program?"
        )
    layout = table.layout
    count = situation.size
    slots = Slots(count, layout.rows, layout.ordered)
    slots.size = count
    slots.widen(len(table.situations))
    slots.situations[:count] = situation
    slots.due[:, :count] = due[: layout.rows]
    if layout.ordered:
        slots.order[:, :count] = order[: layout.rows]
    alive = np.flatnonzero(situation != 0)
    slots.set_clocks(alive, clock[alive])
    return snapshot_of(table, slots, 0, count, 0)


def _slots(program: ChartProgram, snapshot: BatchSnapshot) -> tuple[Any, Slots]:
    return agents_of(snapshot, program.compiled, program.table.bound)


def restore(program: ChartProgram, snapshot: BatchSnapshot) -> Agents:
    """The agents of ``snapshot``."""
    table, slots = _slots(program, snapshot)
    count = snapshot.size
    situations = slots.situations[:count].astype(np.int32)
    if table is not program.table or situations.max(initial=0) >= program.tables.table.shape[0]:
        raise UsageError(
            "the snapshot holds agents in situations this program's table lacks (after a "
            "reload, say): run program.covering(snapshot) and restore with the program it gives"
        )
    held = [str(event) for event, flags in slots.extra.items() if flags[:count].any()]
    if held:
        raise UsageError(
            f"the snapshot's agents hold levels the chart does not use ({', '.join(held)}): "
            "a program keeps only the chart's levels; release them in the batch before its "
            "snapshot"
        )
    rows = table.layout.rows
    with jax.enable_x64(True):
        return Agents(
            situation=jnp.asarray(situations),
            clock=jnp.asarray(slots.clocks[slots.epochs[:count]], jnp.float64),
            due=jnp.asarray(slots.due[:, :count], jnp.float64),
            order=jnp.asarray(slots.order[: rows if rows > 1 else 0, :count], jnp.int64),
        )


def covers(program: ChartProgram, snapshot: BatchSnapshot) -> bool:
    """Whether ``program``'s table holds the agents of ``snapshot``."""
    table, slots = _slots(program, snapshot)
    highest = int(slots.situations[: snapshot.size].max(initial=0))
    return table is program.table and highest < program.tables.table.shape[0]
