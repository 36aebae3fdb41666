"""A machine driven by one thread while tools on other threads observe it.

The inspector's server attaches and removes listeners from its own thread while the game
processes; a second thread that tries to drive the same machine is told so.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

import pytest

import statetree as st

TIMEOUT = 10.0  # seconds; a hang fails the test instead of the run


class Switch:
    def __init__(self) -> None:
        self.on = False
        self.entered = 0
        self.exited = 0


class Counted(st.State[Switch]):
    def on_enter(self) -> None:
        self.owner.entered += 1

    def on_exit(self) -> None:
        self.owner.exited += 1


class Off(Counted):
    def transition(self) -> st.Transition | None:
        return st.sibling(On) if self.owner.on else None


class On(Counted):
    def transition(self) -> st.Transition | None:
        return None if self.owner.on else st.sibling(Off)


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Switch threads as often as CPython allows, so that races show up."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def test_listeners_change_on_another_thread_while_the_machine_processes(
    busy_switching: None,
) -> None:
    switch = Switch()
    machine = st.StateMachine(Off, switch, name="lamp")
    machine.process_state_transitions()
    seen: list[st.Step] = []
    stop = threading.Event()

    def attach_and_detach() -> None:
        while not stop.is_set():
            machine.add_listener(seen.append)
            machine.remove_listener(seen.append)

    tool = threading.Thread(target=attach_and_detach)
    tool.start()
    try:
        for _ in range(20_000):
            switch.on = not switch.on
            machine.process_state_transitions()
    finally:
        stop.set()
        tool.join(TIMEOUT)
    assert not tool.is_alive()
    # Every toggle was one whole transition: one exit and one enter, nothing half done.
    assert (switch.entered, switch.exited) == (20_001, 20_000)
    assert [type(s) for s in machine.stack] == [Off]
    assert all(step.machine == "lamp" and step.state in (Off, On) for step in seen)


def test_a_second_thread_driving_the_machine_is_told_so() -> None:
    inside = threading.Event()
    release = threading.Event()

    class Slow(st.State[None]):
        def on_enter(self) -> None:
            inside.set()
            release.wait(TIMEOUT)

    machine = st.StateMachine(Slow, name="npc")
    worker = threading.Thread(target=machine.process_state_transitions)
    worker.start()
    try:
        assert inside.wait(TIMEOUT)
        with pytest.raises(st.UsageError) as caught:
            machine.process_state_transitions()
    finally:
        release.set()
        worker.join(TIMEOUT)
    message = str(caught.value)
    assert message.startswith(
        f"process_state_transitions() called on machine 'npc' from thread "
        f"{threading.get_ident()} while thread {worker.ident} is processing it; "
    )
    assert "a machine must be driven from one thread at a time" in message
    assert [type(s) for s in machine.stack] == [Slow]


def test_the_same_thread_from_a_hook_gets_the_hook_message() -> None:
    class Meddling(st.State[None]):
        def on_enter(self) -> None:
            self.machine.update_states()

    machine = st.StateMachine(Meddling, name="npc")
    with pytest.raises(st.UsageError, match="while it is already running one of its states"):
        machine.process_state_transitions()


@pytest.mark.parametrize("driving", ["process_state_transitions", "update_states"])
def test_an_event_posted_from_another_thread_while_the_machine_runs_is_refused(
    driving: str,
) -> None:
    inside = threading.Event()
    release = threading.Event()

    class Waiting(st.State[None]):
        def transition(self) -> st.Transition | None:
            if self.machine.events:  # the second processing: the worker waits in it
                inside.set()
                release.wait(TIMEOUT)
            return None

        def update(self) -> None:
            inside.set()
            release.wait(TIMEOUT)

    machine = st.StateMachine(Waiting, name="npc")
    machine.process_state_transitions()
    machine.post("go")
    worker = threading.Thread(target=getattr(machine, driving))
    worker.start()
    try:
        assert inside.wait(TIMEOUT)
        pending = machine.events
        with pytest.raises(st.UsageError) as caught:
            machine.post("late")
        assert machine.events == pending  # nothing was posted
    finally:
        release.set()
        worker.join(TIMEOUT)
    assert not worker.is_alive()
    assert str(caught.value).startswith(
        f"post() called on machine 'npc' from thread {threading.get_ident()} while thread "
        f"{worker.ident} is processing it; "
    )
    assert "late" not in machine.events


def test_an_idle_machine_takes_events_from_any_thread() -> None:
    machine = st.StateMachine(Off, Switch(), name="lamp")
    machine.process_state_transitions()
    poster = threading.Thread(target=machine.post, args=("on",))
    poster.start()
    poster.join(TIMEOUT)
    assert machine.events == ("on",)
