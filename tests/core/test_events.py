"""One-shot events: posted to a machine, seen by the next processing, gone at its end."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as hs

import statetree as st


class Button(enum.Enum):
    JUMP = 1
    DUCK = 2


@dataclass(frozen=True)
class Hit:
    damage: int


class Peek(st.State[list[str]]):
    """Moves on ``Button.JUMP`` without taking it."""

    def transition(self) -> st.Transition | None:
        return st.sibling(Jumped) if self.received(Button.JUMP) else None


class Jumped(st.State[list[str]]):
    pass


def traced(initial: type[st.State[list[str]]]) -> tuple[st.StateMachine[list[str]], list[str]]:
    lines: list[str] = []
    machine = st.StateMachine(
        initial, [], name="M", trace=st.TraceLevel.BASIC, trace_sink=lines.append
    )
    machine.process_state_transitions()
    lines.clear()
    return machine, lines


def test_an_event_is_seen_by_the_next_processing_and_discarded_at_its_end() -> None:
    machine, lines = traced(Peek)
    machine.post(Button.JUMP)
    assert machine.events == (Button.JUMP,)
    assert lines == []  # posting does not process
    machine.process_state_transitions()
    assert lines == ["HSM_1_M: Sibling : Jumped"]
    assert machine.events == ()


def test_an_event_nobody_handles_is_discarded_too() -> None:
    machine, lines = traced(Peek)
    machine.post(Button.DUCK)
    machine.process_state_transitions()
    assert machine.events == () and lines == []
    machine.process_state_transitions()  # the next frame does not see it again
    assert lines == []


class Ping(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        return st.sibling(Pong) if self.take("go") else None


class Pong(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        return st.sibling(Ping) if self.take("go") else None


class PeekPing(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        return st.sibling(PeekPong) if self.received("go") else None


class PeekPong(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        return st.sibling(PeekPing) if self.received("go") else None


def test_a_taken_event_moves_one_state_and_no_other() -> None:
    machine, lines = traced(Ping)
    machine.post("go")
    machine.process_state_transitions()
    assert lines == ["HSM_1_M: Sibling : Pong"]  # Pong, entered after, does not see it
    machine.post("go")
    machine.post("go")
    machine.process_state_transitions()
    assert lines[1:] == ["HSM_1_M: Sibling : Ping", "HSM_1_M: Sibling : Pong"]


def test_an_event_only_looked_at_can_move_states_forever() -> None:
    machine, _ = traced(PeekPing)
    machine.post("go")
    with pytest.raises(st.TransitionLoopError):
        machine.process_state_transitions()
    assert machine.events == ()  # discarded however the processing ended


class Alive(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        if self.received("died"):
            return st.sibling(Dead)
        return st.inner_entry(Idle)


class Dead(st.State[list[str]]):
    pass


class Idle(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        hit = self.take(Hit)
        return st.sibling(Reel, hit.damage) if hit is not None else None


class Reel(st.State[list[str]]):
    def on_enter(self, damage: int) -> None:
        self.owner.append(f"reel {damage}")
        if damage >= 10:
            self.machine.post("died")  # a hook's event joins the current processing

    def update(self, dt: float) -> None:
        self.machine.post("recovered")  # an update's event waits for the next processing

    def transition(self) -> st.Transition | None:
        return st.sibling(Idle) if self.take("recovered") else None


def test_an_event_posted_by_a_hook_is_seen_in_the_same_processing() -> None:
    machine, lines = traced(Alive)
    machine.post(Hit(12))
    machine.process_state_transitions()
    assert lines == [
        "HSM_1_M:  Sibling : Reel",
        "HSM_1_M: Sibling : Dead",  # the outer state saw "died" in the next pass
    ]
    assert machine.owner == ["reel 12"] and machine.events == ()


def test_an_event_posted_during_updates_waits_for_the_next_processing() -> None:
    machine, lines = traced(Alive)
    machine.post(Hit(3))
    machine.process_state_transitions()
    machine.update_states(0.1)
    assert machine.events == ("recovered",)
    machine.process_state_transitions()
    assert lines == ["HSM_1_M:  Sibling : Reel", "HSM_1_M:  Sibling : Idle"]


def test_events_match_a_class_by_instance_and_anything_else_by_equality() -> None:
    machine, _ = traced(Alive)
    inside = machine.stack[-1]
    for event in (Hit(1), "died", Button.DUCK, 7):
        machine.post(event)
    assert inside.received(Hit) == Hit(1)
    assert inside.received(Hit(2)) is None
    assert inside.received(Button.DUCK) is Button.DUCK and inside.received(7) == 7
    assert inside.take("died") == "died" and inside.received("died") is None
    assert machine.events == (Hit(1), Button.DUCK, 7)


def test_a_machine_that_posts_no_event_keeps_no_extras() -> None:
    machine = st.StateMachine(Alive, [])
    machine.process_state_transitions()
    machine.update_states(0.1)
    assert machine.stack[-1].received(Hit) is None
    assert machine._extras is None  # the feature costs it nothing but one test per call


@given(hs.lists(hs.lists(hs.sampled_from(["go", "stop", Button.JUMP]), max_size=4), max_size=8))
def test_no_event_outlives_the_processing_after_it(frames: list[list[object]]) -> None:
    machine = st.StateMachine(Ping, [])
    machine.process_state_transitions()
    for posted in frames:
        for event in posted:
            machine.post(event)
        before = type(machine.stack[-1])
        machine.process_state_transitions()
        assert machine.events == ()
        # Each "go" moves the machine once: an odd number of them swaps Ping and Pong.
        swapped = posted.count("go") % 2 == 1
        assert (type(machine.stack[-1]) is not before) == swapped


class Verdict:
    """What ``==`` gives for some types (NumPy's scalars give ``numpy.bool``): not a bool,
    but true or false."""

    def __init__(self, value: bool) -> None:
        self.value = value

    def __bool__(self) -> bool:
        return self.value


class Reading:
    """An event that compares like a NumPy number: ``==`` gives a :class:`Verdict`."""

    def __init__(self, value: float) -> None:
        self.value = value

    def __eq__(self, other: object) -> Verdict:  # type: ignore[override]
        return Verdict(other == self.value)

    __hash__ = None  # type: ignore[assignment]


class Unsure:
    """An event whose ``==`` gives something that is neither true nor false."""

    def __eq__(self, other: object) -> Verdict:  # type: ignore[override]
        raise ArithmeticError("no truth value")

    __hash__ = None  # type: ignore[assignment]


def test_an_event_whose_equality_is_not_a_bool_is_matched_by_its_truth() -> None:
    machine, _ = traced(Alive)
    inside = machine.stack[-1]
    reading = Reading(3.0)
    machine.post(reading)

    assert inside.received("died") is None
    assert inside.received(3.0) is reading
    assert inside.take(Reading) is reading
    assert machine.events == ()


def test_numpy_numbers_are_events_like_any_other() -> None:
    numpy = pytest.importorskip("numpy", reason="NumPy events need NumPy (the batch extra)")
    machine, lines = traced(Alive)
    inside = machine.stack[-1]
    machine.post(numpy.float64(3.0))

    assert inside.received("died") is None
    assert inside.received(3.0) == 3.0
    machine.process_state_transitions()
    assert lines == [] and machine.events == ()


def test_an_event_that_cannot_be_compared_is_a_usage_error_and_stays_posted() -> None:
    machine, _ = traced(Alive)
    inside = machine.stack[-1]
    unsure = Unsure()
    machine.post(unsure)

    with pytest.raises(st.UsageError) as caught:
        inside.received("died")

    assert str(caught.value) == (
        f"received('died') on machine 'M': comparing it with the event {unsure!r} gives "
        "neither true nor false (an event's == must give a truth value)"
    )
    assert isinstance(caught.value.__cause__, ArithmeticError)
    assert machine.events == (unsure,)


def test_none_is_not_an_event() -> None:
    machine, _ = traced(Alive)
    inside = machine.stack[-1]

    with pytest.raises(st.UsageError) as caught:
        machine.post(None)
    assert str(caught.value) == (
        "post(None) on machine 'M': None is not an event (received() and take() give None "
        "when there is no event); post a string, an enum member or an object"
    )
    assert machine.events == ()
    for look in (inside.received, inside.take):
        with pytest.raises(st.UsageError) as caught:
            look(None)
        assert str(caught.value) == (
            f"{look.__name__}(None) on machine 'M': None is not an event kind; give a "
            "class, a string, an enum member or a value"
        )


@dataclass(frozen=True)
class Heal:
    amount: int


def test_a_tuple_of_classes_takes_an_instance_of_any_and_a_tuple_value_by_equality() -> None:
    taken: list[object] = []

    class Taker(st.State[list[str]]):
        def transition(self) -> st.Transition | None:
            taken.append(self.take((Hit, Heal)))
            taken.append(self.take(("combo", 2)))
            return None

    machine = st.StateMachine(Taker, [])
    machine.post(Heal(3))
    machine.post(("combo", 2))
    machine.process_state_transitions()

    assert taken == [Heal(3), ("combo", 2)]
