"""State values: set by active states, restored in reverse order right after on_exit."""

from __future__ import annotations

import copy
import gc
import pickle
import weakref
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


def test_a_state_value_has_no_truth_value() -> None:
    """A port of the C++ ``if (owner.mEnabled)`` must read ``.value``: testing the object
    itself would always be true."""
    enabled = st.StateValue(False)
    with pytest.raises(st.StateValueError, match=r"StateValue\(False\) has no truth value"):
        bool(enabled)
    with pytest.raises(st.StateValueError):
        assert not enabled
    assert enabled.value is False


class Cells:
    """A value compared cell by cell, as an array is: its comparison has no single truth."""

    def __eq__(self, other: object) -> Ambiguous:  # type: ignore[override]
        return Ambiguous()

    __hash__ = None  # type: ignore[assignment]  # compared by content, as an array


class Ambiguous:
    def __bool__(self) -> bool:
        raise ValueError("the truth value of several cells is ambiguous")


def test_a_state_value_compares_its_value_with_a_plain_value_as_cpp_converts_it() -> None:
    level = st.StateValue(1.0)

    class Boost(st.State[None]):
        def on_enter(self) -> None:
            self.set_state_value(level, 2.0)

    machine = st.StateMachine(Boost)
    assert level == 1.0 and 1.0 == level and level != 2.0  # noqa: SIM300
    machine.process_state_transitions()
    assert level == 2.0 and level in (2.0, 3.0)  # the value now, whoever set it
    twin = st.StateValue(2.0)
    assert level != twin and [level].index(level) == 0  # state values: equal when one object
    grid = st.StateValue(Cells())
    assert grid != 0.0 and 0.0 not in [grid]  # no single truth to compare: not equal
    assert {level: "level", twin: "twin"}[level] == "level"  # keys by identity
    machine.stop()
    assert level == 1.0


SHARED = st.StateValue(1.0)  # a value many machines override, such as a time scale


class SlowMotion(st.State[None]):
    def on_enter(self) -> None:
        self.set_state_value(SHARED, 0.25)


class Pause(st.State[None]):
    def on_enter(self) -> None:
        self.set_state_value(SHARED, 0.0)


def test_a_machine_dropped_without_stop_gives_its_values_back_when_freed() -> None:
    """As the C++ library's state destructor does; and the shared value keeps no machine
    alive."""
    slow = st.StateMachine(SlowMotion)
    slow.start()
    pause = st.StateMachine(Pause)
    pause.start()
    assert SHARED.value == 0.0
    slow_gone, pause_gone = weakref.ref(slow), weakref.ref(pause)
    del pause
    gc.collect()
    assert (pause_gone(), SHARED.value) == (None, 0.25)
    del slow
    gc.collect()
    assert (slow_gone(), SHARED.value) == (None, 1.0)
    SHARED.set_initial_value(2.0)  # no state holds it any more
    assert SHARED.value == 2.0
    SHARED.set_initial_value(1.0)


def test_a_dropped_machine_restores_what_it_found_whatever_came_after() -> None:
    shared = st.StateValue("initial")

    class First(st.State[None]):
        def on_enter(self) -> None:
            self.set_state_value(shared, "first")

    class Second(st.State[None]):
        def on_enter(self) -> None:
            self.set_state_value(shared, "second")

    first = st.StateMachine(First)
    first.start()
    second = st.StateMachine(Second)
    second.start()
    del first
    gc.collect()
    assert shared.value == "initial"  # what First found, as its destructor would restore
    second.stop()
    assert shared.value == "first"  # what Second found


LEVEL = st.StateValue("default")


class Outer(st.State[None]):
    def on_enter(self) -> None:
        self.set_state_value(LEVEL, "outer")  # finds "default"

    def transition(self) -> st.Transition | None:
        return st.inner_entry(Inner)


class Inner(st.State[None]):
    def on_enter(self) -> None:
        self.set_state_value(LEVEL, "inner")  # finds "outer"


def test_a_dropped_machines_states_give_back_innermost_first() -> None:
    """Whatever order the collector frees them in, as the machine's destruction would."""
    for _ in range(20):
        machine = st.StateMachine(Outer)
        machine.process_state_transitions()
        assert LEVEL.value == "inner"
        del machine
        gc.collect()
        assert LEVEL.value == "default"
        assert LEVEL._holders == []


def _left_by(initial: type[st.State[None]], level: st.StateValue[float], drop: bool) -> float:
    """The value ``level`` is left at once a machine starting in ``initial`` has run a
    frame from 7 and is then dropped (collected) or stopped."""
    level.set_initial_value(7.0)
    machine = st.StateMachine(initial)
    machine.process_state_transitions()
    machine.update_states(0.0)
    if drop:
        del machine
        gc.collect()
    else:
        machine.stop()
    return level.value


