"""Agents to snapshots and back.

A snapshot keeps its own format, independent of how a batch numbers situations: one flag
per state (packed into words), each state's history, each held level, the clock and every
timer row (see :mod:`~statetree.chart.batch.snapshot`). So snapshots last across versions
and move between batches and processes whatever their tables hold. Restoring checks every
agent first: an impossible configuration, clock or timer raises ``DecodeError`` and builds
nothing.
"""

from __future__ import annotations

from typing import Any

from statetree.chart.batch.agents import Agents, held
from statetree.chart.batch.arrays import Bools, Floats, NDArray, np
from statetree.chart.batch.snapshot import BatchSnapshot, snapshot_given
from statetree.chart.batch.table import Table, table_of, timer_pairs
from statetree.chart.compile import CompiledChart
from statetree.chart.events import Event
from statetree.chart.placement import Situation, problem
from statetree.chart.saving import chart_fingerprint, check_fingerprint
from statetree.errors import DecodeError

__all__ = ["agents_of", "snapshot_of"]

MAX_ORDER = 1 << 53
"""Timer start orders must be below this (later starts count up from the largest)."""


def _width(states: int) -> tuple[int, Any]:
    """The word width and type of ``states`` packed flags."""
    return next(
        ((b, t) for b, t in ((8, np.uint8), (16, np.uint16), (32, np.uint32)) if states <= b),
        (64, np.uint64),
    )


