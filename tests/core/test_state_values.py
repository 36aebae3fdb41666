"""State values: set by active states, restored in reverse order right after on_exit."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

import statetree as st


@dataclass
class Params:
    speed: float = 0.0
    gravity: float = -9.8
    tags: list[str] = field(default_factory=list)


class Body:
    def __init__(self) -> None:
        self.speed = st.StateValue(0.0)
        self.params = st.StateValue(Params())
        self.log: list[str] = []
        self.swim = False
        self.crawl = False


class Alive(st.State[Body]):
    def on_enter(self) -> None:
        self.set_state_value(self.owner.speed, 0.1)

    def transition(self) -> st.Transition | None:
        if self.owner.swim:
            return st.inner(Swim)
        return st.inner(Walk)


class Walk(st.State[Body]):
    def on_enter(self) -> None:
        self.set_state_value(self.owner.speed, 1.0)
        self.set_state_value(self.owner.speed, 0.9)  # a second write keeps the first saved

    def on_exit(self) -> None:
        # on_exit still sees the value this state set: restoring happens right after.
        self.owner.log.append(f"Walk.exit sees {self.owner.speed.value}")

    def transition(self) -> st.Transition | None:
        return st.inner(Crawl) if self.owner.crawl else None


class Crawl(st.State[Body]):
    def on_enter(self) -> None:
        self.set_state_value(self.owner.speed, 0.5)
        params = self.modify_state_value(self.owner.params)
        params.gravity = 0.0
        params.tags.append("crawling")


class Swim(st.State[Body]):
    def on_enter(self) -> None:
        self.set_state_value(self.owner.speed, 0.3)
        self.modify_state_value(self.owner.params).speed = 3.0


def test_values_follow_the_stack() -> None:
    body = Body()
    machine = st.StateMachine(Alive, body)
    machine.process_state_transitions()
    assert body.speed.value == 0.9
    body.crawl = True
    machine.process_state_transitions()
    assert body.speed.value == 0.5
    assert body.params.value == Params(0.0, 0.0, ["crawling"])
    body.swim = True
    machine.process_state_transitions()
    # Crawl restored to Walk's value, then Walk restored to Alive's, then Swim set its own.
    assert body.speed.value == 0.3
    assert body.params.value == Params(3.0, -9.8, [])
    assert body.log == ["Walk.exit sees 0.9"]
    machine.stop()
    assert body.speed.value == 0.0
    assert body.params.value == Params()


def test_restore_order_is_reverse_of_setting() -> None:
    body = Body()
    first = st.StateValue("initial")

    class Setter(st.State[Body]):
        def on_enter(self) -> None:
            self.set_state_value(first, "a")
            self.set_state_value(body.speed, 5.0)

        def on_exit(self) -> None:
            body.log.append(f"exit {first.value} {body.speed.value}")

    machine = st.StateMachine(Setter, body)
    machine.process_state_transitions()
    assert (first.value, body.speed.value) == ("a", 5.0)
    machine.stop()
    assert (first.value, body.speed.value) == ("initial", 0.0)
    assert body.log == ["exit a 5.0"]


def test_a_value_cannot_be_assigned_from_outside() -> None:
    value = st.StateValue(1)
    with pytest.raises(st.StateValueError, match="cannot be assigned directly"):
        value.value = 2
    assert value.value == 1


def test_state_value_set_from_init_is_refused() -> None:
    value = st.StateValue(1)

    class Eager(st.State[None]):
        def __init__(self) -> None:
            self.set_state_value(value, 2)

    machine = st.StateMachine(Eager)
    with pytest.raises(st.StateValueError, match=r"Eager, which is not on a state stack"):
        machine.process_state_transitions()
    assert value.value == 1
    assert machine.stack == ()


def test_state_value_set_after_exit_is_refused() -> None:
    value = st.StateValue(1)
    kept: list[st.State[None]] = []

    class Once(st.State[None]):
        def on_enter(self) -> None:
            kept.append(self)

    machine = st.StateMachine(Once)
    machine.process_state_transitions()
    machine.stop()
    with pytest.raises(st.StateValueError, match="not on a state stack"):
        kept[0].set_state_value(value, 3)
    assert value.value == 1


def test_set_initial_value_refused_while_a_state_holds_the_value() -> None:
    body = Body()
    machine = st.StateMachine(Alive, body)
    machine.process_state_transitions()
    with pytest.raises(st.StateValueError, match=r"2 active state\(s\) hold an override"):
        body.speed.set_initial_value(7.0)
    assert body.speed.value == 0.9
    machine.stop()
    body.speed.set_initial_value(7.0)
    assert body.speed.value == 7.0
    assert repr(body.speed) == "StateValue(7.0)"
