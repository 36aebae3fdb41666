"""Time in state (opt-in) and the names of the active states."""

from __future__ import annotations

import math
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as hs

import statetree as st


class Alive(st.State[None]):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Charge)


class Charge(st.State[None]):
    """Charges for a second, then fires; fires at once again if restarted."""

    def transition(self) -> st.Transition | None:
        return st.sibling(Fire) if self.time_in_state >= 1.0 else None


class Fire(st.State[None]):
    def transition(self) -> st.Transition | None:
        return st.sibling(Charge) if self.time_in_state >= 0.5 else None


def frames(machine: st.StateMachine[None], *dts: float) -> list[str]:
    seen = []
    for dt in dts:
        machine.process_state_transitions()
        machine.update_states(dt)
        seen.append(machine.leaf_name)
    return seen


def test_time_in_state_sums_the_updates_since_the_state_was_entered() -> None:
    machine = st.StateMachine(Alive, time_in_state=True)
    assert machine.tracks_time
    assert frames(machine, 0.25, 0.25, 0.5, 0.25, 0.25) == [
        "Charge", "Charge", "Charge", "Fire", "Fire",
    ]  # fmt: skip
    alive, fire = machine.stack
    assert (alive.time_in_state, fire.time_in_state) == (1.5, 0.5)
    machine.process_state_transitions()
    assert machine.leaf_name == "Charge"
    assert machine.stack[-1].time_in_state == 0.0  # counts from its first update


def test_a_state_restarted_counts_from_zero_and_an_exited_one_has_no_time() -> None:
    machine = st.StateMachine(Alive, time_in_state=True)
    frames(machine, 1.0)
    charge = machine.stack[-1]
    machine.process_state_transitions()
    with pytest.raises(st.UsageError, match=r"is not active in .*: it has no time"):
        _ = charge.time_in_state


def test_time_in_state_is_opt_in() -> None:
    machine = st.StateMachine(Legs)
    machine.process_state_transitions()
    machine.update_states()  # no dt needed when time is not tracked
    assert not machine.tracks_time
    with pytest.raises(st.UsageError, match=r"StateMachine\(\.\.\., time_in_state=True\)"):
        _ = machine.stack[0].time_in_state


@pytest.mark.parametrize(
    ("args", "kwargs", "shown"),
    [
        ((), {}, "None"),
        (("1",), {}, "'1'"),
        ((-0.5,), {}, "-0.5"),
        ((math.inf,), {}, "inf"),
        ((), {"dt": math.nan}, "nan"),
        ((10**30 * 10**300,), {}, "1" + "0" * 330),
        ((-(10**400),), {}, "-1" + "0" * 400),
    ],
)
def test_a_tracking_machine_needs_the_frame_time(
    args: tuple[object, ...], kwargs: dict[str, object], shown: str
) -> None:
    machine = st.StateMachine(Alive, name="Gun", time_in_state=True)
    machine.process_state_transitions()
    with pytest.raises(st.UsageError) as caught:
        machine.update_states(*args, **kwargs)
    assert str(caught.value) == (
        "update_states() on machine 'Gun' tracks time in state, so it needs the "
        f"frame's time as its first argument or dt= (a finite number of seconds, at least 0); "
        f"got {shown}"
    )
    assert machine.stack[-1].time_in_state == 0.0
    machine.update_states(dt=0.5)
    assert machine.stack[-1].time_in_state == 0.5


def test_a_frame_that_would_take_a_time_past_the_largest_float_is_refused() -> None:
    machine = st.StateMachine(Legs, name="Gun", time_in_state=True)
    machine.process_state_transitions()
    machine.update_states(1e308)
    with pytest.raises(st.UsageError) as caught:
        machine.update_states(1e308)
    assert str(caught.value) == (
        "update_states(1e+308) on machine 'Gun' would take a time in state of 1e+308 past "
        "the largest float; nothing changed"
    )
    assert machine.stack[0].time_in_state == 1e308  # nothing changed: it still saves
    assert pickle.loads(pickle.dumps(machine)).stack[0].time_in_state == 1e308


@given(hs.lists(hs.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0]), max_size=30))
def test_each_active_state_s_time_is_the_sum_since_its_entry(dts: list[float]) -> None:
    machine = st.StateMachine(Alive, time_in_state=True)
    since: dict[st.State[None], float] = {}  # by state instance (states compare by identity)
    for dt in dts:
        machine.process_state_transitions()
        since = {state: since.get(state, 0.0) + dt for state in machine.stack}
        machine.update_states(dt)
        assert [state.time_in_state for state in machine.stack] == list(since.values())


class Host(st.State[None]):
    def transition(self) -> st.Transition | None:
        return st.concurrent(Legs, Arms)


class Legs(st.State[None]):
    pass


class Arms(st.State[None]):
    pass


def test_the_names_of_the_active_states() -> None:
    machine = st.StateMachine(Alive, time_in_state=True)
    with pytest.raises(st.NotStartedError):
        _ = machine.leaf_name
    assert machine.active_names == ()
    machine.process_state_transitions()
    assert machine.active_names == ("Alive", "Charge") and machine.leaf_name == "Charge"
    hosting = st.StateMachine(Host)
    hosting.process_state_transitions()
    assert hosting.active_names == ("Host", "Legs", "Arms")
    assert hosting.leaf_name == "Host"  # the innermost state of the main stack