def _pack(flags: Bools) -> NDArray[Any]:
    """``(agents, states)`` flags as ``(words, agents)`` words (flag ``i``: bit ``i % width``
    of word ``i // width``)."""
    width, kind = _width(flags.shape[1])
    words = max(1, -(-flags.shape[1] // width))
    padded = np.zeros((flags.shape[0], words * width), np.bool_)
    padded[:, : flags.shape[1]] = flags
    data = np.packbits(padded, axis=1, bitorder="little")
    packed: NDArray[Any] = np.ascontiguousarray(data).view(np.dtype(kind).newbyteorder("<"))
    words_of: NDArray[Any] = packed.astype(kind).T.copy()
    return words_of


def _unpack(words: NDArray[Any], states: int) -> Bools:
    """The ``(agents, states)`` flags of packed words."""
    raw = np.ascontiguousarray(words.T.astype(words.dtype.newbyteorder("<"))).view(np.uint8)
    flags: Bools = np.unpackbits(raw, axis=1, bitorder="little")[:, :states].astype(np.bool_)
    return flags


def _composites(table: Table) -> list[int]:
    return [n for n, kids in enumerate(table.layout.children) if kids]


def _history_type(table: Table) -> Any:
    widest = max((len(kids) for kids in table.layout.children), default=0)
    return np.int8 if widest <= 127 else np.int16


def snapshot_of(table: Table, agents: Agents, start: int, stop: int, offset: int) -> BatchSnapshot:
    """The agents ``start`` to ``stop - 1`` of a batch, as a snapshot."""
    layout = table.layout
    situations = agents.situations[start:stop].astype(np.intp)
    alive = situations != 0
    composites = _composites(table)
    histories = np.array(
        [[0] * len(composites)]
        + [[s.history[n] for n in composites] for s in table.situations[1:] if s],
        _history_type(table),
    )
    levels = list(layout.levels)
    # Levels the chart does not use: those held by some agent of the range, in one order
    # (a snapshot says what the agents are, not what the batch saw before).
    extra = sorted(e for e, flags in agents.extra.items() if flags[start:stop].any())
    ids = np.arange(start, stop, dtype=np.intp)
    flags = [held(table, agents, event, ids) for event in (*levels, *extra)]
    clock: Floats = np.where(alive, agents.clocks[agents.epochs[start:stop]], 0.0)
    order = agents.order[:, start:stop].copy()
    arrays = {
        "alive": alive,
        "active": _pack(table.active[situations]),
        "history": histories[situations].T.copy(),
        "held": np.array(flags, np.bool_).reshape(len(flags), stop - start),
        "clock": clock,
        "due": agents.due[:, start:stop].copy(),
        "sequence": order,
    }
    return BatchSnapshot(
        chart_fingerprint(layout.compiled),
        layout.carried,
        (*levels, *extra),
        int(order.max(initial=0)),
        offset + start,
        arrays,
    )


def agents_of(snapshot: BatchSnapshot, compiled: CompiledChart, bound: int) -> tuple[Table, Agents]:
    """The table and the agents of ``snapshot`` for ``compiled``.

    Raises:
        DecodeError: the snapshot is of another chart, or does not fit it, or an agent is
            impossible.
        UsageError: ``snapshot`` is not a snapshot.
    """
    snapshot = snapshot_given(snapshot)
    check_fingerprint(compiled, snapshot.chart)
    unknown = [path for path, _ in snapshot.carried if path not in compiled.by_path]
    if unknown:
        raise DecodeError(f"the snapshot carries timers of states the chart lacks: {unknown}")
    started = {(compiled.classes[owner]._path, name) for owner, name in timer_pairs(compiled)}
    own = [pair for pair in snapshot.carried if pair in started]
    if own:  # a reload carries only the timers the new chart does not start
        raise DecodeError(f"the snapshot carries timers the chart starts itself: {own}")
    table = table_of(compiled, bound, snapshot.carried)
    arrays = snapshot.arrays
    _check_shapes(table, snapshot)
    size = snapshot.size
    alive = arrays["alive"]
    flags = _unpack(arrays["active"], len(table.layout))
    if (_pack(flags) != arrays["active"]).any():
        raise DecodeError("the snapshot has active flags beyond the chart's states")
    if (flags.any(axis=1) & ~alive).any():
        raise DecodeError("the snapshot has states active in free slots")
    agents = Agents(size, table.layout.rows, table.layout.ordered)
    agents.size = size
    numbers = _situations(table, snapshot, flags, alive)
    agents.widen(len(table.situations))
    agents.situations[:size] = numbers
    _timers(table, snapshot, flags, agents)
    for row, event in enumerate(snapshot.held_events):
        if event not in table.layout.levels:
            flags = agents.extra[event] = np.zeros(agents.capacity, np.bool_)
            flags[:size] = arrays["held"][row] & alive
    agents.epochs[:] = 0
    agents.set_clocks(np.flatnonzero(alive), arrays["clock"][alive])
    return table, agents


def _check_shapes(table: Table, snapshot: BatchSnapshot) -> None:
    layout, arrays = table.layout, snapshot.arrays
    width, kind = _width(len(layout))
    rows = layout.rows
    expected: dict[str, tuple[tuple[int, ...], Any]] = {
        "active": ((max(1, -(-len(layout) // width)),), kind),
        "history": ((len(_composites(table)),), _history_type(table)),
        "held": ((len(snapshot.held_events),), np.bool_),
        "due": ((rows,), np.float64),
        "sequence": ((rows if layout.ordered else 0,), np.int64),
    }
    for name, (leading, dtype) in expected.items():
        if arrays[name].shape[:-1] != leading or arrays[name].dtype != dtype:
            raise DecodeError(
                f"the snapshot's {name!r} array does not fit chart "
                f"{layout.compiled.chart.name!r}: {arrays[name].shape} of {arrays[name].dtype}"
            )
    kinds = layout.compiled.level_kinds
    edges = [event for event in snapshot.held_events if event[0] not in kinds]
    if edges:
        raise DecodeError(
            f"the snapshot holds {Event(*edges[0])}, which is no level trigger of chart "
            f"{layout.compiled.chart.name!r} (its level kinds: {', '.join(sorted(kinds))})"
        )
    clock = arrays["clock"][arrays["alive"]]
    if not (np.isfinite(clock) & (clock >= 0)).all():
        raise DecodeError("the snapshot has a clock that is negative, infinite or NaN")
    order = arrays["sequence"]
    if ((order < 0) | (order >= MAX_ORDER)).any():
        raise DecodeError(f"the snapshot has timer start orders outside [0, {MAX_ORDER})")


def _situations(
    table: Table, snapshot: BatchSnapshot, flags: Bools, alive: Bools
) -> NDArray[np.intp]:
    """The number of each agent's situation (0 for a free slot), checked."""
    layout, arrays = table.layout, snapshot.arrays
    levels = [snapshot.held_events.index(e) for e in layout.levels if e in snapshot.held_events]
    chart_levels = [e for e in layout.levels if e in snapshot.held_events]
    held = arrays["held"][levels].T if levels else np.zeros((flags.shape[0], 0), np.bool_)
    history = arrays["history"].T.astype(np.int64)
    rows = np.concatenate([flags, held, history], axis=1).astype(np.int64)[alive]
    numbers = np.zeros(flags.shape[0], np.intp)
    if not rows.size:
        return numbers
    distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    composites = _composites(table)
    found = []
    states = len(layout)
    for row in distinct.tolist():
        history_of = [0] * states
        for n, value in zip(composites, row[states + len(levels) :], strict=True):
            history_of[n] = value
        held_events = frozenset(
            e for e, on in zip(chart_levels, row[states : states + len(levels)], strict=True) if on
        )
        situation = Situation(
            tuple(n for n in range(states) if row[n]), tuple(history_of), held_events
        )
        trouble = problem(layout.compiled, situation)
        if trouble is not None:
            raise DecodeError(f"the snapshot has an impossible agent: {trouble}")
        found.append(table.id_of(situation))
    numbers[alive] = np.asarray(found, np.intp)[inverse.reshape(-1)]
    return numbers


def _timers(table: Table, snapshot: BatchSnapshot, flags: Bools, agents: Agents) -> None:
    """Copy the snapshot's timer rows, each running one owned by an active state, due at
    or after its agent's clock."""
    layout, arrays = table.layout, snapshot.arrays
    due, clock = arrays["due"], arrays["clock"]
    for row in range(layout.rows):
        owned = np.zeros(flags.shape[0], np.bool_)
        for key in layout.keys:
            if key.row == row:
                owned |= flags[:, key.owner]
        running = ~np.isnan(due[row])
        if (running & ~owned).any():
            raise DecodeError("the snapshot has a running timer whose state is not active")
        if (running & ~(np.isfinite(due[row]) & (due[row] >= clock))).any():
            raise DecodeError("the snapshot has a timer due before its agent's clock, or never")
    agents.due[:, : snapshot.size] = due
    agents.order[:, : snapshot.size] = arrays["sequence"]
