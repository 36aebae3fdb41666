"""The tool-level API: exit, apply_transition, start, causes; and validation of settings."""

from __future__ import annotations

import sys

import pytest
from core_support import Logged, Recorder, names

import statetree as st


class Root(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Walk)


class Walk(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Step)


class Step(Logged):
    pass


class Run(Logged):
    def on_enter(self, speed: float = 1.0) -> None:
        self.owner.log.append(f"Run.enter {speed} cause={self.cause.name}")

    def on_exit(self) -> None:
        self.owner.log.append(f"Run.exit cause={self.cause.name}")


def started(owner: Recorder) -> st.StateMachine[Recorder]:
    machine = st.StateMachine(Root, owner, name="npc")
    machine.process_state_transitions()
    owner.log.clear()
    return machine


def test_exit_pops_a_subtree_and_processing_re_enters(owner: Recorder) -> None:
    machine = started(owner)
    machine.exit(machine.stack[1])
    assert names(machine) == ["Root"]
    assert owner.log == ["Step.exit", "Walk.exit"]
    machine.process_state_transitions()
    assert names(machine) == ["Root", "Walk", "Step"]


def test_apply_transition_always_changes_the_stack(owner: Recorder) -> None:
    machine = started(owner)
    with machine.caused_by(st.Cause.DESERIALIZATION):
        machine.apply_transition(machine.stack[0], st.inner(Run, 2.5))
    assert machine.cause is st.Cause.TRANSITION
    assert names(machine) == ["Root", "Run"]
    assert owner.log == [
        "Step.exit",
        "Walk.exit",
        "Run.enter 2.5 cause=DESERIALIZATION",
    ]
    owner.log.clear()
    machine.apply_transition(machine.stack[1], st.sibling(Walk))
    assert owner.log == ["Run.exit cause=TRANSITION", "Walk.enter"]


def test_start_enters_only_the_initial_state(owner: Recorder) -> None:
    machine = st.StateMachine(Root, owner)
    machine.start()
    machine.start()
    assert names(machine) == ["Root"]
    assert owner.log == ["Root.enter"]


def test_tools_refuse_states_that_are_not_active(owner: Recorder) -> None:
    machine = started(owner)
    old = machine.stack[2]
    machine.exit(machine.stack[1])
    with pytest.raises(st.UsageError, match=r"<Step> is not an active state of machine"):
        machine.exit(old)
    with pytest.raises(st.UsageError, match="do not keep references to states"):
        old.get_outer_state(Root)
    assert names(machine) == ["Root"]


def test_settings_are_validated() -> None:
    with pytest.raises(st.UsageError, match="max_transitions must be at least 1, got 0"):
        st.StateMachine(Root, max_transitions=0)
    with pytest.raises(st.UsageError, match=f"max_transitions must be at most {sys.maxsize:,}"):
        st.StateMachine(Root, max_transitions=sys.maxsize + 1)  # the compiled core's C integer
    assert st.StateMachine(Root, max_transitions=sys.maxsize).max_transitions == sys.maxsize
    machine = st.StateMachine(Root)
    with pytest.raises(st.TransitionTargetError, match="both arguments must be State subclasses"):
        machine.add_state_override(Root, object)  # type: ignore[arg-type]
    with pytest.raises(st.TransitionTargetError, match="got 'Root'"):
        machine.add_state_override("Root", Walk)  # type: ignore[arg-type]


def test_an_exiting_inner_restores_what_it_found_though_an_outer_set_it_later() -> None:
    # The book's rule, as its C++ library: each state restores the value it saved.
    value = st.StateValue(0)

    class Outer(st.State[None]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Inner)

        def update(self) -> None:
            self.set_state_value(value, 1)

    class Inner(st.State[None]):
        def on_enter(self) -> None:
            self.set_state_value(value, 2)

    machine = st.StateMachine(Outer)
    machine.process_state_transitions()
    machine.update_states()
    assert value.value == 1
    machine.exit(machine.stack[1])
    assert value.value == 0, "Inner found 0 when it first set the value"
    machine.stop()
    assert value.value == 2, "Outer found Inner's 2 when it first set the value"


def test_object_with_a_kind_attribute_is_not_a_transition() -> None:
    class Odd(st.State[None]):
        def transition(self) -> object:
            return st.Step("x", st.StepKind.INIT, Odd, 0)

    machine = st.StateMachine(Odd)
    with pytest.raises(st.TransitionTargetError, match=r"Odd.transition\(\) returned Step"):
        machine.process_state_transitions()


class Host(st.State[list[str]]):
    def transition(self) -> st.Transition:
        return st.concurrent(Left, Right)


class Left(st.State[list[str]]):
    def update(self) -> None:
        self.owner.append("left")


class Right(st.State[list[str]]):
    def transition(self) -> st.Transition:
        return st.inner_entry(Deep)


class Deep(st.State[list[str]]):
    pass


def test_a_new_owner_reaches_every_active_state_and_those_entered_later() -> None:
    old: list[str] = []
    new: list[str] = []
    machine = st.StateMachine(Host, old)
    machine.process_state_transitions()
    machine.owner = new
    assert machine.owner is new
    assert all(state.owner is new for state in machine.walk())
    machine.update_states()
    assert (old, new) == ([], ["left"])
    machine.exit(machine.get_state(Deep))
    machine.process_state_transitions()  # Deep is entered again: with the new owner
    assert machine.get_state(Deep).owner is new