def test_a_dropped_machine_gives_back_in_stack_order_whatever_order_its_states_wrote() -> None:
    """stop() and the collector agree: Below puts back 7, then Top puts back 1."""
    level = st.StateValue(7.0)

    class Top(st.State[None]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Below)

        def update(self, dt: float) -> None:
            self.set_state_value(level, 4.0)  # changes it after Below: finds 1

    class Below(st.State[None]):
        def on_enter(self) -> None:
            self.set_state_value(level, 1.0)  # finds 7

    assert _left_by(Top, level, drop=False) == _left_by(Top, level, drop=True) == 1.0


def test_a_dropped_machine_gives_back_its_regions_values_as_stop_does() -> None:
    """stop() exits the last region first: Second puts back 7, then First puts back 2."""
    level = st.StateValue(7.0)

    class Host(st.State[None]):
        def transition(self) -> st.Transition | None:
            return st.concurrent(First, Second)

    class First(st.State[None]):
        def update(self, dt: float) -> None:
            self.set_state_value(level, 1.0)  # changes it after Second: finds 2

    class Second(st.State[None]):
        def on_enter(self) -> None:
            self.set_state_value(level, 2.0)  # finds 7

    assert _left_by(Host, level, drop=False) == _left_by(Host, level, drop=True) == 2.0


def test_a_value_restored_by_the_collector_is_settled_before_any_use() -> None:
    shared = st.StateValue([1])

    class Holder(st.State[None]):
        def on_enter(self) -> None:
            self.modify_state_value(shared).append(2)

    machine = st.StateMachine(Holder)
    machine.process_state_transitions()
    assert shared.value == [1, 2]
    del machine
    gc.collect()
    assert repr(shared) == "StateValue([1])"
    shared.set_initial_value([3])  # nothing holds it any more
    assert pickle.loads(pickle.dumps(shared)).value == [3]


PRESET = Params(speed=9.0)


class Preset(st.State[None]):
    """Sets a shared preset, then edits the value (C++: ``SetStateValue(p) = PRESET;
    SetStateValue(p).speed = 1``, which copies the preset first)."""

    def on_enter(self) -> None:
        self.set_state_value(PARAMS, PRESET)
        self.edited = self.modify_state_value(PARAMS)
        self.edited.speed = 1.0

    def transition(self) -> st.Transition | None:
        return st.inner_entry(Nudge)


class Nudge(st.State[None]):
    def on_enter(self) -> None:
        self.modify_state_value(PARAMS).speed = 2.0


class Rest(st.State[None]):
    pass


PARAMS = st.StateValue(Params())


def test_editing_after_setting_never_changes_the_object_given() -> None:
    machine = st.StateMachine(Preset)
    machine.process_state_transitions()
    preset = machine.get_state(Preset)
    assert preset is not None
    assert (PARAMS.value.speed, PRESET.speed) == (2.0, 9.0)
    assert PARAMS.value is not preset.edited  # the inner state edits a copy of its own
    nudge = machine.get_state(Nudge)
    assert nudge is not None
    machine.apply_transition(nudge, st.sibling(Rest))
    machine.process_state_transitions()
    # The outer state's copy is live again, and it goes on editing that same object.
    assert PARAMS.value is preset.edited and PARAMS.value.speed == 1.0
    assert preset.modify_state_value(PARAMS) is preset.edited
    machine.stop()
    assert (PARAMS.value, PRESET) == (Params(), Params(speed=9.0))


class Holder:
    """An owner whose value a state edits in place, keeping the object it was given."""

    def __init__(self) -> None:
        self.params = st.StateValue(Params())
        self.machine = st.StateMachine(Tuned, self)


class Tuned(st.State[Holder]):
    def on_enter(self) -> None:
        self.live = self.modify_state_value(self.owner.params)  # the live object to edit
        self.live.speed = 0.0

    def update(self) -> None:
        self.modify_state_value(self.owner.params).gravity -= 1.0  # the same object again
        self.live.speed += 1.0


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_loaded_state_goes_on_editing_the_live_value_it_kept(how: str) -> None:
    original = Holder()
    original.machine.process_state_transitions()
    original.machine.update_states()
    loaded = pickle.loads(pickle.dumps(original)) if how == "pickle" else copy.deepcopy(original)
    for holder in (original, loaded):
        for _ in range(3):
            holder.machine.update_states()
        (state,) = holder.machine.stack
        assert state.live is holder.params.value  # type: ignore[attr-defined]
    assert loaded.params.value == original.params.value == Params(speed=4.0, gravity=-13.8)
    loaded.machine.stop()
    assert loaded.params.value == Params()
