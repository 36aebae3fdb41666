"""Wrong arguments to the machine's tools and settings are refused at the call, by name."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import pytest
from core_support import Logged, Recorder, names

import statetree as st


class Root(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Leaf)


class Leaf(Logged):
    pass


def started(name: str) -> st.StateMachine[Recorder]:
    machine = st.StateMachine(Root, Recorder(), name=name)
    machine.process_state_transitions()
    return machine


def test_apply_transition_refuses_what_is_not_a_transition() -> None:
    machine = started("npc")
    root = machine.stack[0]
    with pytest.raises(st.TransitionTargetError) as caught:
        machine.apply_transition(root, "x")
    assert str(caught.value) == (
        "apply_transition(<Root depth=0>, 'x'): the second argument must be a transition "
        "such as st.sibling(Target), got str"
    )
    assert names(machine) == ["Root", "Leaf"]


def test_exit_of_another_machines_state_names_both_machines() -> None:
    mine, theirs = started("mine"), started("theirs")
    with pytest.raises(st.UsageError) as caught:
        mine.exit(theirs.stack[1])
    assert str(caught.value) == (
        "exit(<Leaf depth=1>) on machine 'mine': that state belongs to machine 'theirs'; "
        "call exit() on the machine whose stack holds it"
    )
    assert names(mine) == names(theirs) == ["Root", "Leaf"]


def test_exit_of_another_unnamed_machines_state_tells_the_machines_apart() -> None:
    mine, theirs = (st.StateMachine(Root, Recorder()) for _ in range(2))
    for machine in (mine, theirs):
        machine.process_state_transitions()
    with pytest.raises(st.UsageError) as caught:
        mine.exit(theirs.stack[1])
    assert str(caught.value) == (
        "exit(<Leaf depth=1>) on the machine: that state belongs to another machine; "
        "call exit() on the machine whose stack holds it"
    )


@pytest.mark.parametrize("wrong", [None, 42, "Leaf"])
def test_exit_of_something_that_is_no_state_says_so(wrong: Any) -> None:
    machine = started("npc")
    for call, calling in (
        ("exit", lambda: machine.exit(wrong)),
        ("apply_transition", lambda: machine.apply_transition(wrong, st.sibling(Leaf))),
    ):
        with pytest.raises(st.UsageError) as caught:
            calling()
        assert str(caught.value) == f"{call}() takes an active state, got {wrong!r}"
    assert names(machine) == ["Root", "Leaf"]


def test_apply_transition_of_another_machines_state_names_both_machines() -> None:
    mine, theirs = started("mine"), started("theirs")
    with pytest.raises(st.UsageError, match=r"that state belongs to machine 'theirs'"):
        mine.apply_transition(theirs.stack[0], st.sibling(Leaf))
    assert names(theirs) == ["Root", "Leaf"]


@pytest.mark.parametrize("bound", ["10", 2.5, True, None])
def test_max_transitions_must_be_a_whole_number(bound: Any) -> None:
    expected = (
        f"max_transitions must be a whole number of changes, at least 1; got {bound!r} "
        f"({type(bound).__name__})"
    )
    with pytest.raises(st.UsageError) as at_build:
        st.StateMachine(Root, max_transitions=bound)
    assert str(at_build.value) == expected
    machine = st.StateMachine(Root, max_transitions=7)
    with pytest.raises(st.UsageError) as at_set:
        machine.max_transitions = bound
    assert str(at_set.value) == expected
    assert machine.max_transitions == 7


def test_max_transitions_takes_any_integer_type() -> None:
    class Count:
        def __index__(self) -> int:
            return 12

    machine = st.StateMachine(Root, max_transitions=Count())
    assert machine.max_transitions == 12


def test_a_trace_sink_that_cannot_be_called_is_refused_at_once() -> None:
    with pytest.raises(st.UsageError) as caught:
        st.StateMachine(Root, trace=st.TraceLevel.BASIC, trace_sink=5)  # type: ignore[arg-type]
    assert str(caught.value) == "trace_sink must be callable, got 5 (int)"


def test_add_listener_refuses_what_cannot_be_called() -> None:
    machine = started("npc")
    with pytest.raises(st.UsageError) as caught:
        machine.add_listener(42)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "add_listener(42) on machine 'npc': a listener must be callable with one Step, got int"
    )
    machine.exit(machine.stack[1])
    machine.process_state_transitions()  # nothing broken was attached
    assert names(machine) == ["Root", "Leaf"]


def test_a_state_value_must_be_given_to_set_it() -> None:
    class Holder(st.State):
        def on_enter(self) -> None:
            self.set_state_value(5, 5)  # type: ignore[arg-type]

    machine = st.StateMachine(Holder)
    with pytest.raises(st.StateValueError) as refused:
        machine.process_state_transitions()
    assert str(refused.value) == (
        "set_state_value() needs a StateValue (st.StateValue(initial)), got 5"
    )


@pytest.mark.parametrize("query", ["Leaf", None, 3])
@pytest.mark.parametrize("started_first", [False, True])
def test_a_query_for_what_is_no_state_class_is_refused(query: Any, started_first: bool) -> None:
    machine = started("npc") if started_first else st.StateMachine(Root, Recorder())

    for call, ask in (
        ("is_in_state", machine.is_in_state),
        ("get_state", machine.get_state),
    ):
        with pytest.raises(st.UsageError) as refused:
            ask(query)
        assert str(refused.value) == (
            f"{call}() takes a state class (or a tuple of them), got {query!r}; e.g. "
            f"{call}(Jump), not {call}('Jump')"
        )
    assert machine.is_in_state((Root, Leaf)) is started_first


def test_a_states_own_queries_refuse_what_is_no_state_class() -> None:
    machine = started("npc")
    root, leaf = machine.stack

    for call, ask in (
        ("get_outer_state", leaf.get_outer_state),
        ("get_inner_state", root.get_inner_state),
        ("get_immediate_inner_state", root.get_immediate_inner_state),
        ("is_in_state", leaf.is_in_state),
        ("is_in_outer_state", leaf.is_in_outer_state),
        ("is_in_inner_state", root.is_in_inner_state),
        ("is_in_immediate_inner_state", root.is_in_immediate_inner_state),
    ):
        with pytest.raises(st.UsageError, match=f"^{call}\\(\\) takes a state class"):
            ask("Root")  # type: ignore[arg-type]


def test_a_state_class_given_where_an_active_state_is_needed_is_named() -> None:
    machine = started("npc")
    for call, calling in (
        ("exit", lambda: machine.exit(Leaf)),  # type: ignore[arg-type]
        ("apply_transition", lambda: machine.apply_transition(Leaf, st.sibling(Leaf))),  # type: ignore[arg-type]
    ):
        with pytest.raises(st.UsageError) as refused:
            calling()
        assert str(refused.value) == (
            f"{call}() takes an active state, got the class Leaf; find its instance with "
            "get_state(Leaf)"
        )
    assert names(machine) == ["Root", "Leaf"]


class Gives(st.State[list[str]]):
    def update(self) -> st.Transition:  # a C++ port's habit: the transition is dropped
        return st.sibling(Takes)


class Takes(st.State[list[str]]):
    def on_enter(self) -> st.Transition:  # type: ignore[override]
        return st.sibling(Gives)


def test_a_transition_returned_from_update_or_on_enter_is_refused_not_dropped() -> None:
    machine = st.StateMachine(Gives, [])
    machine.process_state_transitions()
    with pytest.raises(st.TransitionTargetError) as refused:
        machine.update_states()
    assert str(refused.value) == (
        "Gives.update() returned sibling(Takes), which the machine would drop: return "
        "transitions from transition(), which it calls every processing"
    )
    entering = st.StateMachine(Takes, [])
    with pytest.raises(st.TransitionTargetError, match=r"^Takes.on_enter\(\) returned sibling"):
        entering.process_state_transitions()
    assert entering.active_names == ()  # never entered, as when on_enter raises


class NeedsCombo(st.State[None]):
    def on_enter(self, combo: int) -> None:
        pass


def test_a_first_state_missing_its_arguments_says_how_to_give_them() -> None:
    machine = st.StateMachine(NeedsCombo)
    with pytest.raises(st.StateArgumentError) as refused:
        machine.process_state_transitions()
    assert str(refused.value).endswith(
        "; give the machine its first state's arguments: StateMachine(st.sibling(NeedsCombo, ...))"
    )


def test_a_trace_sink_that_raises_leaves_no_state_unentered_on_the_stack() -> None:
    owner = Recorder()

    def sink() -> None:  # takes no line: calling it raises
        raise AssertionError("never called with no argument")

    machine = st.StateMachine(Root, owner, trace=st.TraceLevel.BASIC, trace_sink=sink)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        machine.process_state_transitions()

    assert (machine.stack, owner.log) == ((), [])
    machine.stop()
    assert owner.log == []  # nothing entered, so nothing exits


@dataclasses.dataclass
class Twin(Logged):
    """A state that compares equal to any other of its class (a dataclass's ``==``)."""

    speed: float = 1.0

    def transition(self) -> st.Transition | None:
        return st.sibling(Twin) if self.owner.flags.pop("restart", False) else None


class TwinHost(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Twin)


def test_states_are_told_apart_by_identity_not_by_equality() -> None:
    owner = Recorder()
    machine = st.StateMachine(TwinHost, owner)
    machine.process_state_transitions()
    stale = machine.stack[1]
    owner.flags["restart"] = True
    machine.process_state_transitions()  # restarts once (a sibling of itself), then settles
    live = machine.stack[1]
    assert live == stale and live is not stale

    with pytest.raises(st.UsageError, match="is not an active state"):
        machine.exit(stale)
    with pytest.raises(st.UsageError, match="is not an active state"):
        _ = stale.depth
    assert machine.stack == (machine.stack[0], live) and live.depth == 1


@pytest.mark.parametrize("level", [None, "BASIC", 5, True])
def test_a_trace_level_that_is_none_of_the_three_is_refused_and_changes_nothing(
    level: Any,
) -> None:
    message = (
        "a trace level is one of TraceLevel.NONE, TraceLevel.BASIC, TraceLevel.DIAGNOSTIC, "
        f"got {level!r}"
    )
    with pytest.raises(st.UsageError) as refused:
        st.StateMachine(Root, trace=level)
    assert str(refused.value) == message
    machine = started("npc")
    with pytest.raises(st.UsageError) as refused:
        machine.set_debug_info("renamed", level)
    assert str(refused.value) == message
    assert (machine.name, machine.trace_level) == ("npc", st.TraceLevel.NONE)


def test_a_value_modify_state_value_cannot_copy_is_refused_and_nothing_is_held() -> None:
    class Locked:
        def __init__(self) -> None:
            self.lock = threading.Lock()

    value = st.StateValue(Locked())
    refusals: list[str] = []

    class Holder(st.State):
        def on_enter(self) -> None:
            try:
                self.modify_state_value(value)
            except st.StateValueError as error:
                refusals.append(str(error))
            self.set_state_value(value, None)  # a new value is the way; restored on exit

    original = value.value
    machine = st.StateMachine(Holder)
    machine.process_state_transitions()
    machine.stop()

    assert refusals[0].startswith(
        "modify_state_value() needs a value it can copy (copy.deepcopy), to restore it when "
    )
    assert refusals[0].endswith("; use set_state_value() with a new value instead")
    assert len(refusals) == 1
    assert value.value is original


@pytest.mark.parametrize("kind", [0, 5, True, "sibling"], ids=repr)
def test_a_transition_is_built_with_a_transition_kind_only(kind: object) -> None:
    # An int equal to a kind would compare equal to the real transition yet move the stack
    # otherwise (the machine reads the kind by identity): refused, as any other value.
    with pytest.raises(st.TransitionTargetError) as caught:
        st.Transition(kind, Leaf)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "a transition's kind must be a TransitionKind (st.TransitionKind.SIBLING, INNER, "
        f"INNER_ENTRY or CONCURRENT), got {kind!r}"
    )
    assert st.Transition(st.TransitionKind.SIBLING, Leaf) == st.sibling(Leaf)


