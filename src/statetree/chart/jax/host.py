"""A frame read on the host: its host calls in ``ChartBatch``'s order, its loop error."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import jax
import numpy as np
from numpy.typing import ArrayLike

from statetree.chart.actions import ActionCall
from statetree.chart.batch import vector
from statetree.chart.batch.actions import BatchCall
from statetree.chart.batch.batch import ChartBatch
from statetree.chart.batch.errors import BatchLoopError, Failure
from statetree.chart.jax.engine import SETTLED, TIMERS, Agents, Frame
from statetree.errors import UsageError

if TYPE_CHECKING:
    from statetree.chart.jax.program import ChartProgram

__all__ = ["calls", "loop_error", "on_host"]


def on_host(array: Any, what: str) -> np.ndarray[Any, Any]:
    """``array`` as a NumPy array, read on the host.

    Raises:
        UsageError: ``array`` is traced (``what`` was called inside ``jax.jit``).
    """
    try:
        return np.asarray(array)
    except jax.errors.TracerArrayConversionError:
        raise UsageError(
            f"{what} reads arrays on the host: call it outside jax.jit (and vmap, scan), on "
            "what the jitted function returned"
        ) from None


def _one(array: Any, what: str, ndim: int) -> np.ndarray[Any, Any]:
    found = on_host(array, what)
    if found.ndim != ndim:
        raise UsageError(
            f"{what} takes the frame of one environment: index its batch axes first "
            f"(an array of {found.ndim} axes where {ndim} were expected)"
        )
    return found


def calls(program: ChartProgram, frame: Frame) -> list[BatchCall]:
    """The host calls of ``frame``, bucket by bucket as ``ChartBatch`` makes them: by
    processing, then by moment; each naming its agents, ascending."""
    entries = _one(frame.entries, "host_calls()", 2)
    over = np.flatnonzero(_one(frame.overflow, "host_calls()", 1))
    if over.size:
        shown = ", ".join(map(str, over[:10].tolist()))
        raise UsageError(
            f"agents {shown} made host calls in more processings than the program records "
            f"({program.record}): build it with a larger record to read them in order"
        )
    number, agent = np.nonzero(entries >= 0)
    order = np.lexsort((number, agent))
    records = np.stack([agent[order], number[order], entries[number, agent][order]], axis=1)
    table = program.table
    buckets, agents = vector.group(
        records.astype(np.int64), table.entries, table.call_keys, table.ranked
    )
    found = []
    for _, key, start, stop in buckets:
        entities = agents[start:stop].astype(np.intp)
        entities.setflags(write=False)
        found.append(BatchCall(table.keys[key][1], entities))
    return found


def loop_error(
    program: ChartProgram,
    frame: Frame,
    before: Agents | None,
    choices: ArrayLike | None,
    dt: float,
) -> BatchLoopError | None:
    """The ``BatchLoopError`` of the agents of ``frame`` that could not settle."""
    failure = _one(frame.failure, "loop_error()", 1)
    agents = np.flatnonzero(failure != SETTLED)
    if not agents.size:
        return None
    first = int(agents[0])
    code = int(failure[first])
    found = Failure((), timers=code == TIMERS)
    if code >= 0:
        found = program._failures[code]
    elif before is not None:
        found = _timer_failure(program, before, first, choices, dt) or found
    return found.error(f"{program.name}[{first}]", program.table.bound, agents.tolist())


def _timer_failure(
    program: ChartProgram, before: Agents, agent: int, choices: ArrayLike | None, dt: float
) -> Failure | None:
    """Why the agent's timers looped: its step replayed by a batch of it alone."""
    one = jax.tree.map(lambda array: np.asarray(array)[..., agent : agent + 1], before)
    handlers = dict.fromkeys(program.compiled.host_actions, _ignore)
    batch = ChartBatch.restore(
        program.snapshot(one), program.compiled, handlers, max_transitions=program.table.bound
    )
    pick = -1 if choices is None else int(np.asarray(choices).reshape(-1)[agent])
    if not 0 <= pick < len(program.events):  # refused by the step: the agent got no event
        pick = -1
    try:
        batch.frame(dt, program.events, [pick])
    except BatchLoopError as error:
        return Failure.of(error)
    return None


def _ignore(call: ActionCall | BatchCall) -> None:
    """A host action replayed only to learn a cycle: not performed."""
