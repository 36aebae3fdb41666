"""Rebuilding a batch's arrays from a snapshot, after checking that they make sense.

Bytes from elsewhere are not trusted: every array must have the shape the chart implies,
and every agent must be in a configuration its chart allows (each active state's parent
active, one active child under a non-concurrent state, histories naming a child, running
timers owned by an active state). Anything else raises ``DecodeError`` and builds nothing.
"""

from __future__ import annotations

from typing import Any

from statetree.chart.batch.arrays import Bools, NDArray, np
from statetree.chart.batch.plan import Plan
from statetree.chart.batch.snapshot import BatchSnapshot
from statetree.chart.batch.store import Store, history_type
from statetree.chart.compile import CompiledChart
from statetree.chart.model import Policy
from statetree.errors import DecodeError

__all__ = ["plan_of", "store_of"]


def plan_of(compiled: CompiledChart, snapshot: BatchSnapshot) -> Plan:
    """The plan of ``compiled`` with the timers ``snapshot`` carries.

    Raises:
        DecodeError: a carried timer names no state of the chart.
    """
    unknown = [path for path, _ in snapshot.carried if path not in compiled.by_path]
    if unknown:
        raise DecodeError(f"the snapshot carries timers of states the chart lacks: {unknown}")
    return Plan(compiled, snapshot.carried)


def store_of(plan: Plan, snapshot: BatchSnapshot) -> Store:
    """A store holding the snapshot's agents.

    Raises:
        DecodeError: an array does not fit the chart, or an agent's configuration is
            impossible.
    """
    store = Store(plan, snapshot.size, snapshot.held_events)
    arrays = snapshot.arrays
    rows = plan.timers.rows
    expected: dict[str, tuple[tuple[int, ...], Any]] = {
        "active": ((store.bits.words,), store.bits.dtype),
        "history": ((plan.tree.history_rows,), history_type(plan)),
        "held": ((len(snapshot.held_events),), np.bool_),
        "due": ((rows,), np.float64),
        "sequence": ((rows if rows > 1 else 0,), np.int64),
    }
    for name, (leading, dtype) in expected.items():
        if arrays[name].shape[:-1] != leading or arrays[name].dtype != dtype:
            raise DecodeError(
                f"the snapshot's {name!r} array does not fit chart "
                f"{plan.compiled.chart.name!r}: {arrays[name].shape} of {arrays[name].dtype}"
            )
    if len(set(snapshot.held_events)) != len(snapshot.held_events):
        raise DecodeError("the snapshot names a held event twice")
    for name, array in arrays.items():
        if name != "held":
            getattr(store, name)[..., : snapshot.size] = array
    for row, event in enumerate(snapshot.held_events):
        store.held[store.held_events.index(event), : snapshot.size] = arrays["held"][row]
    store.size = snapshot.size
    _check(plan, store)
    return store


def _check(plan: Plan, store: Store) -> None:
    size = store.size
    active, alive = store.states(slice(0, size)), store.alive[:size]
    if not np.array_equal(store.bits.pack(active), store.active[:, :size]):
        raise DecodeError("the snapshot has active flags beyond the chart's states")
    if (active & ~alive).any() or np.isnan(store.clock[:size]).any():
        raise DecodeError("the snapshot has states active in free slots, or a clock of NaN")
    if (store.sequence[:, :size] < 0).any():
        raise DecodeError("the snapshot has timers of negative start order")
    for number in range(plan.states):
        _check_state(plan, number, active, store.history[:, :size])
    for row, keys in enumerate(plan.timers.by_row):
        owned = np.zeros(size, np.bool_)
        for key in keys:
            owned |= active[key.owner]
        if (~np.isnan(store.due[row, :size]) & ~owned).any():
            raise DecodeError("the snapshot has a running timer whose state is not active")


def _check_state(
    plan: Plan, number: int, active: Bools, history: NDArray[np.signedinteger[Any]]
) -> None:
    tree = plan.tree
    path = tree.paths[number]
    parent = tree.parent[number]
    if parent >= 0 and (active[number] & ~active[parent]).any():
        raise DecodeError(f"the snapshot has {path} active without its parent")
    children = tree.children[number]
    if not children:
        return
    row = history[tree.history_row[number]]
    if ((row < 0) | (row >= len(children))).any():
        raise DecodeError(f"the snapshot's history of {path} names no child of it")
    if tree.policy(number) is Policy.CONCURRENT:
        return
    on = active[list(children)]
    if (on.sum(axis=0) > 1).any():
        raise DecodeError(f"the snapshot has several children of {path} active")
    current = on.argmax(axis=0)
    if (on.any(axis=0) & (current != row)).any():
        raise DecodeError(f"the snapshot's history of {path} is not its active child")
