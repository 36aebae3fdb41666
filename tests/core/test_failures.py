"""Failure behaviour: loops, exceptions from user hooks, and misuse."""

from __future__ import annotations

import abc
import copy
import pickle
from typing import Any

import pytest
from core_support import Logged, Recorder, names

import statetree as st


class Boom(Exception):
    pass


def entered_and_not_exited(owner: Recorder, machine: st.StateMachine[Any]) -> bool:
    """Every state on the stack has more enters than exits in the log."""
    for state in machine.stack:
        name = type(state).__name__
        enters = sum(entry.startswith(f"{name}.enter") for entry in owner.log)
        if enters != owner.log.count(f"{name}.exit") + 1:
            return False
    return True


class Stand(Logged):
    def transition(self) -> st.Transition | None:
        return st.sibling(Crouch) if self.owner["crouch"] else None


class Crouch(Logged):
    def transition(self) -> st.Transition | None:
        return st.sibling(Stand) if self.owner["crouch"] else None


class Root(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Stand)


def test_infinite_loop_raises_names_the_cycle_and_leaves_machine_usable(owner: Recorder) -> None:
    machine = st.StateMachine(Root, owner, name="Hero", max_transitions=50)
    machine.process_state_transitions()
    owner.flags["crouch"] = True
    with pytest.raises(st.TransitionLoopError) as caught:
        machine.process_state_transitions()
    error = caught.value
    assert error.machine == "Hero"
    assert error.changes == 50
    assert set(error.cycle) == {"Stand", "Crouch"} and len(error.cycle) == 2
    assert str(error).startswith(
        "machine 'Hero' changed its state stack 50 times in one process_state_transitions() "
        "call without settling; the repeating cycle is "
    )
    # 50 changes were made: Stand -> Crouch is change 1, so change 50 enters Stand.
    assert names(machine) == ["Root", "Stand"]
    assert entered_and_not_exited(owner, machine)
    owner.flags["crouch"] = False
    machine.process_state_transitions()
    assert names(machine) == ["Root", "Stand"]


class Nests(st.State[Any]):
    """Enters a state of its own class as its inner: each one does again."""

    def transition(self) -> st.Transition | None:
        return st.inner_entry(Nests)


def test_a_loop_that_nests_without_end_says_the_stack_grew() -> None:
    machine = st.StateMachine(Nests, name="Deep", max_transitions=200)
    with pytest.raises(st.TransitionLoopError) as caught:
        machine.process_state_transitions()
    error = caught.value
    assert (error.cycle, error.changes, error.depth) == (("Nests",), 200, 201)
    assert str(error) == (
        "machine 'Deep' changed its state stack 200 times in one process_state_transitions() "
        "call without settling; the repeating cycle is Nests -> Nests, each change nesting a "
        "state inside the last (the stack holds 201 states). A state whose transition() enters "
        "a state of its own class as its inner nests without end: stop at a leaf state, or "
        "give the inner state another class."
    )
    assert pickle.loads(pickle.dumps(error)).depth == 201
    machine.stop()
    assert machine.stack == ()


class Chain(st.State[Any]):
    """Step ``n`` of a chain of ``LENGTH``, each entering the next: it ends, without looping."""

    n = 0

    def transition(self) -> st.Transition | None:
        return st.sibling(CHAIN[self.n + 1]) if self.n + 1 < len(CHAIN) else None


CHAIN = [type(f"Step{n}", (Chain,), {"n": n}) for n in range(12)]


def test_a_chain_longer_than_the_bound_is_not_called_a_cycle() -> None:
    machine = st.StateMachine(CHAIN[0], name="Long", max_transitions=10)
    with pytest.raises(st.TransitionLoopError) as caught:
        machine.process_state_transitions()
    error = caught.value
    assert (error.repeating, error.changes) == (False, 10)
    assert error.cycle == tuple(f"Step{n}" for n in range(4, 12))  # the last 8 targets
    said = "without settling; no state repeated; its last changes went to Step4 -> Step5 -> "
    assert said in str(error)
    assert "the repeating cycle" not in str(error)
    longer = st.StateMachine(CHAIN[0], max_transitions=11)
    longer.process_state_transitions()  # with room for the chain, it settles
    assert type(longer.stack[-1]).__name__ == "Step11"


def test_loop_detection_is_always_on_with_default_bound(owner: Recorder) -> None:
    owner.flags["crouch"] = True
    machine = st.StateMachine(Stand, owner)
    with pytest.raises(st.TransitionLoopError, match="changed its state stack 1000 times"):
        machine.process_state_transitions()
    assert owner.log.count("Stand.enter") + owner.log.count("Crouch.enter") == 1001


class FailingHooks(Logged):
    """Raises from the hook named by the owner flag ``fail``."""

    def on_enter(self, *args: Any, **kwargs: Any) -> None:
        super().on_enter()
        if self.owner["fail"] == f"{type(self).__name__}.enter":
            raise Boom("enter")

    def on_exit(self) -> None:
        super().on_exit()
        if self.owner["fail"] == f"{type(self).__name__}.exit":
            raise Boom("exit")

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update()
        if self.owner["fail"] == f"{type(self).__name__}.update":
            raise Boom("update")


