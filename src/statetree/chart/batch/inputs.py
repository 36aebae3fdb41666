"""Reading the ``events`` and ``choices`` arguments of batch calls: the input of each
event, and which event each agent gets."""

from __future__ import annotations

from collections.abc import Iterable

from numpy.typing import ArrayLike

from statetree.chart.batch.arrays import Indexes, NDArray, np, read_only
from statetree.chart.batch.layout import Layout
from statetree.chart.events import Event, check_kind
from statetree.chart.machine import require_events
from statetree.errors import UsageError

__all__ = ["Inputs", "picks_of", "refuse"]

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
