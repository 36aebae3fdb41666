"""ChartProgram: one chart as pure JAX functions over many agents' arrays.

The program is built once on the host (the chart's complete table, as arrays); its
functions are pure and traceable, so a caller puts them inside its own ``jax.jit``,
``jax.vmap`` and ``lax.scan``. Host actions are not called: each step returns which agents
performed which action (:class:`~statetree.chart.jax.engine.Frame`), and the actions'
parameters are arrays too (:meth:`ChartProgram.params`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import ArrayLike

from statetree.chart.actions import ActionCall
from statetree.chart.batch.actions import BatchCall
from statetree.chart.batch.errors import BatchLoopError
from statetree.chart.batch.snapshot import BatchSnapshot, snapshot_given
from statetree.chart.batch.table import Table, table_of
from statetree.chart.compile import CompiledChart, compile_chart
from statetree.chart.events import Event, check_kind, time_step
from statetree.chart.jax import convert, engine, host
from statetree.chart.jax.complete import complete
from statetree.chart.jax.engine import Agents, Frame
from statetree.chart.jax.tables import Tables, build
from statetree.chart.machine import require_events, require_level, require_level_mapping
from statetree.chart.model import Chart
from statetree.chart.registry import TIMER
from statetree.core.options import DEFAULT_MAX_TRANSITIONS
from statetree.errors import UsageError, require_name

__all__ = ["ChartProgram"]

RECORD = 4
"""How many processings of each agent a frame lists in order, by default."""


class ChartProgram:
    """A chart compiled to JAX functions: ``init``, ``step``, ``set_levels`` and reads.

    Every agent of a program behaves exactly as its own ``ChartMachine`` (and as an agent
    of a ``ChartBatch``) fed the same calls: the program runs the same table.

    Args:
        chart: the chart, or a chart compiled once.
        events: the events a step can give an agent, ``choices`` being indexes into them
            (default: every event a transition of the chart waits for, timers excepted,
            in the chart's order).
        max_transitions: how many changes one processing may make, and how many timers
            one agent may fire in one step, before the agent fails.
        record: how many processings of each agent a frame lists in order
            (``Frame.entries``); the host actions performed are in ``Frame.calls`` all
            the same.
        name: the program's name in errors (default: the chart's).
        carried: timers a reload carried over that the chart no longer starts, as
            (state path, timer name): a snapshot's ``carried``.

    Raises:
        ChartError: ``chart`` is invalid.
        UsageError: an event is a level trigger, of an unknown kind or not an event, a
            number is wrong, or the chart reaches too many situations for a complete table.
    """

    def __init__(
        self,
        chart: Chart | CompiledChart,
        events: Sequence[Event] | None = None,
        *,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
        record: int = RECORD,
        name: str | None = None,
        carried: Sequence[tuple[str, str]] = (),
    ) -> None:
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        bound = _at_least(max_transitions, 1, "max_transitions")
        record = _at_least(record, 0, "record")
        table = table_of(compiled, bound, _carried(compiled, carried))
        complete(table)
        self.table: Table = table
        self.record = record
        self.name = compiled.chart.name if name is None else require_name(name)
        self.events: tuple[Event, ...] = _events(compiled, events)
        self.actions: tuple[ActionCall, ...] = tuple(
            call for call in compiled.calls if call.type in compiled.host_actions
        )
        """The host actions of the chart: row ``a`` of ``Frame.calls`` is ``actions[a]``."""
        inputs = [table.layout.input_of(event) for event in self.events]
        self.tables: Tables = build(table, inputs, self.actions)
        self._failures = tuple(table.failures)
        self.cycles: tuple[tuple[str, ...], ...] = tuple(f.cycle for f in self._failures)
        """The cycle of each failure code of ``Frame.failure`` (codes from 0)."""

    # -- the chart ---------------------------------------------------------------------------

    @property
    def compiled(self) -> CompiledChart:
        """The compiled chart."""
        return self.table.layout.compiled

    @property
    def paths(self) -> tuple[str, ...]:
        """The path of every state, by state number (what :meth:`leaf_ids` gives)."""
        return self.table.layout.paths

    @property
    def levels(self) -> tuple[Event, ...]:
        """The chart's level triggers, in bit order."""
        return self.table.layout.levels

    def params(self, action: str) -> tuple[tuple[int, ...], dict[str, jax.Array]]:
        """The host actions of type ``action`` and their parameters as arrays.

        Returns:
            The rows of ``Frame.calls`` of that type, and for each parameter an array of
            its value in each of them, of JAX's default types (strings as their index in
            ``labels(action, name)``), so a step's effects are array arithmetic on
            ``frame.calls[rows]``.

        Raises:
            UsageError: the chart has no host action of that type.
        """
        rows = self._rows(action)
        names = dict.fromkeys(name for a in rows for name in self.actions[a].params)
        return rows, {name: self._param(rows, name) for name in names}

    def _rows(self, action: str) -> tuple[int, ...]:
        """The rows of ``Frame.calls`` of the host actions of type ``action``.

        Raises:
            UsageError: the chart has none.
        """
        rows = tuple(a for a, call in enumerate(self.actions) if call.type == action)
        if not rows:
            known = ", ".join(sorted({call.type for call in self.actions})) or "none"
            raise UsageError(
                f"chart {self.compiled.chart.name!r} has no host action {action!r} "
                f"(it has: {known})"
            )
        return rows

    def labels(self, action: str, name: str) -> tuple[str, ...]:
        """The strings parameter ``name`` of actions ``action`` takes, in the order of
        their indexes in :meth:`params` (sorted)."""
        rows = self._rows(action)
        values = {self.actions[a].params.get(name) for a in rows}
        if values == {None}:
            known = ", ".join(sorted({p for a in rows for p in self.actions[a].params}))
            raise UsageError(
                f"the chart's {action!r} actions have no parameter {name!r} (they have: "
                f"{known or 'none'})"
            )
        return tuple(sorted(value for value in values if isinstance(value, str)))

    def _param(self, rows: Sequence[int], name: str) -> jax.Array:
        values = [self.actions[a].params.get(name) for a in rows]
        if all(isinstance(value, str) for value in values):
            labels = sorted({str(value) for value in values})
            return jnp.asarray([labels.index(str(value)) for value in values], jnp.int32)
        if any(isinstance(value, str) or value is None for value in values):
            raise UsageError(
                f"parameter {name!r} of the chart's {self.actions[rows[0]].type!r} actions "
                "is missing from some or mixes strings with numbers: it has no array"
            )
        if all(isinstance(value, bool) for value in values):
            return jnp.asarray(values, jnp.bool_)
        # JAX's default type in the caller's mode: int32 or float32 unless 64-bit is on.
        whole = all(isinstance(value, int) for value in values)
        kind = jnp.asarray(0 if whole else 0.0).dtype
        if whole:
            limits = np.iinfo(kind)
            held = all(limits.min <= int(value) <= limits.max for value in values)  # type: ignore[arg-type]
        else:
            with np.errstate(over="ignore"):  # said below, rather than warned
                held = bool(np.isfinite(np.asarray(values, np.float64).astype(kind)).all())
        if not held:
            widest = max(values, key=lambda value: abs(float(value)))  # type: ignore[arg-type]
            raise UsageError(
                f"parameter {name!r} of the chart's {self.actions[rows[0]].type!r} actions "
                f"has a value JAX's {kind} cannot hold ({widest}): enable JAX's 64-bit mode, "
                "or keep it smaller"
            )
        return jnp.asarray(values, kind)

    # -- steps -------------------------------------------------------------------------------

    def init(self, n: int) -> Agents:
        """``n`` agents that have not started (the first step starts them), at clock 0."""
        return engine.init(self.tables, _at_least(n, 0, "init() count"))

    def step(
        self, agents: Agents, choices: ArrayLike, dt: jax.Array | float
    ) -> tuple[Agents, Frame]:
        """A frame: agent ``i`` gets event ``events[choices[i]]`` (none when negative),
        then its clock advances by ``dt`` and its due timers fire: ``ChartBatch.frame``.

        ``dt`` must be finite and at least 0 (checked when it is a number, not an array).
        A choice past the events, or given to a free slot, is refused: the agent gets no
        event and ``Frame.refused`` says so.

        Raises:
            UsageError: ``choices`` is not one integer per agent, or ``dt`` is wrong.
        """
        shape = self._one(agents, "step()")
        if not isinstance(dt, jax.Array):
            dt = time_step(dt, "step")
        elif jnp.shape(dt) != () or dt.dtype.kind not in "iuf":
            raise UsageError(
                f"step() needs one dt of real seconds, got an array of shape {jnp.shape(dt)} "
                f"of type {dt.dtype}"
            )
        picks = _choices(choices, shape)
        return _run(
            engine.step,
            self.tables,
            (agents, picks, dt),
            record=self.record,
            actions=len(self.actions),
        )

    def tick(self, agents: Agents, dt: jax.Array | float) -> tuple[Agents, Frame]:
        """A step in which no agent gets an event: ``ChartBatch.tick``."""
        none = jnp.full(self._one(agents, "tick()"), -1, jnp.int32)
        return self.step(agents, none, dt)

    def set_levels(
        self,
        agents: Agents,
        levels: Mapping[Event, ArrayLike],
        where: ArrayLike | None = None,
    ) -> tuple[Agents, Frame]:
        """Hold or release level triggers: each event a boolean, or one per agent (only
        for the agents ``where`` is true, when given). An agent whose levels change
        starts if it has not, then processes once, seeing them all; the others are left
        as they are: ``ChartBatch.set_levels``.

        Raises:
            UsageError: an event is not a level trigger of the chart, or a value or ``where``
                is not a boolean, or one boolean per agent.
        """
        shape = self._one(agents, "set_levels()")
        bits, given = jnp.zeros((), jnp.int32), 0
        for key, on in require_level_mapping(levels).items():
            event = require_level(key, "set_levels", self.compiled)
            if event not in self.levels:
                known = ", ".join(map(str, self.levels)) or "none"
                raise UsageError(f"{event} is not a level trigger of the chart (it has: {known})")
            bit = 1 << self.levels.index(event)
            bits = bits | jnp.where(_booleans(on, shape, str(event)), bit, 0)
            given |= bit
        named = given if where is None else jnp.where(_booleans(where, shape, "where"), given, 0)
        return _run(
            engine.set_levels,
            self.tables,
            (agents, bits, named),
            record=self.record,
            actions=len(self.actions),
        )

    def _one(self, agents: Agents, what: str) -> tuple[int, ...]:
        """The shape of the situations of ``agents``, this program's, of one environment.

        Raises:
            UsageError: not this program's agents, or those of several environments.
        """
        self._fit(agents, what)
        shape: tuple[int, ...] = jnp.shape(agents.situation)
        if len(shape) != 1:
            raise UsageError(
                f"{what} takes the agents of one environment (situations of shape {shape}): "
                "for several, call it under jax.vmap"
            )
        return shape

    def _fit(self, agents: Agents, what: str) -> None:
        """Refuse agents whose arrays are not shaped as this program's (its ``init``'s).

        Raises:
            UsageError: not :class:`Agents`, or of another chart's timers or shape.
        """
        _agents(agents, what)
        shape = jnp.shape(agents.situation)
        rows = self.tables.fire.shape[0]
        wanted = {
            "clock": shape,
            "due": (*shape[:-1], rows, *shape[-1:]),
            "order": (*shape[:-1], rows if rows > 1 else 0, *shape[-1:]),
        }
        if not shape:
            raise UsageError(
                f"{what}: the agents have no agent axis (situations of shape ()): keep it, "
                "as agents[..., i : i + 1] does for one agent"
            )
        for field, expected in wanted.items():
            found = jnp.shape(getattr(agents, field))
            if found != expected:
                raise UsageError(
                    f"{what}: the agents' {field} has shape {found}, where program "
                    f"{self.name!r} makes {expected} for situations of shape {shape}: agents "
                    "of another program?"
                )
        _typed(agents, what)

    # -- reads -------------------------------------------------------------------------------

    def number(self, path: str) -> int:
        """The number of the state at ``path``.

        Raises:
            UsageError: the chart has no such state.
        """
        found = self.table.layout.numbers.get(path) if isinstance(path, str) else None
        if found is None:
            raise self.compiled.no_state(path)
        return found

    def is_active(self, agents: Agents, path: str) -> jax.Array:
        """Whether the state at ``path`` is active, for each agent."""
        _read(agents, "is_active()")
        return self.tables.active[agents.situation, self.number(path)]

    def active_flags(self, agents: Agents) -> jax.Array:
        """``(..., n, states)``: each agent's active flag of every state, by number (flags,
        where ``ChartBatch.active(agent)`` gives one agent's paths)."""
        _read(agents, "active_flags()")
        return self.tables.active[agents.situation]

    def leaf_ids(self, agents: Agents, within: str | None = None) -> jax.Array:
        """For each agent, the number of its innermost active state inside ``within``
        (the root by default), -1 for none; as ``ChartBatch.leaf_ids``.

        Raises:
            UsageError: no such state, or a state inside it hosts concurrent regions.
        """
        _read(agents, "leaf_ids()")
        layout = self.table.layout
        top = 0 if within is None else self.number(within)
        end = layout.end[top]
        regions = [n for n in range(top, end) if layout.concurrent(n)]
        if regions:
            raise UsageError(
                f"state {layout.paths[regions[0]]} runs concurrent regions, so an agent has "
                "one innermost state in each: read each region with leaf_ids(region)"
            )
        flags = np.asarray(self.tables.active)[:, top:end]
        leaves = np.where(flags.any(axis=1), end - 1 - np.argmax(flags[:, ::-1], axis=1), -1)
        return jnp.asarray(leaves, jnp.int32)[agents.situation]

    # -- the host's side -----------------------------------------------------------------------

    def host_calls(self, frame: Frame) -> list[BatchCall]:
        """The host calls of one frame (of one environment): every agent's calls in the
        order its machine makes them, each call naming every agent making it, ascending
        (grouped as ``ChartBatch`` groups them where the agents' processings agree).

        Raises:
            UsageError: an agent made more processings than the frame records.
        """
        return host.calls(self, _frame(frame, "host_calls()"))

    def loop_error(
        self,
        frame: Frame,
        before: Agents | None = None,
        choices: ArrayLike | None = None,
        dt: float = 0.0,
    ) -> BatchLoopError | None:
        """The error ``ChartBatch`` raises for the agents of one frame that could not
        settle (``None`` if all did). To name the cycle of agents that fired too many
        timers, give the agents ``before`` the step and its ``choices`` and ``dt``."""
        frame = _frame(frame, "loop_error()")
        if before is not None:
            _read(before, "loop_error()")
            shape: tuple[int, ...] = np.shape(before.situation)
            if jnp.shape(frame.failure) != shape:
                raise UsageError(
                    f"loop_error(): the agents before the step have situations of shape "
                    f"{shape}, the frame is of {jnp.shape(frame.failure)} agents: give the "
                    "agents the step was given"
                )
            if choices is not None:
                choices = _choices(choices, shape)
        return host.loop_error(self, frame, before, choices, dt)

    def snapshot(self, agents: Agents) -> BatchSnapshot:
        """The agents (of one environment) as a ``BatchSnapshot``: ``ChartBatch.restore``
        takes it, and so does :meth:`restore`."""
        _read(agents, "snapshot()")
        return convert.snapshot(self, agents)

    def restore(self, snapshot: BatchSnapshot) -> Agents:
        """The agents of ``snapshot`` (of a ``ChartBatch`` or of :meth:`snapshot`).

        Raises:
            DecodeError: the snapshot is of another chart, or impossible.
            UsageError: its agents hold levels the chart does not use, or are in
                situations this program's table lacks (see :meth:`covering`).
        """
        return convert.restore(self, snapshot_given(snapshot))

    def covering(self, snapshot: BatchSnapshot) -> ChartProgram:
        """A program of this chart whose table holds every agent of ``snapshot`` (this one
        when it already does): an agent restored from another batch may be in a situation
        no fresh agent reaches, such as after a reload."""
        if convert.covers(self, snapshot):
            return self
        return ChartProgram(
            self.compiled,
            self.events,
            max_transitions=self.table.bound,
            record=self.record,
            name=self.name,
            carried=snapshot.carried,
        )


