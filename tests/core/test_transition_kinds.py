"""The three transition kinds behave exactly as the book's chapter 3 algorithm says."""

from __future__ import annotations

import pytest
from core_support import Logged, Recorder, names

import statetree as st


class Alive(Logged):
    def transition(self) -> st.Transition | None:
        if self.owner["dead"]:
            return st.sibling(Dead)
        return st.inner_entry(Locomotion)


class Dead(Logged):
    pass


class Locomotion(Logged):
    def transition(self) -> st.Transition | None:
        mode = self.owner["mode"]
        if mode == "inner":
            return st.inner(Move if self.owner["move"] else Stand)
        return st.inner_entry(Stand)


class Stand(Logged):
    def transition(self) -> st.Transition | None:
        if self.owner["mode"] != "inner" and self.owner["move"]:
            return st.sibling(Move)
        return None


class Move(Logged):
    def transition(self) -> st.Transition | None:
        if self.owner["mode"] != "inner" and not self.owner["move"]:
            return st.sibling(Stand)
        return None


def make(owner: Recorder) -> st.StateMachine[Recorder]:
    return st.StateMachine(Alive, owner)


def test_first_call_pushes_initial_then_inner_entries(owner: Recorder) -> None:
    machine = make(owner)
    assert machine.stack == ()
    machine.process_state_transitions()
    assert names(machine) == ["Alive", "Locomotion", "Stand"]
    assert owner.log == ["Alive.enter", "Locomotion.enter", "Stand.enter"]


def test_inner_entry_is_ignored_once_an_inner_exists(owner: Recorder) -> None:
    machine = make(owner)
    machine.process_state_transitions()
    owner.flags["move"] = True
    owner.log.clear()
    machine.process_state_transitions()
    # Locomotion keeps returning inner_entry(Stand), yet Move stays its inner.
    assert names(machine) == ["Alive", "Locomotion", "Move"]
    assert owner.log == ["Stand.exit", "Move.enter"]


def test_sibling_pops_innermost_first_then_pushes(owner: Recorder) -> None:
    machine = make(owner)
    machine.process_state_transitions()
    owner.flags["dead"] = True
    owner.log.clear()
    machine.process_state_transitions()
    assert names(machine) == ["Dead"]
    assert owner.log == ["Stand.exit", "Locomotion.exit", "Alive.exit", "Dead.enter"]


def test_inner_replaces_a_different_inner_and_keeps_the_same_one(owner: Recorder) -> None:
    owner.flags["mode"] = "inner"
    machine = make(owner)
    machine.process_state_transitions()
    assert names(machine) == ["Alive", "Locomotion", "Stand"]
    first_stand = machine.stack[2]
    machine.process_state_transitions()
    assert machine.stack[2] is first_stand, "inner to the current inner must do nothing"
    owner.flags["move"] = True
    owner.log.clear()
    machine.process_state_transitions()
    assert names(machine) == ["Alive", "Locomotion", "Move"]
    assert owner.log == ["Stand.exit", "Move.enter"]


