"""The mutable side of a chart machine: latched events, levels, history and timers.

A :class:`ChartRuntime` is the owner of every state of its machine, so states reach it as
``self.owner``. It holds everything that changes while the chart runs; the compiled chart
it refers to never changes.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from statetree.chart.action_calls import ActionCall, Handler
from statetree.chart.errors import HandlerError
from statetree.chart.events import Event

if TYPE_CHECKING:
    from statetree.chart.compile import CompiledChart
    from statetree.chart.states import ChartState

__all__ = ["ActionListener", "ChartRuntime", "Timer", "bind_handlers"]

ActionListener = Callable[[ActionCall], None]


COMPACT_AT = 8
"""Dead timers the heap may hold before it is rebuilt (when they are half of it or more)."""


class Timer:
    """A started timer: its event fires when the clock reaches ``due`` unless cancelled.

    Attributes:
        event: the event it fires.
        due: the clock reading it fires at.
        owner: the path of the state that started it (it dies with that state).
        alive: started and neither fired nor cancelled.
    """

    __slots__ = ("alive", "due", "event", "owner")

    def __init__(self, event: Event, due: float, owner: str = "") -> None:
        self.event = event
        self.due = due
        self.owner = owner
        self.alive = True


def bind_handlers(compiled: CompiledChart, handlers: Mapping[str, Handler]) -> list[Handler]:
    """The handler of each host action slot of ``compiled``.

    Raises:
        HandlerError: an action the chart uses has no handler (the message names the
            action and the states using it), or its handler is not callable.
    """
    if not isinstance(handlers, Mapping):
        raise HandlerError(
            f"handlers must be a mapping of action type to handler (a dict), got {handlers!r}"
        )
    missing = [name for name in compiled.host_actions if name not in handlers]
    if missing:
        lines = [f"{name} (used by {', '.join(compiled.action_users[name])})" for name in missing]
        raise HandlerError(
            f"chart {compiled.chart.name!r} needs a handler for each of its actions; "
            f"missing: {'; '.join(lines)}"
        )
    found = [handlers[name] for name in compiled.host_actions]
    for name, handler in zip(compiled.host_actions, found, strict=True):
        if not callable(handler):
            raise HandlerError(
                f"the handler of action {name!r} must be callable, got {handler!r} "
                f"({type(handler).__name__})"
            )
    return found


class ChartRuntime:
    """Latches, levels, history, timers and handlers of one running chart.

    Attributes:
        serial: the serial number of the last latched event (0: none yet).
        base: ``serial`` when the current processing started; only events latched after it
            count in this processing.
        edges: the index of each edge trigger's event (the compiled chart's ``edge_table``).
        latched: for each edge trigger, the serial of the last event that latched it.
        levels: for each level trigger, whether the host holds it on.
        live: the active instance of each state, by state index (``None``: inactive).
        history: for each state, the index of the child to resume.
        clock: the time, advanced only by ``tick``.
        timers: the heap of started timers, by expiry then start order; cancelled ones
            stay until they reach the top or the heap is rebuilt (see :meth:`cancel`).
        dead: how many timers of the heap are cancelled.
        calls: the action records handed to handlers and listeners, by performer index
            (the compiled chart's own, or the machine owner's copies of them).
    """

    __slots__ = (
        "base",
        "calls",
        "clock",
        "compiled",
        "dead",
        "edges",
        "handlers",
        "held",
        "history",
        "latched",
        "levels",
        "listener",
        "live",
        "processing",
        "sequence",
        "serial",
        "timers",
    )

    def __init__(
        self,
        compiled: CompiledChart,
        handlers: list[Handler],
        listener: ActionListener | None = None,
    ) -> None:
        self.serial = 0
        self.base = 0
        self.clock = 0.0
        self.sequence = 0
        self.processing = False
        self.listener = listener
        self.held: set[Event] = set()
        self.timers: list[tuple[float, int, Timer]] = []
        self.dead = 0
        self.compiled = compiled
        self.handlers = handlers
        self.calls = compiled.calls
        self.edges = compiled.edge_table
        self.latched = [0] * len(compiled.edges)
        self.levels = [False] * len(compiled.levels)
        self.live: list[ChartState | None] = [None] * len(compiled.classes)
        self.history = [0] * len(compiled.classes)

    def latch(self, event: Event) -> None:
        """Latch ``event``: give it the next serial number, and its trigger that number."""
        self.serial += 1
        index = self.edges.get(event)
        if index is not None:
            self.latched[index] = self.serial

    def set_level(self, event: Event, on: bool) -> None:
        """Hold the level trigger of ``event`` on, or release it."""
        if on:
            self.held.add(event)
        else:
            self.held.discard(event)
        index = self.compiled.levels.get(event)
        if index is not None:
            self.levels[index] = on

    def start_timer(self, owner: ChartState, event: Event, delay: float) -> None:
        """Start a timer owned by ``owner``; one it started with the same name restarts."""
        timers = owner.timers
        if timers is None:
            timers = owner.timers = []
        else:
            for index, running in enumerate(timers):
                if running.event == event:
                    self.cancel(running)
                    del timers[index]
                    break
        timer = Timer(event, self.clock + delay, owner._path)
        timers.append(timer)
        self.sequence += 1
        heapq.heappush(self.timers, (timer.due, self.sequence, timer))

    def cancel(self, timer: Timer) -> None:
        """Cancel ``timer`` (if it is alive); rebuild the heap once half of it is dead.

        So the heap holds at most twice the live timers (plus :data:`COMPACT_AT`), however
        often states that start timers are entered and exited.
        """
        if not timer.alive:
            return
        timer.alive = False
        self.dead += 1
        heap = self.timers
        if self.dead > COMPACT_AT and 2 * self.dead >= len(heap):
            live = [entry for entry in heap if entry[2].alive]
            heapq.heapify(live)
            self.timers = live
            self.dead = 0

    def due(self, until: float) -> Timer | None:
        """The earliest live timer due at or before ``until``, if any (not removed)."""
        heap = self.timers
        while heap:
            timer = heap[0][2]
            if timer.alive:
                return timer if timer.due <= until else None
            heapq.heappop(heap)
            self.dead -= 1
        return None

    def expire(self) -> Timer:
        """Remove the timer :meth:`due` returned, which fires now."""
        timer = heapq.heappop(self.timers)[2]
        timer.alive = False
        return timer
