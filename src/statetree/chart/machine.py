"""ChartMachine: a compiled chart running on a core ``StateMachine``.

Events enter at the root: ``send`` latches the event, then runs one
``process_state_transitions()``, which asks the outermost states first, so depth is an
implicit priority. Time only moves through ``tick``. Listeners see every event as it is
latched and every action as it is performed; a machine without listeners pays nothing for
them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, SupportsFloat, TypeVar

from statetree.chart.actions import ActionCall, Handler, owned_calls
from statetree.chart.compile import CompiledChart, compile_chart
from statetree.chart.events import Event, ScriptStep, check_kind, time_step
from statetree.chart.machine_snapshot import MachineSnapshot, restore_into, snapshot_of
from statetree.chart.model import Chart
from statetree.chart.placement import (
    RunningTimer,
    Situation,
    place,
    place_timers,
    running_timers,
    situation_of,
    vacate,
)
from statetree.chart.registry import EVENT, RAISE
from statetree.chart.rehearse import rehearse_reload
from statetree.chart.reload import Reloaded, reload_machine, take_chart
from statetree.chart.runtime import ActionListener, ChartRuntime, bind_handlers
from statetree.chart.saving import (
    blank_machine,
    chart_fingerprint,
    check_fingerprint,
    machine_state,
    set_machine_state,
)
from statetree.chart.states import ChartState
from statetree.chart.structure import compiled_structure
from statetree.core.loops import KEPT_CHANGES, loop_error
from statetree.core.machine import StateMachine
from statetree.core.options import DEFAULT_MAX_TRANSITIONS
from statetree.core.refs import Ref
from statetree.core.trace import TraceLevel
from statetree.errors import TransitionLoopError, UsageError, require_callable
from statetree.structure.model import Structure

__all__ = ["ChartMachine", "EventListener"]

_NO_HANDLERS: Mapping[str, Handler] = MappingProxyType({})

T = TypeVar("T")

EventListener = Callable[[Event], None]
"""Called with each event a chart machine latches."""


class ChartMachine:
    """Runs a chart: events in, actions out, on one core :class:`~statetree.StateMachine`.

    Args:
        chart: the chart, or a chart compiled once for many machines.
        handlers: the host's handler of each action type the chart uses (built-in
            actions excepted), called with an :class:`ActionCall`.
        name: the machine's name in traces (default: the chart's name).
        trace, trace_sink, max_transitions: as for ``StateMachine``.
        on_action: called with every action performed, built-ins included, before it is.
        owner: the object this machine acts for (an enemy, a door), handed to handlers and
            listeners as :attr:`ActionCall.owner`, so one handler can serve many machines.

    Raises:
        ChartError: ``chart`` is invalid.
        HandlerError: an action the chart uses has no handler.
    """

    __slots__ = (
        "_action_listeners",
        "_compiled",
        "_deferred",
        "_event_listeners",
        "_handlers",
        "_on_action",
        "_owner",
        "_runtime",
        "machine",
    )

    def __init__(
        self,
        chart: Chart | CompiledChart,
        handlers: Mapping[str, Handler] = _NO_HANDLERS,
        *,
        name: str | None = None,
        trace: TraceLevel = TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
        on_action: ActionListener | None = None,
        max_transitions: int = DEFAULT_MAX_TRANSITIONS,
        owner: Any = None,
    ) -> None:
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        name = compiled.chart.name if name is None else name
        self._setup(
            compiled,
            handlers,
            on_action=on_action,
            owner=owner,
            name=name,
            trace=trace,
            trace_sink=trace_sink,
            max_transitions=max_transitions,
        )

    def _setup(
        self,
        compiled: CompiledChart,
        handlers: Mapping[str, Handler],
        *,
        on_action: ActionListener | None,
        owner: Any,
        name: str,
        trace: TraceLevel,
        trace_sink: Callable[[str], None] | None,
        max_transitions: int,
    ) -> None:
        """Make this a new machine of ``compiled`` (what the constructor and a load do)."""
        if on_action is not None:
            require_callable(on_action, "on_action")
        self._compiled = compiled
        self._handlers = handlers
        self._on_action = on_action
        self._owner = owner
        self._action_listeners: tuple[ActionListener, ...] = ()
        self._event_listeners: tuple[EventListener, ...] = ()
        self._deferred: deque[Callable[[], None]] = deque()
        self._runtime = ChartRuntime(compiled, bind_handlers(compiled, handlers), on_action)
        self._runtime.calls = owned_calls(compiled.calls, owner)
        self.machine: StateMachine[ChartRuntime] = StateMachine(
            compiled.root,
            owner=self._runtime,
            name=name,
            trace=trace,
            trace_sink=trace_sink,
            max_transitions=max_transitions,
        )

    # -- inputs ----------------------------------------------------------------------------

    def start(self) -> None:
        """Enter the initial configuration, if the machine has not started yet.

        ``send``, ``tick``, ``hold`` and ``release`` start it first too (in a processing of
        its own), so the first event is seen by the states it finds entered.
        """
        deferred = self._deferred
        while deferred and not self._runtime.processing:
            deferred.popleft()()
        if not self.machine.started:
            self._process(None)

    def stop(self) -> None:
        """Exit every active state, innermost first, running their exit actions; their
        timers stop with them. Nothing happens if the machine has not started.

        The clock, the held levels and the histories stay: a later ``start`` (or ``send``,
        ``tick``...) enters the chart again as entering its root does, each history
        resuming its child. For a fresh start, make a new machine of the same chart.

        Raises:
            UsageError: called while the machine processes.
        """
        self._not_processing("stop")
        self.machine.stop()

    def send(self, event: Event | object) -> None:
        """Latch ``event`` and process transitions until the machine settles.

        Called from an action handler while the machine processes, the event is latched
        into the current processing instead (as the ``raise`` action does).

        Raises:
            UsageError: ``event`` is not an ``Event`` of two strings, or is of a level
                trigger type (use ``hold`` / ``release``) or of a kind the chart's registry
                does not have (a typo), or the machine exits states for a reload or
                ``stop`` (called from a handler of those exits: send after that call).
        """
        event = require_event(event, "send")
        if event.kind not in self._compiled.edge_kinds:
            check_kind(event, self.chart.registry, level=False)
        if self._runtime.processing:
            self._latch(event)
            return
        if self.machine._busy:  # a handler of a reload's exits: no processing to latch into
            raise UsageError(
                f"send({event}) called while chart {self.chart.name!r} exits states for a "
                "reload or stop(), outside any processing: send it after that call returns"
            )
        # The common case needs no start() (the stack itself: compiled, a C field).
        if self._deferred or not self.machine._stack:
            self.start()
        self._process(event)

    def hold(self, event: Event | object) -> None:
        """Hold a level trigger on (e.g. ``Event("held", "Jump")``), then process.

        Raises:
            UsageError: ``event`` is not an ``Event`` of a level trigger type.
        """
        self._level(require_event(event, "hold"), True)

    def release(self, event: Event | object) -> None:
        """Release a level trigger, then process.

        Raises:
            UsageError: ``event`` is not an ``Event`` of a level trigger type.
        """
        self._level(require_event(event, "release"), False)

    def set_levels(self, levels: Mapping[Event, bool]) -> None:
        """Hold or release several level triggers at once, then process once.

        Nothing happens when every level already reads as given; otherwise the machine
        starts first if it has not (as ``hold`` does), every level is set, and one
        processing sees them all.

        Raises:
            UsageError: ``levels`` is not a mapping, or one of its events is not an
                ``Event`` of a level trigger type (nothing changed).
        """
        runtime = self._runtime
        wanted = _levels(require_level_mapping(levels))
        for event in wanted:
            self._check_level(event)
        self._not_processing("set_levels")
        if all((event in runtime.held) == on for event, on in wanted.items()):
            return
        self.start()
        for event, on in wanted.items():
            runtime.set_level(event, on)
        self._process(None)

    def tick(self, dt: SupportsFloat) -> None:
        """Advance the clock by ``dt``; each timer due fires, in order, its own processing.

        Timers due in the same tick fire in expiry order, ties in the order they started;
        while a timer's event is processed the clock reads its expiry time, so timers
        started then count from that moment, whatever the size of the tick.

        One tick fires at most ``max_transitions`` timers: when one more is due, the tick
        raises before firing it, the clock reading the expiry of the last timer fired and
        that timer still started (see the chart reload guide for the exact rule).

        Raises:
            UsageError: ``dt`` is not a real number (an int, a float, a NumPy scalar...),
                or is negative, infinite or NaN, would take the clock past the largest
                float, or the machine is processing.
            TransitionLoopError: more than ``max_transitions`` timers fell due in this tick
                (timers restarting each other with a zero or tiny delay); it names the
                states whose timers kept firing.
        """
        runtime = self._runtime
        elapsed = time_step(dt, "tick", runtime.clock)
        self._not_processing("tick")
        self.start()
        end = runtime.clock + elapsed
        fired: list[str] = []  # the states whose timers fired, to name a loop
        timer = runtime.due(end)
        while timer is not None:
            if len(fired) == self.machine.max_transitions:
                kept = fired[-KEPT_CHANGES:]
                raise loop_error(self.machine.name, kept, len(fired), timers=True).in_chart()
            fired.append(timer.owner)
            runtime.expire()
            runtime.clock = timer.due
            self._process(timer.event)
            timer = runtime.due(end)
        runtime.clock = end

    def play(self, step: ScriptStep) -> None:
        """Do one step of an events script.

        Raises:
            UsageError: ``step`` is not a ``ScriptStep`` (see ``read_script``).
        """
        if not isinstance(step, ScriptStep):
            raise UsageError(f"play() takes a step of a script (see read_script); got {step!r}")
        if step.kind == "tick":
            self.tick(step.dt)
        elif step.event is not None:
            {"send": self.send, "hold": self.hold, "release": self.release}[step.kind](step.event)

    def defer(self, operation: Callable[[], None]) -> None:
        """Have the thread that drives this machine call ``operation`` at its next call of
        ``start``, ``send``, ``tick``, ``hold`` or ``release``, before anything else.

        That is a safe point for another thread's change (a reload, an event): the machine
        is then between two processings, on its own thread. ``operation`` must not raise.

        Raises:
            UsageError: ``operation`` is not callable.
        """
        require_callable(operation, "defer()'s operation")
        self._deferred.append(operation)

    # -- listeners -------------------------------------------------------------------------

    def add_event_listener(self, listener: EventListener) -> None:
        """Call ``listener`` with each event the machine latches, as it latches it.

        That is every event sent (``send``), fired by a timer (``tick``) or raised by one of
        the chart's own actions (``raise``, reported as that action performs it), before
        the transitions it may fire. Level triggers (``hold``, ``release``) are states of
        the host, not events: they are not reported.

        Raises:
            UsageError: ``listener`` is not callable.
        """
        require_callable(listener, "an event listener")
        self._event_listeners = (*self._event_listeners, listener)
        self._wire()

    def remove_event_listener(self, listener: EventListener) -> None:
        """Stop calling ``listener``.

        Raises:
            UsageError: ``listener`` was not added.
        """
        self._event_listeners = _without(self._event_listeners, listener, "an event")
        self._wire()

    def add_action_listener(self, listener: ActionListener) -> None:
        """Call ``listener`` with each action the machine performs, built-ins included, just
        before it is performed (after the ``on_action`` given to the constructor).

        Raises:
            UsageError: ``listener`` is not callable.
        """
        require_callable(listener, "an action listener")
        self._action_listeners = (*self._action_listeners, listener)
        self._wire()

    def remove_action_listener(self, listener: ActionListener) -> None:
        """Stop calling ``listener``.

        Raises:
            UsageError: ``listener`` was not added.
        """
        self._action_listeners = _without(self._action_listeners, listener, "an action")
        self._wire()

    def _wire(self) -> None:
        """Have actions announced to the listeners only while there are some."""
        listening = self._action_listeners or self._event_listeners
        self._runtime.listener = self._announce if listening else self._on_action

    def _announce(self, call: ActionCall) -> None:
        if self._on_action is not None:
            self._on_action(call)
        for listener in self._action_listeners:
            listener(call)
        # A raise outside a processing (the exits of stop() or a reload) latches into no
        # processing: no trigger will count it, so listeners are not told of it.
        if call.type == RAISE and self._runtime.processing:
            event = Event(EVENT, str(call.params["name"]))
            for event_listener in self._event_listeners:
                event_listener(event)

    def _latch(self, event: Event) -> None:
        self._runtime.latch(event)
        for listener in self._event_listeners:
            listener(event)

    # -- queries ---------------------------------------------------------------------------

    @property
    def chart(self) -> Chart:
        """The chart running now."""
        return self._compiled.chart

    @property
    def compiled(self) -> CompiledChart:
        """The compiled chart running now."""
        return self._compiled

    @property
    def structure(self) -> Structure:
        """The running chart's structure, with the generated classes (for plots, codecs)."""
        return compiled_structure(self._compiled)

    @property
    def name(self) -> str:
        """The machine's name in traces and errors (by default the chart's name)."""
        return self.machine.name

    @property
    def owner(self) -> Any:
        """The object this machine acts for (``None`` if it was given none); set it to
        hand the machine to another object (a pooled enemy respawning as a new one)."""
        return self._owner

    @owner.setter
    def owner(self, owner: Any) -> None:
        self._owner = owner
        self._runtime.calls = owned_calls(self._compiled.calls, owner)

    @property
    def clock(self) -> float:
        """The time, as advanced by ``tick``."""
        return self._runtime.clock

    @property
    def active(self) -> tuple[str, ...]:
        """The paths of the active states, in processing order (regions after their host)."""
        return tuple(type(state).__qualname__ for state in self.machine.walk())

    def is_active(self, path: str) -> bool:
        """Whether the state at ``path`` is active.

        Raises:
            UsageError: the chart has no state at ``path``.
        """
        return self._runtime.live[self._class(path)._id] is not None

    def _class(self, path: object) -> type[ChartState]:
        cls = self._compiled.by_path.get(path) if isinstance(path, str) else None
        if cls is None:
            raise self._compiled.no_state(path)
        return cls

    # -- changes ---------------------------------------------------------------------------

    def reload(self, chart: Chart | CompiledChart) -> Reloaded:
        """Run ``chart`` from now on, keeping every active state that is still the same.

        Active states that vanished, or whose policy or enter actions changed, are exited
        (each with the states inside it, innermost first, running the old exit actions);
        the others keep their instance, timers and history and take the new definition.
        Then the machine processes, entering what is missing: a machine that has not
        started, or was stopped, starts on the new chart there.

        A reload that fails changes nothing: the new chart is checked, then the whole
        reload is rehearsed on a copy of the machine (host actions not performed), and only
        if that copy settles does the machine itself reload. Should a handler raise during
        the reload itself, the machine is put back as it was, running nothing, and the
        error propagates.

        Raises:
            ChartError: ``chart`` is invalid; nothing changed.
            HandlerError: a new action has no handler; nothing changed.
            TransitionLoopError: the reloaded machine would not settle; nothing changed.
            UsageError: called while the machine processes; nothing changed.
        """
        self._not_processing("reload")
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        handlers = bind_handlers(compiled, self._handlers)
        rehearse_reload(self.machine, compiled)
        runtime = self._runtime
        placed = (situation_of(self), running_timers(self), runtime.clock)
        before = (self._compiled, runtime.handlers, runtime.calls, placed)
        try:
            report = reload_machine(self.machine, runtime, compiled, handlers)
            runtime.calls = owned_calls(compiled.calls, self._owner)
            self._compiled = compiled
            instances = [self.state(path) for path in report.kept]
            self._process(None)
        except BaseException:
            self._put_back(*before)
            raise
        # Kept: still the same instance. One the processing left (or left and entered again)
        # was exited, after the reload's own exits.
        kept = tuple(
            path
            for path, state in zip(report.kept, instances, strict=True)
            if self.state(path) is state
        )
        gone = tuple(path for path in report.kept if path not in kept)
        entered = tuple(path for path in self.active if path not in kept)
        return Reloaded(kept, (*report.exited, *gone), entered)

    def _put_back(
        self,
        compiled: CompiledChart,
        handlers: list[Handler],
        calls: tuple[ActionCall, ...],
        placed: tuple[Situation, tuple[RunningTimer, ...], float],
    ) -> None:
        """Undo a reload that raised part way: the old chart, and the machine as it was."""
        situation, timers, clock = placed
        vacate(self)
        take_chart(self.machine, self._runtime, compiled, handlers)
        self._runtime.calls = calls
        self._compiled = compiled
        place(self, situation)
        place_timers(self, timers)
        self._runtime.clock = clock

    # -- processing ------------------------------------------------------------------------

    def _level(self, event: Event, on: bool) -> None:
        self._check_level(event)
        self._not_processing("hold" if on else "release")
        self.start()
        self._runtime.set_level(event, on)
        self._process(None)

    def _check_level(self, event: Event) -> None:
        require_level(event, "hold", self._compiled)

    def _process(self, event: Event | None) -> None:
        """One processing: a new base serial, ``event`` latched, transitions settled.

        An event listener that raises on ``event`` does not lose it: the processing runs,
        then the listener's exception propagates (a timer's event is not lost either).
        """
        runtime = self._runtime
        runtime.base = runtime.serial
        runtime.processing = True  # its event's listeners run inside the processing
        heard: BaseException | None = None
        try:
            if event is not None:
                runtime.latch(event)
                for listener in self._event_listeners:
                    try:
                        listener(event)
                    except BaseException as error:
                        heard = heard or error
            try:
                self.machine.process_state_transitions()
            except TransitionLoopError as error:
                if error.chart:
                    raise
                raise error.in_chart() from None  # the same loop, in a chart's words
        finally:
            runtime.processing = False
        if heard is not None:
            raise heard

    def _not_processing(self, call: str) -> None:
        if self._in_call():
            raise UsageError(f"{call}() called while chart {self.chart.name!r} processes")

    def _in_call(self) -> bool:
        """Whether the machine processes, or changes states outside a processing (the
        exits of a reload): one of its handlers or listeners runs."""
        return self._runtime.processing or bool(self.machine._busy)

    def state(self, path: str) -> ChartState | None:
        """The active instance of the state at ``path``, or ``None`` while it is inactive.

        Raises:
            UsageError: the chart has no state at ``path`` (a typo is not an inactive state).
        """
        return self._runtime.live[self._class(path)._id]

    # -- snapshots and saves (see statetree.chart.saving) ----------------------------------

    def snapshot(self) -> MachineSnapshot:
        """Everything about the machine now: ``restore`` puts a new machine of the same
        chart there, in this process or another (from the snapshot or from its bytes).

        Raises:
            UsageError: the machine is processing.
        """
        self._not_processing("snapshot")
        return snapshot_of(self, chart_fingerprint(self._compiled))

    def restore(self, snapshot: MachineSnapshot) -> None:
        """Put this machine where ``snapshot`` was taken (from a machine of the same chart),
        started or not: its states, history, held levels, clock and timers become the
        snapshot's. No action, handler or listener runs, and nothing is traced, while it is
        put there: a started machine's states leave as quietly (a rollback rewinds with
        this, a save game loads with it).

        Raises:
            DecodeError: the snapshot is of another chart, or names a configuration the
                chart does not allow; the machine did not change.
            UsageError: the machine is processing (a reload's exits included), or
                ``snapshot`` is no snapshot.
        """
        if not isinstance(snapshot, MachineSnapshot):
            hint = (
                ": read bytes with MachineSnapshot.from_bytes(data) first"
                if isinstance(snapshot, (bytes, bytearray, memoryview))
                else ""
            )
            raise UsageError(
                f"restore() takes a MachineSnapshot, got {type(snapshot).__name__}{hint}"
            )
        self._not_processing("restore")
        check_fingerprint(self._compiled, snapshot.chart)
        restore_into(self, snapshot)

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its chart, its snapshot and its settings; ``copy.copy`` gives a machine
        of its own sharing the owner and handlers.

        Raises:
            SaveError: the machine is processing.
        """
        return (blank_machine, (Ref(type(self)), self._compiled), machine_state(self))

    def __setstate__(self, saved: dict[str, Any]) -> None:
        set_machine_state(self, saved)


def require_event(event: object, call: str) -> Event:
    """``event``, known to be an ``Event`` of two strings.

    Raises:
        UsageError: it is not (``call`` names the call it was given to).
    """
    # By field name: compiled, indexing a tuple subclass goes through __getitem__ as a
    # method, where reading a field is one C call.
    if isinstance(event, Event):
        kind, name = event.kind, event.name
        if type(kind) is str and type(name) is str:
            return event
        if isinstance(kind, str) and isinstance(name, str):
            # Subclasses (a StrEnum member, say) become plain strings: their own hash and
            # == would run inside the processing, where raising loses the event.
            return Event(str.__str__(kind), str.__str__(name))
    raise UsageError(
        f"{call}() takes an Event(kind, name) of two strings, such as Event('input', 'Jump'); "
        f"got {event!r}"
    )


def require_level(event: object, call: str, compiled: CompiledChart) -> Event:
    """``event``, known to be an ``Event`` of a level trigger of ``compiled``'s registry
    (every engine's rule for ``hold``, ``release`` and ``set_levels``).

    Raises:
        UsageError: it is not (``call`` names the call it was given to).
    """
    found = require_event(event, call)
    if found.kind not in compiled.level_kinds:
        check_kind(found, compiled.chart.registry, level=True)
    return found


def require_level_mapping(levels: object) -> Mapping[Any, Any]:
    """``levels``, given to ``set_levels()`` (of any engine), known to be a mapping.

    Raises:
        UsageError: it is not.
    """
    if not isinstance(levels, Mapping):
        raise UsageError(
            "set_levels() takes a mapping of level events to true or false, such as "
            f"{{Event('held', 'Jump'): True}}; got {levels!r}"
        )
    return levels


def require_events(events: object, call: str) -> tuple[Event, ...]:
    """``events``, known to be a list of events (not one event, nor a string).

    Raises:
        UsageError: it is not (``call`` names the call it was given to).
    """
    listed = tuple(events) if isinstance(events, Iterable) else None
    # One event is a pair of strings itself: refused, as a plain pair or a string.
    if listed is None or isinstance(events, str) or _is_pair(listed):
        raise UsageError(
            f"{call}() takes a list of events, such as [Event('input', 'Jump')], got {events!r}"
        )
    return tuple(require_event(event, call) for event in listed)


def _is_pair(value: tuple[object, ...]) -> bool:
    return len(value) == 2 and all(isinstance(part, str) for part in value)


def _levels(levels: Mapping[Any, Any]) -> dict[Event, bool]:
    """The events of ``levels``, each ``True`` or ``False`` (NumPy's booleans too; a number
    or a string is refused, as a batch refuses it: ``"no"`` would read as true).

    Raises:
        UsageError: a key is not an ``Event``, or a value is not a boolean.
    """
    wanted: dict[Event, bool] = {}
    for key, on in levels.items():
        event = require_event(key, "set_levels")
        if not (isinstance(on, bool) or _array_boolean(on)):
            raise UsageError(f"set_levels(): {event} must be true or false; got {on!r}")
        wanted[event] = bool(on)
    return wanted


def _array_boolean(value: object) -> bool:
    """Whether ``value`` is one boolean of an array library (NumPy's ``True_``, a 0-d
    array): no ``bool`` subclass, and the chart runtime imports no NumPy."""
    try:
        kind = getattr(getattr(value, "dtype", None), "kind", None)
        return bool(kind == "b" and getattr(value, "shape", 0) == ())
    except Exception:  # an object whose comparison raises is no boolean
        return False


def _without(listeners: tuple[T, ...], listener: T, kind: str) -> tuple[T, ...]:
    """``listeners`` without one ``listener``; raises ``UsageError`` if it is not there."""
    if listener not in listeners:
        raise UsageError(f"{listener!r} is not {kind} listener of this chart machine")
    remaining = list(listeners)
    remaining.remove(listener)
    return tuple(remaining)