class Outer(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner(Middle)


class Middle(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Leaf)


class Leaf(Logged):
    pass


class SubMiddle(Middle):
    pass


def test_inner_pops_every_state_below_the_source(
    owner: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine = st.StateMachine(Outer, owner)
    machine.process_state_transitions()
    assert names(machine) == ["Outer", "Middle", "Leaf"]
    owner.log.clear()
    # An inner target is matched by exact class, so a subclass instance is replaced.
    monkeypatch.setattr(Outer, "transition", lambda self: st.inner(SubMiddle))
    machine.process_state_transitions()
    assert owner.log == ["Leaf.exit", "Middle.exit", "SubMiddle.enter", "Leaf.enter"]


class Counter(st.State[list[int]]):
    def on_enter(self, n: int) -> None:
        self.n = n
        self.owner.append(id(self))

    def transition(self) -> st.Transition | None:
        if self.n < 3:
            return st.sibling(Counter, self.n + 1)
        return None


def test_sibling_to_own_class_restarts_as_new_instance() -> None:
    ids: list[int] = []
    instances: list[Counter] = []
    machine = st.StateMachine(st.sibling(Counter, 0), ids)

    def on_step(step: st.Step) -> None:
        if step.kind is not st.StepKind.POP:
            instances.append(machine.stack[-1])  # type: ignore[arg-type]

    machine.add_listener(on_step)
    machine.process_state_transitions()
    assert [c.n for c in machine.stack] == [3]  # type: ignore[attr-defined]
    assert len(instances) == 4
    assert len({id(s) for s in instances}) == 4, "each restart is a new instance"


class Chain(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(ChainA)


class ChainA(Logged):
    def transition(self) -> st.Transition | None:
        return st.sibling(ChainB)


class ChainB(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(ChainLeaf)


class ChainLeaf(Logged):
    pass


def test_processing_restarts_from_outermost_after_each_change(
    owner: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    for cls in (Chain, ChainA, ChainB):

        def spy(self: st.State[Recorder], original=cls.transition) -> st.Transition | None:  # type: ignore[no-untyped-def]
            calls.append(type(self).__name__)
            return original(self)  # type: ignore[no-any-return]

        monkeypatch.setattr(cls, "transition", spy)
    machine = st.StateMachine(Chain, owner)
    machine.process_state_transitions()
    assert names(machine) == ["Chain", "ChainB", "ChainLeaf"]
    # Every pass starts again at Chain, the outermost state.
    assert calls == ["Chain", "Chain", "ChainA", "Chain", "ChainB", "Chain", "ChainB"]


def test_second_call_is_a_no_op(owner: Recorder) -> None:
    machine = make(owner)
    machine.process_state_transitions()
    before = machine.stack
    owner.log.clear()
    machine.process_state_transitions()
    assert machine.stack == before
    assert owner.log == []


def test_update_states_runs_outermost_to_innermost_on_settled_stack(owner: Recorder) -> None:
    machine = make(owner)
    machine.process_state_transitions()
    owner.log.clear()
    machine.update_states()
    assert owner.log == ["Alive.update", "Locomotion.update", "Stand.update"]


def test_transient_state_never_updates(owner: Recorder) -> None:
    machine = st.StateMachine(Chain, owner)
    machine.process_state_transitions()
    machine.update_states()
    assert "ChainA.enter" in owner.log
    assert "ChainA.exit" in owner.log
    assert "ChainA.update" not in owner.log


class Ticker(st.State[list[tuple[object, ...]]]):
    def update(self, dt: float, *, frame: int) -> None:
        self.owner.append((type(self).__name__, dt, frame))


def test_update_arguments_are_forwarded() -> None:
    seen: list[tuple[object, ...]] = []
    machine = st.StateMachine(Ticker, seen)
    machine.process_state_transitions()
    machine.update_states(0.5, frame=7)
    assert seen == [("Ticker", 0.5, 7)]


def test_stop_exits_innermost_first_and_restart_reinitialises(owner: Recorder) -> None:
    machine = make(owner)
    machine.process_state_transitions()
    owner.log.clear()
    machine.stop()
    assert machine.stack == ()
    assert not machine.started
    assert owner.log == ["Stand.exit", "Locomotion.exit", "Alive.exit"]
    machine.process_state_transitions()
    assert names(machine) == ["Alive", "Locomotion", "Stand"]


@pytest.mark.parametrize("kind", [st.sibling, st.inner, st.inner_entry])
def test_transitions_are_immutable_values(kind: object) -> None:
    made = kind(Stand)  # type: ignore[operator]
    assert made is kind(Stand)  # type: ignore[operator]
    with pytest.raises(AttributeError):
        made.target = Move
    assert repr(kind(Counter, 2)) == f"{kind.__name__}(Counter, 2)"  # type: ignore[attr-defined]
    assert kind(Counter, 2) == kind(Counter, 2)  # type: ignore[operator]