class Legs(Logged):
    pass


def test_a_machine_cannot_start_with_regions_of_no_host() -> None:
    message = (
        "StateMachine's initial transition cannot be concurrent(Legs, Leaf): regions need a "
        "host state; start with a state whose transition() returns it"
    )
    with pytest.raises(st.TransitionTargetError) as caught:
        st.StateMachine(st.concurrent(Legs, Leaf), Recorder())
    assert str(caught.value) == message
    machine = started("npc")
    with pytest.raises(st.TransitionTargetError) as caught:
        machine.initial = st.concurrent(Legs, Leaf)
    assert str(caught.value) == message
    assert machine.initial == st.sibling(Root)
    assert names(machine) == ["Root", "Leaf"]


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (
            lambda: st.Transition(st.TransitionKind.SIBLING, Leaf, 5),  # type: ignore[arg-type]
            st.StateArgumentError,
            "a transition's args must be a tuple and its kwargs a mapping, got int and "
            "mappingproxy",
        ),
        (
            lambda: st.Transition(st.TransitionKind.SIBLING, Leaf, (), None),  # type: ignore[arg-type]
            st.StateArgumentError,
            "a transition's args must be a tuple and its kwargs a mapping, got tuple and NoneType",
        ),
        (
            lambda: st.Transition(st.TransitionKind.CONCURRENT, Leaf, regions=5),  # type: ignore[arg-type]
            st.TransitionTargetError,
            "a concurrent transition, and it alone, has regions",
        ),
        (
            lambda: st.Transition(st.TransitionKind.CONCURRENT, Leaf),
            st.TransitionTargetError,
            "a concurrent transition, and it alone, has regions",
        ),
        (
            lambda: st.Transition(st.TransitionKind.INNER, Leaf, regions=(Leaf,)),
            st.TransitionTargetError,
            "got inner with regions",
        ),
    ],
)
def test_a_transition_built_by_hand_is_checked_as_the_helpers_build_it(
    build: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        build()
    assert message in str(caught.value)


def test_machine_tools_refuse_what_they_cannot_take() -> None:
    machine = started("npc")
    with pytest.raises(st.TransitionTargetError, match=r"must be a State subclass"):
        machine.remove_state_override([Leaf])  # type: ignore[arg-type]
    with pytest.raises(st.UsageError, match=r"the cause must be a st\.Cause"):
        machine.caused_by("resimulation").__enter__()  # type: ignore[arg-type]
    assert machine.cause is st.Cause.TRANSITION
    with pytest.raises(st.UsageError, match=r"^format_step\(\) formats a Step"):
        st.format_step(42)  # type: ignore[arg-type]


def test_a_name_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(st.UsageError, match=r"a machine's name must be a str, got 5"):
        st.StateMachine(Root, Recorder(), name=5)  # type: ignore[arg-type]
    machine = started("npc")
    for change in (
        lambda: setattr(machine, "name", ["x"]),
        lambda: machine.set_debug_info(["x"], st.TraceLevel.BASIC),  # type: ignore[arg-type]
    ):
        with pytest.raises(st.UsageError, match=r"must be a str, got \['x'\]"):
            change()
    assert (machine.name, machine.trace_level) == ("npc", st.TraceLevel.NONE)


class Ported(st.State[list[str]]):
    """A port of the book's deferred transition that keeps it in ``self.transition``."""

    def on_enter(self) -> None:
        self.owner.append("enter")
        self.transition = None  # type: ignore[assignment,method-assign]

    def update(self) -> None:
        self.owner.append("update")

    def on_exit(self) -> None:
        self.owner.append("exit")


class HidesUpdate(Ported):
    def on_enter(self) -> None:
        self.update = 3  # type: ignore[assignment,method-assign]


class HidesExit(Ported):
    def on_enter(self) -> None:
        self.on_exit = "bye"  # type: ignore[assignment,method-assign]


def test_a_hook_hidden_by_an_attribute_is_named_with_its_state() -> None:
    log: list[str] = []
    machine = st.StateMachine(Ported, log)
    with pytest.raises(st.UsageError) as refused:
        machine.process_state_transitions()
    assert str(refused.value) == (
        "Ported set self.transition = None, which hides its transition() method that the "
        "machine calls: keep the value under another name (self._transition, say)"
    )
    assert isinstance(refused.value.__cause__, TypeError)
    assert names(machine) == ["Ported"] and log == ["enter"]

    updating = st.StateMachine(HidesUpdate, log)
    updating.start()
    with pytest.raises(st.UsageError, match=r"^HidesUpdate set self.update = 3, which hides"):
        updating.update_states()

    exiting = st.StateMachine(HidesExit, log)
    exiting.start()
    with pytest.raises(st.UsageError, match=r"^HidesExit set self.on_exit = 'bye', which hides"):
        exiting.stop()
    assert names(exiting) == []  # exited all the same, as when on_exit raises


class RaisesTypeError(st.State[list[str]]):
    def transition(self) -> st.Transition | None:
        raise TypeError("the hook's own error")


def test_a_type_error_from_inside_a_hook_propagates_unchanged() -> None:
    machine = st.StateMachine(RaisesTypeError, [])
    with pytest.raises(TypeError) as raised:
        machine.process_state_transitions()
    assert type(raised.value) is TypeError and str(raised.value) == "the hook's own error"


class ExitReturns(st.State[list[str]]):
    def on_exit(self) -> st.Transition:  # type: ignore[override]
        return st.sibling(Takes)


def test_a_transition_returned_from_on_exit_is_refused_not_dropped() -> None:
    machine = st.StateMachine(ExitReturns, [])
    machine.process_state_transitions()
    with pytest.raises(st.TransitionTargetError) as refused:
        machine.stop()
    assert str(refused.value).startswith("ExitReturns.on_exit() returned sibling(Takes), ")
    assert names(machine) == []
