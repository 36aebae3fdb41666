"""Event and action listeners of chart machines: what they see, in which order, and that
they cost nothing once removed."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    Chart,
    ChartMachine,
    Event,
    HandlerError,
    Param,
)
from statetree.chart import builder as b
from statetree.errors import DefinitionError, UsageError

_PING = DEFAULT_REGISTRY.with_actions(ActionType("ping"))
GO = Event("input", "Go")


def relay_chart() -> Chart:
    """Top{Idle -(input Go)-> Armed -(timer Fuse)-> Firing -(event Fired)-> Idle}: Armed
    starts the fuse, Firing pings the host and raises Fired."""
    return b.chart(
        "Relay",
        b.state(
            "Top",
            b.state("Idle", transitions=[b.on(b.input("Go"), "Armed")]),
            b.state(
                "Armed",
                enter=[b.start_timer("Fuse", 1.0)],
                transitions=[b.on(b.timer("Fuse"), "Firing")],
            ),
            b.state(
                "Firing",
                enter=[b.action("ping"), b.raise_event("Fired")],
                transitions=[b.on(b.event("Fired"), "Idle")],
            ),
        ),
        registry=_PING,
    )


class Log:
    """Everything the listeners and the handler see, as lines, in order."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def event(self, event: Event) -> None:
        self.lines.append(f"event {event}")

    def action(self, call: ActionCall) -> None:
        self.lines.append(f"action {call}")

    def on_action(self, call: ActionCall) -> None:
        self.lines.append(f"on_action {call.type}")

    def ping(self, call: ActionCall) -> None:
        self.lines.append("ping handled")


def test_events_sent_fired_and_raised_are_seen_as_they_are_latched() -> None:
    log = Log()
    machine = ChartMachine(relay_chart(), {"ping": lambda call: None})
    machine.start()
    machine.add_event_listener(log.event)

    machine.send(GO)
    machine.tick(1.5)
    machine.hold(Event("held", "Nothing"))  # a level trigger is not an event

    assert log.lines == ["event input Go", "event timer Fuse", "event event Fired"]
    assert machine.active == ("Top", "Top.Idle")


class Deaf(Exception):
    pass


def test_an_event_listener_that_raises_loses_no_event_sent_or_fired() -> None:
    heard: list[str] = []

    def deaf(event: Event) -> None:
        heard.append(str(event))
        if event.kind != "event":
            raise Deaf(str(event))

    machine = ChartMachine(relay_chart(), {"ping": lambda call: None})
    machine.start()
    machine.add_event_listener(deaf)
    with pytest.raises(Deaf, match="input Go"):
        machine.send(GO)
    assert machine.active == ("Top", "Top.Armed")  # Go was processed all the same
    with pytest.raises(Deaf, match="timer Fuse"):
        machine.tick(1.5)
    # The fuse fired and its processing ran (Firing raised Fired, back to Idle); the
    # listener's error came out of the tick at the fuse's expiry.
    assert (machine.active, machine.clock) == (("Top", "Top.Idle"), 1.0)
    assert heard == ["input Go", "timer Fuse", "event Fired"]


def test_a_raise_among_the_exits_of_stop_is_told_to_no_listener() -> None:
    bye = b.chart(
        "Bye",
        b.state("Top", b.state("A", exit=[b.raise_event("Bye")]), exit=[b.raise_event("Bye")]),
    )
    heard: list[Event] = []
    machine = ChartMachine(bye)
    machine.start()
    machine.add_event_listener(heard.append)
    machine.stop()  # outside any processing: no trigger could count it
    assert (heard, machine.active) == ([], ())


def test_event_fields_of_str_subclasses_become_plain_strings() -> None:
    class Kind(str):
        def __hash__(self) -> int:
            raise TypeError("no hash")

    machine = ChartMachine(relay_chart(), {"ping": lambda call: None})
    heard: list[Event] = []
    machine.add_event_listener(heard.append)
    machine.send(Event(Kind("input"), "Go"))
    assert machine.active == ("Top", "Top.Armed")
    assert [type(part) for part in heard[0]] == [str, str]


