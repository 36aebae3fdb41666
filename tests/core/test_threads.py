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