class Top(FailingHooks):
    def transition(self) -> st.Transition | None:
        if self.owner["fail"] == "Top.transition":
            raise Boom("transition")
        if self.owner["go"]:
            return st.sibling(Other)
        return st.inner_entry(Mid)


class Mid(FailingHooks):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Low)


class Low(FailingHooks):
    pass


class Other(FailingHooks):
    pass


def started(owner: Recorder, value: st.StateValue[int] | None = None) -> st.StateMachine[Any]:
    machine = st.StateMachine(Top, owner)
    machine.process_state_transitions()
    owner.log.clear()
    return machine


def test_on_enter_raising_drops_the_new_state(owner: Recorder) -> None:
    machine = started(owner)
    owner.flags.update(go=True, fail="Other.enter")
    with pytest.raises(Boom, match="enter"):
        machine.process_state_transitions()
    assert owner.log == ["Low.exit", "Mid.exit", "Top.exit", "Other.enter"]
    assert machine.stack == ()
    # The next call starts again from the initial state.
    owner.flags.update(go=False, fail=None)
    machine.process_state_transitions()
    assert names(machine) == ["Top", "Mid", "Low"]


def test_on_enter_raising_in_an_inner_keeps_outer_states_and_retries(owner: Recorder) -> None:
    owner.flags["fail"] = "Low.enter"
    machine = st.StateMachine(Top, owner)
    with pytest.raises(Boom):
        machine.process_state_transitions()
    assert names(machine) == ["Top", "Mid"]
    assert entered_and_not_exited(owner, machine)
    owner.flags["fail"] = None
    machine.process_state_transitions()
    assert names(machine) == ["Top", "Mid", "Low"]


def test_on_exit_raising_removes_that_state_only(owner: Recorder) -> None:
    machine = started(owner)
    owner.flags.update(go=True, fail="Mid.exit")
    with pytest.raises(Boom, match="exit"):
        machine.process_state_transitions()
    assert owner.log == ["Low.exit", "Mid.exit"]
    assert names(machine) == ["Top"]
    owner.flags["fail"] = None
    machine.process_state_transitions()
    assert names(machine) == ["Other"]


def test_on_exit_raising_still_restores_state_values(owner: Recorder) -> None:
    value = st.StateValue(0)

    class Holder(FailingHooks):
        def on_enter(self, *args: Any, **kwargs: Any) -> None:
            self.set_state_value(value, 1)

    machine = st.StateMachine(Holder, owner)
    machine.process_state_transitions()
    assert value.value == 1
    owner.flags["fail"] = "Holder.exit"
    with pytest.raises(Boom):
        machine.stop()
    assert value.value == 0
    assert machine.stack == ()


def test_transition_raising_leaves_the_stack(owner: Recorder) -> None:
    machine = started(owner)
    before = machine.stack
    owner.flags["fail"] = "Top.transition"
    with pytest.raises(Boom, match="transition"):
        machine.process_state_transitions()
    assert machine.stack == before
    assert owner.log == []


def test_update_raising_skips_inner_updates_and_keeps_stack(owner: Recorder) -> None:
    machine = started(owner)
    before = machine.stack
    owner.flags["fail"] = "Mid.update"
    with pytest.raises(Boom, match="update"):
        machine.update_states()
    assert owner.log == ["Top.update", "Mid.update"]
    assert machine.stack == before
    owner.flags["fail"] = None
    machine.update_states()
    assert owner.log[-3:] == ["Top.update", "Mid.update", "Low.update"]


def test_init_raising_pushes_nothing() -> None:
    class Fussy(st.State[None]):
        def __init__(self) -> None:
            raise Boom("init")

    machine = st.StateMachine(Fussy)
    with pytest.raises(Boom, match="init"):
        machine.process_state_transitions()
    assert machine.stack == ()


def test_a_state_is_made_by_its_own_init_new_or_metaclass_call() -> None:
    """A class's own ``__init__``, ``__new__`` or metaclass ``__call__`` runs once per
    entry, before ``owner`` is set (reading through it there is refused); a plain class's
    states are made all the same."""
    made: list[str] = []

    class Counting(type):
        def __call__(cls, *args: Any, **kwargs: Any) -> Any:
            made.append(f"{cls.__name__}.call")
            return super().__call__(*args, **kwargs)

    class WithInit(st.State[str]):
        def __init__(self) -> None:
            with pytest.raises(
                st.UsageError, match="owner and machine are not set in its __init__, nor its stack"
            ):
                self.owner.upper()
            made.append("WithInit.init")

        def transition(self) -> st.Transition | None:
            return st.sibling(WithNew)

    class WithNew(st.State[str]):
        def __new__(cls) -> WithNew:
            made.append("WithNew.new")
            return super().__new__(cls)

        def transition(self) -> st.Transition | None:
            return st.sibling(Called)

    class Called(st.State[str], metaclass=Counting):
        def transition(self) -> st.Transition | None:
            return st.sibling(Plain)

    class Plain(st.State[str]):
        def on_enter(self) -> None:
            made.append(f"Plain.enter owner={self.owner}")

    machine = st.StateMachine(WithInit, "hero")
    machine.process_state_transitions()
    assert made == [
        "WithInit.init",
        "WithNew.new",
        "Called.call",
        "Plain.enter owner=hero",
    ]
    assert [type(state) for state in machine.stack] == [Plain]


