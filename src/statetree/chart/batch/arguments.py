"""Reading the arguments of batch calls: which agents a call is for (``entities``), the input
of each event, which event each agent gets (``choices``), and levels given per agent."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeAlias

from numpy.typing import ArrayLike

from statetree.chart.batch.arrays import Bools, Indexes, NDArray, np, read_only
from statetree.chart.events import Event, check_kind
from statetree.chart.machine import require_events
from statetree.errors import UsageError

if TYPE_CHECKING:
    from statetree.chart.batch.table import Layout

__all__ = [
    "Entities",
    "Inputs",
    "agent_index",
    "count_of",
    "level_values",
    "picks_of",
    "refuse",
    "select",
    "select_ordered",
    "slot_range",
]

Entities: TypeAlias = "int | NDArray[np.integer] | NDArray[np.bool_] | list[int] | range | None"
"""``None`` (every live agent), one index, indexes (any order, no repeats) or a boolean mask
with one entry per agent slot."""


def select(entities: Entities, alive: Bools) -> Indexes:
    """The indexes ``entities`` names, ascending.

    Args:
        alive: whether each agent slot holds an agent (its length is the batch's size).

    Raises:
        UsageError: not indexes or a mask of the right length, an index out of range, named
            twice, or of a slot without an agent.
    """
    return select_ordered(entities, alive)[0]


def select_ordered(entities: Entities, alive: Bools) -> tuple[Indexes, Indexes | None]:
    """As :func:`select`, with where each ascending index stands in ``entities``: ``ids ==
    given[order]``, so ``values[order]`` lines up values given one per entity with ``ids``
    (``order`` is ``None`` when ``entities`` were ascending already)."""
    if entities is None:
        return alive.nonzero()[0], None
    array = np.asarray(entities)
    kind = array.dtype.kind
    if kind == "b":
        if array.shape != alive.shape:
            raise UsageError(
                f"a mask of agents needs one entry per agent slot ({alive.size}), "
                f"got shape {array.shape}"
            )
        ids, order = array.nonzero()[0], None
    elif array.size == 0:
        ids, order = np.zeros(0, np.intp), None
    elif kind in "iu":  # signed or unsigned integers
        ids, order = _indexes(array.reshape(-1), alive.size)
    else:
        raise UsageError(f"entities must be agent indexes or a mask of agents, got {entities!r}")
    live = alive[ids]
    if not live.all():
        dead = int(ids[~live][0])
        raise UsageError(f"agent {dead} does not exist (it was despawned or never spawned)")
    return ids, order


def _indexes(array: NDArray[np.integer], size: int) -> tuple[Indexes, Indexes | None]:
    if array.min() < 0 or array.max() >= size:  # two reductions: the common case is fine
        outside = array[(array < 0) | (array >= size)]
        raise UsageError(f"agent index {int(outside[0])} is out of range: the batch has {size}")
    ids = array.astype(np.intp)
    if ids.size < 2 or (ids[1:] > ids[:-1]).all():
        return ids, None
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    twice = ids[1:][ids[1:] == ids[:-1]]
    if twice.size:
        raise UsageError(
            f"agent {int(twice[0])} is named twice; to deliver an event twice, send it twice"
        )
    return ids, order


def agent_index(index: object, size: int, live: NDArray[Any]) -> int:
    """``index``, checked to name one agent of the ``size`` slots (``live``: nonzero for
    each slot holding an agent; read at ``index`` only).

    Raises:
        UsageError: it is no integer, out of range, or a free slot's.
    """
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise UsageError(f"an agent index must be an integer, got {index!r}")
    number = int(index)
    if not 0 <= number < size:
        raise UsageError(f"agent {index} does not exist (the batch has {size} slots)")
    if not live[number]:
        raise UsageError(f"agent {index} does not exist (it was despawned)")
    return number


def count_of(value: object, message: str) -> int:
    """``value`` as a count (an integer, NumPy's too; not a boolean), else a ``UsageError``
    with ``message`` and the value."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise UsageError(f"{message} (a whole number), got {value!r}")
    number = int(value)
    if number < 0:
        raise UsageError(f"{message}, got {number}")
    return number


def slot_range(start: object, stop: object, size: int, call: str) -> tuple[int, int]:
    """The slots ``start`` to ``stop - 1`` (``stop`` ``None``: to the end) of ``size``.

    Raises:
        UsageError: they are no range of the slots (``call`` names the call).
    """
    begin = count_of(start, f"{call}() needs a start of at least 0")
    end = size if stop is None else count_of(stop, f"{call}() needs a stop of at least 0")
    if begin > end:
        raise UsageError(f"{call}({start}, {stop}): the start is after the stop")
    if end > size:
        raise UsageError(f"{call}({start}, {stop}): the batch has {size} slots")
    return begin, end


_KEPT = 64
"""Event lists an :class:`Inputs` keeps (a host that builds new lists each frame)."""


class Inputs:
    """The inputs of the event lists a batch was given, kept: a frame's list is known."""

    def __init__(self) -> None:
        self._known: dict[
            tuple[Layout, tuple[Event, ...] | None, tuple[type, ...] | None],
            tuple[tuple[Event, ...], Indexes],
        ] = {}

    def of(
        self, layout: Layout, events: Iterable[Event], call: str
    ) -> tuple[tuple[Event, ...], Indexes]:
        """``events``, a list given to ``call``, as a tuple (it may be any iterable), and
        the input of each in ``layout``.

        Raises:
            UsageError: ``events`` is no list of events, or one is a level trigger or of an
                unknown kind.
        """
        # Lists are looked up; the events' types are in the key too, as a list of plain
        # pairs equals one of its events.
        given = tuple(events) if isinstance(events, (list, tuple)) else None
        key = (layout, given, None if given is None else tuple(map(type, given)))
        try:
            known = self._known.get(key)
        except TypeError:  # something unhashable: refused below
            known = None
        if known is not None:
            return known
        listed = require_events(events, call)
        compiled = layout.compiled
        for event in listed:
            if event.kind not in compiled.edge_kinds:
                check_kind(event, compiled.chart.registry, level=False)
        inputs = read_only(np.array([layout.input_of(event) for event in listed], np.intp))
        if len(self._known) >= _KEPT:
            self._known.clear()
        self._known[key] = (listed, inputs)
        return listed, inputs


def picks_of(
    choices: ArrayLike, count: int, call: str, order: Indexes | None = None
) -> NDArray[np.integer]:
    """``choices`` as one integer per agent (``count`` of them), for ``call``; given one
    per entity, put in the agents' ascending ``order`` (see ``select_ordered``).

    Raises:
        UsageError: ``choices`` are not ``count`` integers.
    """
    if choices is None:
        raise UsageError(
            f"{call}() needs its choices: one integer per agent ({count}), the index of each "
            "agent's event (negative: none)"
        )
    picks = np.asarray(choices).reshape(-1)
    if picks.size == 0:
        picks = picks.astype(np.intp)  # an empty list reads as floats
    if picks.size != count or picks.dtype.kind not in "iu":  # signed or unsigned
        raise UsageError(
            f"{call}() needs one integer choice per agent ({count}), "
            f"got {picks.size} of type {picks.dtype}"
        )
    return picks if order is None else picks[order]


def refuse(picks: NDArray[np.integer], ids: Indexes, mapping: Indexes, wrong: int) -> None:
    """Raise for the wrong choice at position ``wrong`` of ``picks`` (for agent
    ``ids[wrong]``; none when negative).

    Raises:
        UsageError: the choice names no event, or its agent does not exist.
    """
    if wrong < 0:
        return
    pick = int(picks[wrong])
    if pick >= mapping.size:
        raise UsageError(f"choice {pick} names no event: there are {mapping.size}")
    raise UsageError(f"agent {int(ids[wrong])} does not exist (it was despawned or never spawned)")


def level_values(event: Event, on: bool | ArrayLike, count: int) -> Bools:
    """``on``, given to ``set_levels()`` for ``event``, as ``count`` booleans, one per agent.

    Raises:
        UsageError: ``on`` is neither a boolean nor ``count`` of them.
    """
    values = np.asarray(on)
    if values.dtype != np.bool_ or values.ndim > 1 or values.size not in (1, count):
        raise UsageError(
            f"set_levels() needs a boolean, or one boolean per agent ({count}), for "
            f"{event}: got shape {values.shape} of type {values.dtype}"
        )
    if values.size == count:
        flags: Bools = values.reshape(-1)
        return flags
    return np.full(count, bool(values.reshape(-1)[0]))
