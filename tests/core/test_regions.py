"""Concurrent regions: a state whose regions are all active at once, each its own stack."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from core_support import Logged, Recorder, names

import statetree as st


class Alive(Logged):
    def transition(self) -> st.Transition | None:
        if self.owner["dead"]:
            return st.sibling(Dead)
        return st.concurrent(Upper, Lower)


class Dead(Logged):
    pass


class Upper(Logged):
    def on_enter(self) -> None:
        super().on_enter()
        self.owner.flags["reload"] = False

    def transition(self) -> st.Transition | None:
        if self.owner["reload"]:
            return st.sibling(Upper)  # restart the region from its root
        return st.inner_entry(Aim if self.owner["aim"] else Idle)


class Idle(Logged):
    def transition(self) -> st.Transition | None:
        return st.sibling(Aim) if self.owner["aim"] else None


class Aim(Logged):
    def transition(self) -> st.Transition | None:
        return None if self.owner["aim"] else st.sibling(Idle)


class Lower(Logged):
    def transition(self) -> st.Transition | None:
        return st.inner(Run if self.owner["run"] else Stand)


class Stand(Logged):
    pass


class Run(Logged):
    def on_enter(self) -> None:
        super().on_enter()
        self.owner.log.append(f"Run sees Upper={self.is_in_outer_state(Upper)}")
        self.owner.log.append(f"Run sees Alive={self.is_in_outer_state(Alive)}")


def started(owner: Recorder, trace: list[str] | None = None) -> st.StateMachine[Recorder]:
    machine = st.StateMachine(
        Alive,
        owner,
        name="Hero",
        trace=st.TraceLevel.DIAGNOSTIC if trace is not None else st.TraceLevel.NONE,
        trace_sink=trace.append if trace is not None else None,
    )
    machine.process_state_transitions()
    return machine


def test_regions_enter_in_order_and_settle_each(owner: Recorder) -> None:
    trace: list[str] = []
    machine = started(owner, trace)
    assert trace == [
        "HSM_1_Hero: Init    : Alive",
        "HSM_1_Hero:  Region  : Upper",
        "HSM_1_Hero:  Region  : Lower",
        "HSM_1_Hero:   Entry   : Idle",
        "HSM_1_Hero:   Inner   : Stand",
    ]
    assert names(machine) == ["Alive", "Upper", "Idle", "Lower", "Stand"]
    assert [s.depth for s in machine.stack] == [0, 1, 2, 1, 2]
    alive = machine.stack[0]
    assert [[type(s).__name__ for s in region] for region in machine.regions(alive)] == [
        ["Upper", "Idle"],
        ["Lower", "Stand"],
    ]


def test_each_region_transitions_on_its_own(owner: Recorder) -> None:
    machine = started(owner)
    owner.log.clear()
    owner.flags.update(aim=True, run=True)
    machine.process_state_transitions()
    assert names(machine) == ["Alive", "Upper", "Aim", "Lower", "Run"]
    assert owner.log == [
        "Idle.exit",
        "Aim.enter",
        "Stand.exit",
        "Run.enter",
        "Run sees Upper=False",
        "Run sees Alive=True",
    ]


def test_region_root_can_restart_its_region(owner: Recorder) -> None:
    machine = started(owner)
    lower_states = machine.stack[3:]
    owner.log.clear()
    owner.flags["reload"] = True
    machine.process_state_transitions()
    # Upper siblings to itself: its region restarts, the other region is untouched.
    assert owner.log == ["Idle.exit", "Upper.exit", "Upper.enter", "Idle.enter"]
    assert machine.stack[3:] == lower_states


def test_updates_walk_regions_depth_first(owner: Recorder) -> None:
    machine = started(owner)
    owner.log.clear()
    machine.update_states()
    assert owner.log == [
        "Alive.update",
        "Upper.update",
        "Idle.update",
        "Lower.update",
        "Stand.update",
    ]


def test_host_exit_pops_regions_last_first_innermost_first(owner: Recorder) -> None:
    trace: list[str] = []
    machine = started(owner, trace)
    owner.log.clear()
    trace.clear()
    owner.flags["dead"] = True
    machine.process_state_transitions()
    assert owner.log == [
        "Stand.exit",
        "Lower.exit",
        "Idle.exit",
        "Upper.exit",
        "Alive.exit",
        "Dead.enter",
    ]
    assert trace == [
        "HSM_2_Hero:   Pop     : Stand",
        "HSM_2_Hero:  Pop     : Lower",
        "HSM_2_Hero:   Pop     : Idle",
        "HSM_2_Hero:  Pop     : Upper",
        "HSM_2_Hero: Pop     : Alive",
        "HSM_1_Hero: Sibling : Dead",
    ]
    assert machine.regions(machine.stack[0]) == ()
    for wrong in (42, None, type(machine.stack[0])):
        with pytest.raises(st.UsageError) as refused:
            machine.regions(wrong)  # type: ignore[arg-type]
        assert str(refused.value) == f"regions() takes a state, got {wrong!r}"


def test_queries_see_regions(owner: Recorder) -> None:
    machine = started(owner)
    alive, upper, idle, lower, stand = machine.stack
    assert machine.get_state(Stand) is stand
    assert alive.get_inner_state(Stand) is stand
    assert alive.get_immediate_inner_state(Lower) is lower
    assert alive.get_immediate_inner_state(Stand) is None
    assert upper.get_inner_state(Stand) is None
    assert upper.get_immediate_inner_state(Idle) is idle
    assert stand.get_outer_state(Lower) is lower
    assert stand.get_outer_state(Upper) is None
    assert stand.get_outer_state(Alive) is alive
    assert stand.is_in_state(Idle)


def test_state_values_in_regions_restore_on_exit(owner: Recorder) -> None:
    value = st.StateValue("none")

    class Host(Logged):
        def transition(self) -> st.Transition | None:
            return None if self.owner["done"] else st.concurrent(Left, Right)

    class Left(Logged):
        def on_enter(self) -> None:
            self.set_state_value(value, "left")

    class Right(Logged):
        def on_enter(self) -> None:
            self.set_state_value(value, "right")

    class Top(Logged):
        def transition(self) -> st.Transition | None:
            return st.inner(Idle) if self.owner["done"] else st.inner_entry(Host)

    machine = st.StateMachine(Top, owner)
    machine.process_state_transitions()
    assert value.value == "right"
    owner.flags["done"] = True
    machine.process_state_transitions()
    assert value.value == "none"
    assert names(machine) == ["Top", "Idle"]


def test_concurrent_needs_roots() -> None:
    with pytest.raises(st.TransitionTargetError, match="at least one region root"):
        st.concurrent()
    with pytest.raises(st.TransitionTargetError, match="got 3"):
        st.concurrent(Upper, 3)  # type: ignore[arg-type]
    assert st.concurrent(Upper, Lower) is st.concurrent(Upper, Lower)
    assert repr(st.concurrent(Upper, Lower)) == "concurrent(Upper, Lower)"


def test_inner_from_a_host_exits_its_regions(owner: Recorder) -> None:
    class Host(Logged):
        def transition(self) -> st.Transition | None:
            return st.inner(Solo) if self.owner["solo"] else st.concurrent(Upper, Lower)

    class Solo(Logged):
        pass

    machine = st.StateMachine(Host, owner)
    machine.process_state_transitions()
    owner.log.clear()
    owner.flags["solo"] = True
    machine.process_state_transitions()
    assert names(machine) == ["Host", "Solo"]
    assert owner.log == ["Stand.exit", "Lower.exit", "Idle.exit", "Upper.exit", "Solo.enter"]


def test_an_exited_region_is_entered_again_by_its_host(owner: Recorder) -> None:
    machine = started(owner)
    lower = machine.stack[3]
    owner.log.clear()
    machine.exit(lower)
    assert names(machine) == ["Alive", "Upper", "Idle"]
    machine.process_state_transitions()
    assert names(machine) == ["Alive", "Upper", "Idle", "Lower", "Stand"]
    assert owner.log == ["Stand.exit", "Lower.exit", "Lower.enter", "Stand.enter"]


@dataclasses.dataclass
class Deck(Logged):
    """A region host that any other deck equals (a dataclass's ``==``), so it has no hash."""

    cards: int = 0

    def transition(self) -> st.Transition | None:
        return st.concurrent(Left, Right)


class Left(Logged):
    def transition(self) -> st.Transition | None:
        decks = [s for s in self.machine.walk() if isinstance(s, Deck)]
        return st.inner_entry(Deck) if len(decks) < 2 else None


class Right(Logged):
    pass


def test_hosts_that_compare_equal_or_have_no_hash_keep_their_own_regions(owner: Recorder) -> None:
    machine = st.StateMachine(Deck, owner)
    machine.process_state_transitions()
    outer, inner = (s for s in machine.walk() if isinstance(s, Deck))
    assert outer == inner and outer is not inner
    assert [type(s).__name__ for s in machine.walk()] == [
        "Deck",
        "Left",
        "Deck",
        "Left",
        "Right",
        "Right",
    ]
    assert [[type(s).__name__ for s in r] for r in machine.regions(outer)] == [
        ["Left", "Deck"],
        ["Right"],
    ]
    assert [[type(s).__name__ for s in r] for r in machine.regions(inner)] == [["Left"], ["Right"]]

    copy = pickle.loads(pickle.dumps(machine))
    assert [type(s).__name__ for s in copy.walk()] == [type(s).__name__ for s in machine.walk()]

    owner.log.clear()
    machine.stop()
    assert owner.log == [
        "Right.exit",
        "Right.exit",
        "Left.exit",
        "Deck.exit",
        "Left.exit",
        "Deck.exit",
    ]


class Switch(st.State[list[str]]):
    def transition(self) -> st.Transition:
        if "solo" in self.owner:
            return st.inner_entry(Solo)
        return st.concurrent(Top, Bottom)


class Top(st.State[list[str]]):
    pass


class Bottom(st.State[list[str]]):
    pass


class Solo(st.State[list[str]]):
    pass


def test_a_hosts_inner_entry_waits_while_a_region_holds_a_state() -> None:
    choice: list[str] = []
    machine = st.StateMachine(Switch, choice)
    machine.process_state_transitions()
    choice.append("solo")
    machine.process_state_transitions()  # the host has inner states: nothing changes
    assert [type(state).__name__ for state in machine.stack] == ["Switch", "Top", "Bottom"]
    machine.exit(machine.get_state(Top))
    machine.process_state_transitions()  # Bottom is still there
    assert [type(state).__name__ for state in machine.stack] == ["Switch", "Bottom"]
    machine.exit(machine.get_state(Bottom))
    machine.process_state_transitions()  # no region holds a state: Solo is entered
    assert [type(state).__name__ for state in machine.stack] == ["Switch", "Solo"]
    assert machine.regions(machine.stack[0]) == ()