class Probe(st.State[None]):
    def __init__(self) -> None:
        self.seen: list[str] = []
        for name, query in QUERIES.items():
            try:
                query(self)
            except st.UsageError as error:
                self.seen.append(f"{name}: {error}")


QUERIES: dict[str, Any] = {
    "get_outer_state": lambda state: state.get_outer_state(Low),
    "is_in_state": lambda state: state.is_in_state(Low),
    "depth": lambda state: state.depth,
    "cause": lambda state: state.cause,
    "received": lambda state: state.received("jump"),
    "get_state_override": lambda state: state.get_state_override(Low),
    "set_state_value": lambda state: state.set_state_value(st.StateValue(0), 1),
}


def test_a_state_s_init_cannot_reach_its_machine() -> None:
    """As the book's constructor: owner, machine and the stack come with on_enter."""
    machine = st.StateMachine(Probe)
    machine.process_state_transitions()
    seen = machine.stack[0].seen
    assert [line.split(":")[0] for line in seen] == list(QUERIES)
    assert all("not set in its __init__" in line for line in seen[:-1])
    assert "Probe, which is not on a state stack" in seen[-1]


class Abstract(st.State[None], abc.ABC):
    """A state with a metaclass (ABCMeta) whose call is type's: made as any other."""

    def __init__(self) -> None:
        self.seen = ""
        try:
            self.owner.anything  # noqa: B018
        except st.UsageError as error:
            self.seen = str(error)
        self.kept = self.machine  # kept before on_enter: the placeholder, not the machine


def test_a_state_with_a_metaclass_cannot_reach_its_machine_in_init_either() -> None:
    machine = st.StateMachine(Abstract)
    machine.process_state_transitions()
    state = machine.stack[0]
    assert state.seen.startswith("a state's owner and machine are not set in its __init__")
    assert state.machine is machine
    copied = copy.deepcopy(machine)  # what __init__ kept copies as itself, the one placeholder
    assert copied.stack[0].kept is state.kept
    assert pickle.loads(pickle.dumps(state.kept)) is state.kept


def test_update_before_processing_is_refused() -> None:
    machine = st.StateMachine(Low, Recorder(), name="Hero")
    with pytest.raises(st.NotStartedError) as caught:
        machine.update_states(0.1)
    assert str(caught.value) == (
        "update_states() on machine 'Hero', which has no active state: call "
        "process_state_transitions() first (after stop(), call it again to restart)"
    )


def test_initial_must_be_a_state_class() -> None:
    with pytest.raises(st.TransitionTargetError, match=r"got 'Alive' \(str\)"):
        st.StateMachine("Alive")  # type: ignore[arg-type]


def test_initial_of_a_wrong_class_names_the_argument() -> None:
    with pytest.raises(st.TransitionTargetError) as caught:
        st.StateMachine(int)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "StateMachine's initial argument must be a State subclass (or a transition such as "
        "st.sibling(First, arg)), got <class 'int'> (type)"
    )


def test_transition_returning_a_class_is_explained() -> None:
    class Wrong(st.State[None]):
        def transition(self) -> Any:
            return Low

    machine = st.StateMachine(Wrong)
    with pytest.raises(st.TransitionTargetError) as caught:
        machine.process_state_transitions()
    assert str(caught.value) == (
        f"{Wrong.__qualname__}.transition() returned {Low!r}; return st.sibling(...), "
        "st.inner(...), st.inner_entry(...), st.concurrent(...) or None"
    )
    assert [type(s) for s in machine.stack] == [Wrong]


@pytest.mark.parametrize("call", ["process_state_transitions", "update_states", "stop"])
def test_hooks_cannot_drive_their_own_machine(call: str) -> None:
    class Reentrant(st.State[None]):
        def update(self) -> None:
            getattr(self.machine, call)()

    machine = st.StateMachine(Reentrant, name="npc")
    machine.process_state_transitions()
    with pytest.raises(st.UsageError) as caught:
        machine.update_states()
    assert str(caught.value).startswith(
        f"{call}() called on machine 'npc' while it is already running one of its states' hooks"
    )
    # The machine is still usable afterwards.
    machine.process_state_transitions()
    assert [type(s) for s in machine.stack] == [Reentrant]


def test_all_library_errors_share_one_root() -> None:
    for error in (
        st.DefinitionError,
        st.UsageError,
        st.TransitionTargetError,
        st.StateArgumentError,
        st.NotStartedError,
        st.StateValueError,
        st.TransitionLoopError,
        st.DecodeError,
    ):
        assert issubclass(error, st.StateTreeError)
