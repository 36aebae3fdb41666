"""State arguments reach on_enter through all three transition kinds."""

from __future__ import annotations

import pytest

import statetree as st


class Anim(st.State[list[str]]):
    def on_enter(self, name: str, loop: bool = True, *, rate: float = 1.0) -> None:
        self.owner.append(f"{name} loop={loop} rate={rate}")


class ViaSibling(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        return st.sibling(Anim, "jump", False, rate=2.0)


class ViaInner(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        return st.inner(Anim, "run")


class ViaEntry(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Anim, name="idle", loop=True)


@pytest.mark.parametrize(
    ("initial", "expected"),
    [
        (ViaSibling, "jump loop=False rate=2.0"),
        (ViaInner, "run loop=True rate=1.0"),
        (ViaEntry, "idle loop=True rate=1.0"),
    ],
)
def test_arguments_on_every_kind(initial: type[st.State[list[str]]], expected: str) -> None:
    seen: list[str] = []
    machine = st.StateMachine(initial, seen)
    machine.process_state_transitions()
    assert seen == [expected]


def test_initial_state_can_take_arguments() -> None:
    seen: list[str] = []
    machine = st.StateMachine(st.sibling(Anim, "start"), seen)
    machine.process_state_transitions()
    assert seen == ["start loop=True rate=1.0"]


def test_arguments_that_do_not_fit_raise_and_push_nothing() -> None:
    class Bad(st.State[list[str]]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Anim, "a", True, 3.0)

    machine = st.StateMachine(Bad, [])
    with pytest.raises(st.StateArgumentError) as caught:
        machine.process_state_transitions()
    message = str(caught.value)
    assert message.startswith("inner_entry(Anim, 'a', True, 3.0): the arguments do not fit")
    assert "Anim.on_enter(self, name: 'str', loop: 'bool' = True, *, rate: 'float' = 1.0)" in (
        message
    )
    assert [type(s).__name__ for s in machine.stack] == ["Bad"]
    assert isinstance(caught.value, TypeError)


def test_type_error_inside_on_enter_propagates_unchanged() -> None:
    class Broken(st.State[None]):
        def on_enter(self, value: int) -> None:
            raise TypeError("inside on_enter")

    machine = st.StateMachine(st.sibling(Broken, 1))
    with pytest.raises(TypeError, match=r"^inside on_enter$") as caught:
        machine.process_state_transitions()
    assert type(caught.value) is TypeError


def test_a_state_whose_init_takes_arguments_says_where_they_go() -> None:
    class Ported(st.State[None]):
        def __init__(self, speed: float) -> None:  # a C++ constructor's habit
            self.speed = speed

    class Host(st.State[None]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Ported)

    machine = st.StateMachine(Host)
    with pytest.raises(st.StateArgumentError) as caught:
        machine.process_state_transitions()
    assert str(caught.value) == (
        "test_a_state_whose_init_takes_arguments_says_where_they_go.<locals>.Ported.__init__ "
        "takes arguments, but the machine creates states without any: take them in on_enter "
        "(def on_enter(self, ...)) and give them with the transition, st.sibling("
        "test_a_state_whose_init_takes_arguments_says_where_they_go.<locals>.Ported, ...)"
    )
    assert [type(s).__name__ for s in machine.stack] == ["Host"]


def test_a_type_error_inside_init_propagates_unchanged() -> None:
    class Broken(st.State[None]):
        def __init__(self) -> None:
            raise TypeError("inside __init__")

    with pytest.raises(TypeError, match=r"^inside __init__$") as caught:
        st.StateMachine(Broken).process_state_transitions()
    assert type(caught.value) is TypeError


class Walk(st.State[list[str]]):
    def update(self, dt: float) -> None:
        self.owner.append(f"walk {dt}")


class Idle(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Walk)

    def update(self) -> None:  # forgot dt
        self.owner.append("idle")


def test_an_update_that_does_not_take_update_states_arguments_says_so() -> None:
    log: list[str] = []
    machine = st.StateMachine(Idle, owner=log)
    machine.process_state_transitions()
    with pytest.raises(st.StateArgumentError) as caught:
        machine.update_states(0.5)
    message = str(caught.value)
    assert message.startswith(
        "Idle.update(self) does not take what update_states() was given, update_states(0.5) ("
    )
    assert message.endswith(
        "): every active state's update takes the same arguments, such as def update(self, dt)"
    )
    assert isinstance(caught.value, TypeError)
    assert log == []
    with pytest.raises(st.StateArgumentError, match=r"^Walk\.update\(self, dt"):
        machine.update_states()  # Idle's update fits; Walk's, inside it, does not
    assert log == ["idle"]


def test_a_type_error_inside_update_propagates_unchanged() -> None:
    class Broken(st.State[None]):
        def update(self, dt: float) -> None:
            raise TypeError("inside update")

    machine = st.StateMachine(Broken)
    machine.process_state_transitions()
    with pytest.raises(TypeError, match=r"^inside update$") as caught:
        machine.update_states(0.5)
    assert type(caught.value) is TypeError


def test_arguments_to_a_state_without_on_enter_are_refused_at_creation() -> None:
    class Plain(st.State[None]):
        pass

    with pytest.raises(st.StateArgumentError, match="Plain takes no state arguments"):
        st.sibling(Plain, 1)


@pytest.mark.parametrize("make", [st.sibling, st.inner, st.inner_entry])
def test_target_must_be_a_state_class(make: object) -> None:
    name = make.__name__  # type: ignore[attr-defined]
    with pytest.raises(st.TransitionTargetError) as caught:
        make("Stand")  # type: ignore[operator]
    assert str(caught.value) == (
        f"{name}() needs a State subclass as its target, got 'Stand' (str); pass the class "
        f"itself, e.g. st.{name}(Stand)"
    )
    with pytest.raises(st.TransitionTargetError):
        make(int)  # type: ignore[operator]


@pytest.mark.parametrize("make", [st.sibling, st.inner, st.inner_entry])
def test_an_instance_is_refused_after_its_class_transition_is_shared(make: object) -> None:
    class Stand(st.State[None]):
        pass

    shared = make(Stand)  # type: ignore[operator]
    with pytest.raises(st.TransitionTargetError, match=r"got <.*Stand> \(Stand\)"):
        make(Stand())  # type: ignore[operator]
    assert make(Stand) is shared  # the class's shared transition is kept
