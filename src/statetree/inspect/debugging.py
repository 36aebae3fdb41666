"""Debugging on the hub: breakpoints, and time travel through a machine's recent steps.

:class:`Debugging` is a part of :class:`~statetree.inspect.hub.Hub`; :class:`Entry` is what
the hub knows of one machine.
"""

from __future__ import annotations

from collections.abc import Callable

from statetree.inspect.adapters import (
    CountsAgents,
    DiagramView,
    Event,
    InspectError,
    ReceivesEvents,
    Sample,
    ShowsValues,
    Value,
    WatchedMachine,
)
from statetree.inspect.gate import Gate
from statetree.inspect.trail import Trail, Travelled

__all__ = ["Breakpoint", "Debugging", "Entry", "breakpoint_of"]


Breakpoint = tuple[str, str]
"""Where the program pauses: ``enter``, ``exit`` or ``event``, then a state or an event
(``"input Jump"``)."""


class Entry:
    """One watched machine and what the hub knows of it."""

    __slots__ = (
        "active",
        "adapter",
        "breaks",
        "dirty",
        "id",
        "moved",
        "packet",
        "recheck",
        "sampled",
        "samples",
        "trail",
        "values",
        "watchers",
    )

    def __init__(self, machine_id: str, adapter: WatchedMachine) -> None:
        self.id = machine_id
        self.adapter = adapter
        self.watchers = 0
        self.dirty = False
        self.recheck = False
        self.moved = False
        """Changed since the last frame began (read and reset on the program's thread)."""
        self.active: tuple[str, ...] | None = None
        self.packet: tuple[int, bytes] | None = None
        self.breaks: frozenset[Breakpoint] = frozenset()
        self.trail = Trail()
        self.values: Callable[[], tuple[Value, ...]] | None = (
            adapter.values if isinstance(adapter, ShowsValues) else None
        )
        self.samples: Callable[[int], tuple[Sample, ...]] | None = (
            adapter.samples if isinstance(adapter, CountsAgents) else None
        )
        self.sampled = -1
        """The frame of the last sample of a population sent to the pages."""


def breakpoint_of(event: Event) -> Breakpoint | None:
    """The breakpoint a timeline line would hit."""
    if event.category in ("enter", "exit"):
        return (event.category, event.state)
    if event.category == "event":
        return ("event", f"{event.label} {event.detail}")
    return None


class Debugging:
    """The hub's breakpoints and time travel (a part of :class:`Hub`)."""

    gate: Gate
    _entry: Callable[[str], Entry]

    def set_breakpoint(self, machine_id: str, on: str, target: str, enabled: bool) -> None:
        """Pause the program when the machine enters or exits a state, or gets an event.

        Args:
            machine_id: a watched machine.
            on: ``enter``, ``exit`` or ``event``.
            target: a state of the machine's view, or an event as ``"TYPE NAME"``.
            enabled: set (True) or clear (False) the breakpoint.

        Raises:
            InspectError: the machine is not watched, the state is unknown, the machine
                gets no events or is a population (a batch), or the program cannot be
                paused.
        """
        entry = self._entry(machine_id)
        if enabled:
            self._check_breakpoint(entry, on, target)
            entry.breaks = entry.breaks | {(on, target)}
        else:
            entry.breaks = entry.breaks - {(on, target)}

    def _check_breakpoint(self, entry: Entry, on: str, target: str) -> None:
        if not self.gate.driven:
            raise InspectError(
                "breakpoints pause the program: its loop must call Inspector.frame() "
                "before each frame"
            )
        if not entry.watchers:
            raise InspectError(f"watch machine {entry.id!r} before setting breakpoints on it")
        if on == "event":
            if not isinstance(entry.adapter, ReceivesEvents):
                raise InspectError(f"machine {entry.id!r} gets no events to stop at")
            kinds = dict.fromkeys(trigger.type for trigger in entry.adapter.palette())
            kind, _, name = target.partition(" ")
            if kind not in kinds or not name or name != name.strip() or " " in name:
                raise InspectError(
                    f"an event breakpoint is 'TYPE NAME', TYPE one of the event types machine "
                    f"{entry.id!r} responds to ({', '.join(kinds) or 'none'}); got {target!r}"
                )
            return
        if isinstance(entry.adapter, CountsAgents):  # counted each frame: no agent's steps
            raise InspectError(
                f"machine {entry.id!r} is a population: its agents' entries and exits are "
                "not followed one by one; watch one of its agents and set the breakpoint there"
            )
        if target not in _state_names(entry.adapter):
            raise InspectError(f"machine {entry.id!r} has no state {target!r}")

    def breakpoints(self, machine_id: str) -> list[Breakpoint]:
        """The machine's breakpoints, sorted."""
        return sorted(self._entry(machine_id).breaks)

    def travel(self, machine_id: str, seq: int) -> Travelled:
        """The machine as it was just after its timeline row ``seq``.

        Raises:
            InspectError: no such machine, or the row is not in its history.
        """
        entry = self._entry(machine_id)
        if not entry.watchers:
            raise InspectError(f"machine {machine_id!r} is not watched: it has no history")
        return entry.trail.at(seq)


def _state_names(adapter: WatchedMachine) -> tuple[str, ...]:
    view = adapter.view()
    if isinstance(view, DiagramView):
        return view.structure.names
    return tuple(flag.name for flag in view.flags)