_MOST = (1 << 31) - 1
"""The largest count a program takes: its arrays count in 32 bits."""


_JITTED = {
    engine.step: jax.jit(engine.step, static_argnames=("record", "actions")),
    engine.set_levels: jax.jit(engine.set_levels, static_argnames=("record", "actions")),
}
"""The engine's calls compiled once (for each shape): what a call outside ``jit`` runs."""


def _run(
    call: Callable[..., tuple[Agents, Frame]],
    tables: Tables,
    arguments: tuple[object, ...],
    *,
    record: int,
    actions: int,
) -> tuple[Agents, Frame]:
    """``call`` on ``arguments``: inside the caller's trace (``jit``, ``vmap``, ``scan``) as
    it is, outside it compiled once (its loop would otherwise compile at every call)."""
    traced = any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(arguments))
    if traced:
        return call(tables, *arguments, record=record, actions=actions)
    with jax.enable_x64(True):  # the agents' 64-bit fields stay 64-bit through the call
        done: tuple[Agents, Frame] = _JITTED[call](
            tables, *arguments, record=record, actions=actions
        )
    return done


def _at_least(value: object, least: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise UsageError(f"{what} must be an integer of at least {least}, got {value!r}")
    if value > _MOST:
        raise UsageError(f"{what} must be at most {_MOST:,}, got {value}")
    return int(value)


def _events(compiled: CompiledChart, events: Sequence[Event] | None) -> tuple[Event, ...]:
    if events is None:
        return tuple(event for event in compiled.edges if event.kind != TIMER)
    listed = require_events(events, "ChartProgram")
    for event in listed:
        if event.kind in compiled.level_kinds:
            raise UsageError(f"{event} is a level trigger: use set_levels()")
        check_kind(event, compiled.chart.registry, level=False)
    return listed


def _booleans(value: ArrayLike, shape: tuple[int, ...], what: str) -> jax.Array:
    """``value`` as booleans: one for every agent, or one per agent (``shape``).

    Raises:
        UsageError: it is not booleans (a mask: ``where`` takes no agent indexes), or of
            another shape.
    """
    array = _array(value)
    if array is None or array.dtype != jnp.bool_ or array.shape not in ((), shape):
        raise UsageError(
            f"set_levels() needs a boolean, or one boolean per agent ({shape[-1]}), for "
            f"{what}: got {_described(value, array)}"
        )
    return array


def _choices(choices: ArrayLike, shape: tuple[int, ...]) -> jax.Array:
    """``choices`` as one integer per agent (of ``shape``, the agents' situations).

    Raises:
        UsageError: they are not integers of that shape, or one is beyond 32 bits.
    """
    picks = _array(choices)
    if picks is not None and not isinstance(choices, jax.Array):
        given = np.asarray(choices)
        limits = np.iinfo(np.int32)
        if given.size and given.dtype.kind in "iu":
            wrapped = given[(given > limits.max) | (given < limits.min)]
            if wrapped.size:  # JAX would wrap it around to a small choice
                raise UsageError(f"choice {int(wrapped[0])} is beyond what any step can name")
    if picks is None or picks.shape != shape or not jnp.issubdtype(picks.dtype, jnp.integer):
        raise UsageError(
            f"step() needs one integer choice per agent ({shape[-1]}), got "
            f"{_described(choices, picks)}"
        )
    return picks


def _array(value: ArrayLike) -> jax.Array | None:
    """``value`` as an array (an empty list as integers), or ``None`` if it is none."""
    if isinstance(value, jax.Array):
        return value
    try:
        given = np.asarray(value)
    except (TypeError, ValueError):
        return None
    if given.size == 0 and given.dtype.kind == "f":
        given = given.astype(np.int32)  # an empty list reads as floats
    if given.dtype.kind not in "biuf":
        return None
    return jnp.asarray(given)


def _described(value: object, array: jax.Array | None) -> str:
    if array is None:
        return f"{value!r}"[:80]
    given = array if isinstance(value, jax.Array) else np.asarray(value)  # its own type
    return f"shape {given.shape} of type {given.dtype}"


def _carried(
    compiled: CompiledChart, carried: Sequence[tuple[str, str]]
) -> tuple[tuple[str, str], ...]:
    pairs = tuple(carried)
    for pair in pairs:
        if not (
            isinstance(pair, tuple)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and pair[0] in compiled.by_path
            and isinstance(pair[1], str)
        ):
            raise UsageError(
                f"carried names timers as (state path, timer name) of the chart, got {pair!r}"
            )
    return pairs


_DTYPES = {"situation": np.int32, "clock": np.float64, "due": np.float64, "order": np.int64}
"""The type of each field of the agents ``init`` makes."""


def _typed(agents: Agents, what: str) -> None:
    """Refuse agents whose fields are not of the types ``init`` makes.

    Raises:
        UsageError: one is of another type (say put on a device in JAX's 32-bit mode).
    """
    for field, dtype in _DTYPES.items():
        given = getattr(agents, field).dtype
        if given != dtype:
            raise UsageError(
                f"{what}: the agents' {field} is of type {given}, where init() makes "
                f"{np.dtype(dtype)}: keep its types (enable JAX's 64-bit mode, "
                "jax.config.update('jax_enable_x64', True), before moving agents to a device)"
            )


def _read(agents: object, what: str) -> None:
    """Refuse what a read cannot take: not agents, fields of other types than ``init``'s,
    or not one entry (one row of entries) per agent. Their timer rows may be more than
    this program's (a padded program's agents, see ``tables.padded``).

    Raises:
        UsageError: they are not such agents.
    """
    _agents(agents, what)
    assert isinstance(agents, Agents)
    _typed(agents, what)
    shape = np.shape(agents.situation)
    for field in ("clock", "due", "order"):
        found = np.shape(getattr(agents, field))
        rows = found if field == "clock" else found[:-2] + found[-1:]
        if rows != shape or (field != "clock" and len(found) != len(shape) + 1):
            raise UsageError(
                f"{what}: the agents' {field} has shape {found}, for situations of shape "
                f"{shape}: agents of another program?"
            )


def _agents(agents: object, what: str) -> None:
    arrays = isinstance(agents, Agents) and all(
        isinstance(field, (jax.Array, np.ndarray)) for field in agents
    )
    if not arrays:
        raise UsageError(f"{what} takes the agents init() or a step made, got {agents!r}"[:200])


def _frame(frame: object, what: str) -> Frame:
    if not isinstance(frame, Frame):
        raise UsageError(f"{what} takes a Frame that step() returned, got {frame!r}"[:200])
    return frame