def test_action_listeners_follow_on_action_and_precede_the_action() -> None:
    log = Log()
    machine = ChartMachine(relay_chart(), {"ping": log.ping}, on_action=log.on_action)
    machine.add_action_listener(log.action)
    machine.add_event_listener(log.event)

    machine.send(GO)
    machine.tick(1.0)

    assert log.lines == [
        "event input Go",
        "on_action start_timer",
        "action enter Top.Armed: start_timer(name='Fuse', delay=1.0)",
        "event timer Fuse",
        "on_action ping",
        "action enter Top.Firing: ping()",
        "ping handled",
        "on_action raise",
        "action enter Top.Firing: raise(name='Fired')",
        "event event Fired",
    ]


def test_an_event_sent_by_a_handler_is_seen_once() -> None:
    seen: list[Event] = []
    machine = ChartMachine(relay_chart(), {"ping": lambda call: machine.send(GO)})
    machine.add_event_listener(seen.append)

    machine.send(GO)
    machine.tick(1.0)

    assert seen == [GO, Event("timer", "Fuse"), GO, Event("event", "Fired")]


def test_removed_listeners_see_nothing_and_the_runtime_slot_is_restored() -> None:
    log = Log()
    machine = ChartMachine(relay_chart(), {"ping": log.ping}, on_action=log.on_action)
    runtime = machine.machine.owner
    machine.add_event_listener(log.event)
    machine.add_action_listener(log.action)
    machine.add_action_listener(log.action)  # twice: called twice, removed one at a time
    machine.send(GO)
    assert log.lines == [
        "event input Go",
        "on_action start_timer",
        "action enter Top.Armed: start_timer(name='Fuse', delay=1.0)",
        "action enter Top.Armed: start_timer(name='Fuse', delay=1.0)",
    ]

    machine.remove_action_listener(log.action)
    machine.remove_action_listener(log.action)
    machine.remove_event_listener(log.event)
    log.lines.clear()
    machine.tick(1.0)

    assert log.lines == ["on_action ping", "ping handled", "on_action raise"]
    assert runtime.listener == log.on_action
    bare = ChartMachine(relay_chart(), {"ping": log.ping})
    bare.add_event_listener(log.event)
    bare.remove_event_listener(log.event)
    assert bare.machine.owner.listener is None


def test_removing_a_listener_never_added_is_refused() -> None:
    machine = ChartMachine(relay_chart(), {"ping": print})

    with pytest.raises(UsageError) as caught:
        machine.remove_event_listener(print)
    assert str(caught.value) == (
        "<built-in function print> is not an event listener of this chart machine"
    )
    with pytest.raises(UsageError, match="is not an action listener of this chart machine"):
        machine.remove_action_listener(print)


def test_what_must_be_callable_is_refused_when_given_and_changes_nothing() -> None:
    machine = ChartMachine(relay_chart(), {"ping": print})
    machine.start()
    machine.send(GO)

    for add, role in (
        (machine.add_event_listener, "an event listener"),
        (machine.add_action_listener, "an action listener"),
        (machine.defer, "defer()'s operation"),
    ):
        with pytest.raises(UsageError) as caught:
            add(5)  # type: ignore[arg-type]
        assert str(caught.value) == f"{role} must be callable, got 5 (int)"
    machine.tick(1.0)  # nothing was added: the fuse fires, pings and settles in Idle

    assert machine.active == ("Top", "Top.Idle")
    with pytest.raises(HandlerError) as refused:
        ChartMachine(relay_chart(), {"ping": 5})  # type: ignore[dict-item]
    assert str(refused.value) == "the handler of action 'ping' must be callable, got 5 (int)"
    with pytest.raises(UsageError) as caught:
        ChartMachine(relay_chart(), {"ping": print}, on_action="log")  # type: ignore[arg-type]
    assert str(caught.value) == "on_action must be callable, got 'log' (str)"


def test_handlers_that_are_no_mapping_are_refused() -> None:
    with pytest.raises(HandlerError) as refused:
        ChartMachine(relay_chart(), None)  # type: ignore[arg-type]
    assert str(refused.value) == (
        "handlers must be a mapping of action type to handler (a dict), got None"
    )


@pytest.mark.parametrize(
    ("param", "message"),
    [
        (lambda: Param("n", int, "abc"), "parameter 'n': the default must be an integer, got"),
        (lambda: Param("s", str, 5), "parameter 's': the default must be a string, got 5"),
        (lambda: Param("x", float, math.inf), "parameter 'x': the default must be a finite"),
    ],
)
def test_a_parameter_whose_default_does_not_fit_is_refused_when_declared(
    param: Callable[[], Param], message: str
) -> None:
    with pytest.raises(DefinitionError) as refused:
        param()
    assert str(refused.value).startswith(message)
