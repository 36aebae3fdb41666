"""A save whose data was damaged (or written by hand) loads as nothing: each kind of machine
refuses it with the library's error, ``LoadError`` or, for an impossible snapshot or mask,
``DecodeError``, and the loader never half-builds a machine that fails later."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Callable
from typing import Any

import pytest
from bitmask_player import Player

import statetree as st
from statetree.chart import ChartBatch, ChartMachine, Event
from statetree.chart import builder as b


class Walk(st.State[Any]):
    def on_enter(self, speed: float = 1.0) -> None:
        self.speed = speed


class Idle(st.State[Any]):
    def transition(self) -> st.Transition:
        return st.inner(Walk, 2.0)


CHART = b.chart(
    "Door",
    b.state(
        "Door",
        b.state("Closed", transitions=[b.on(b.input("Open"), "Open")]),
        b.state(
            "Open",
            enter=[b.start_timer("Shut", 2.0)],
            transitions=[b.on(b.timer("Shut"), "Closed")],
        ),
    ),
)


def state_of(machine: Any) -> tuple[Callable[[], Any], dict[str, Any]]:
    """A blank machine of ``machine``'s kind (as a load makes it) and its saved data."""
    loader, args, saved = machine.__reduce__()
    return (lambda: loader(*args)), dict(saved)


def core() -> Any:
    machine = st.StateMachine(Idle, name="Hero", trace=st.TraceLevel.BASIC, trace_sink=print)
    machine.process_state_transitions()
    return machine


def chart() -> Any:
    machine = ChartMachine(CHART)
    machine.send(Event("input", "Open"))
    return machine


def batch() -> Any:
    crowd = ChartBatch(CHART, 3)
    crowd.send(Event("input", "Open"), [1])
    return crowd


def bitmask() -> Any:
    return Player("p1", ammo=2).machine


DAMAGE: list[tuple[Callable[[], Any], str, object, type[Exception], str]] = [
    (core, "stack", ["Walk"], st.LoadError, "damaged machine: its stack holds what is not"),
    (core, "stack", None, st.LoadError, "damaged machine: its initial transition or its stack"),
    (core, "initial", "Alive", st.LoadError, "damaged machine: its initial transition or"),
    (core, "trace", 99, st.LoadError, "the save holds a damaged machine"),
    (core, "max_transitions", "x", st.LoadError, "its max_transitions is not a count: 'x'"),
    (core, "regions", 5, st.LoadError, "the save holds a damaged machine"),
    (core, "owner", KeyError, st.LoadError, "damaged machine: it lacks 'owner'"),
    (core, "events", 7, st.LoadError, "damaged machine: its pending events are not a list"),
    (core, "timers", [("a", "x")], st.LoadError, "its times in state are not pairs of a state"),
    (core, "timers", [], st.LoadError, "damaged machine: an active state has no time in state"),
    (core, "sink", 0, st.LoadError, "damaged machine: its trace sink is not callable: 0"),
    (core, "regions", [("host", [])], st.LoadError, "its regions are not pairs of a host state"),
    (core, "events", [None], st.LoadError, "its pending events are not a list of events"),
    (core, "overrides", [(Walk, int)], st.LoadError, "its state overrides are not pairs of"),
    (chart, "handlers", [], st.LoadError, "the save holds a damaged chart machine"),
    (chart, "on_action", 5, st.LoadError, "damaged chart machine: on_action must be callable"),
    (chart, "max_transitions", 0, st.LoadError, "max_transitions must be at least 1, got 0"),
    (chart, "name", 7, st.LoadError, "damaged chart machine: its name is not a string: 7"),
    (chart, "snapshot", b"STMACHN1{", st.DecodeError, "a chart machine snapshot is JSON"),
    (batch, "chart", "x", st.LoadError, "its chart is not a compiled chart: 'x'"),
    (batch, "backend", "cuda", st.LoadError, "its backend is not one of numba, numpy: 'cuda'"),
    (batch, "name", KeyError, st.LoadError, "the save holds a damaged chart batch"),
    (batch, "snapshot", b"STBATCH1", st.DecodeError, "batch snapshot"),
    (batch, "name", 5, st.LoadError, "damaged chart batch: its name is not a string: 5"),
    (bitmask, "mask", 1 << 40, st.DecodeError, "is set but only"),
    (bitmask, "mask", "x", st.DecodeError, "a mask is an integer, got 'x'"),
    (bitmask, "states", (), st.LoadError, "it does not hold one state of each of"),
    (bitmask, "definition", "x", st.LoadError, "its definition is not one: 'x'"),
    (bitmask, "seq", KeyError, st.LoadError, "damaged bitmask machine: it lacks 'seq'"),
]


@pytest.mark.parametrize(
    ("make", "key", "value", "error", "message"),
    DAMAGE,
    ids=[f"{make.__name__}-{key}-{value!r}"[:60] for make, key, value, _, _ in DAMAGE],
)
def test_damaged_data_is_refused_with_the_librarys_error(
    make: Callable[[], Any], key: str, value: object, error: type[Exception], message: str
) -> None:
    blank, saved = state_of(make())
    if value is KeyError:
        del saved[key]
    else:
        saved[key] = value
    with pytest.raises(error, match=message) as refused:
        blank().__setstate__(saved)
    assert isinstance(refused.value, st.StateTreeError)


def _stack_twice(saved: dict[str, Any]) -> None:
    saved["stack"] = [saved["stack"][0], *saved["stack"]]


def _values_of_int(saved: dict[str, Any]) -> None:
    saved["values"] = [(saved["stack"][0], 5)]


def _values_of_inactive(saved: dict[str, Any]) -> None:
    saved["values"] = [(Walk(), [st.StateValue(1)])]


def _own_attribute(saved: dict[str, Any]) -> None:
    saved["attributes"] = {"_stack": 5}


def _bound_too_large(saved: dict[str, Any]) -> None:
    saved["max_transitions"] = sys.maxsize + 1


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (_stack_twice, "a state instance is active twice"),
        (_values_of_int, "its state values are not pairs of an active state and a list"),
        (_values_of_inactive, "its state values are not pairs of an active state and a list"),
        (_own_attribute, "its attributes are not a mapping of the subclass's own attributes"),
        (_bound_too_large, "its max_transitions is not a count"),
    ],
)
def test_a_core_save_no_machine_could_write_is_refused(
    damage: Callable[[dict[str, Any]], None], message: str
) -> None:
    blank, saved = state_of(core())
    damage(saved)
    with pytest.raises(st.LoadError, match=message):
        blank().__setstate__(saved)


def _states_reversed(saved: dict[str, Any]) -> None:
    saved["states"] = tuple(reversed(saved["states"]))


def _history_of_a_string_cause(saved: dict[str, Any]) -> None:
    size, changes = saved["history"]
    assert changes  # the machine recorded a change: its cause becomes a string
    saved["history"] = (size, [(*change[:3], "weird", *change[4:]) for change in changes])


def _history_of_no_size(saved: dict[str, Any]) -> None:
    saved["history"] = (None, [])


def _history_of_no_state(saved: dict[str, Any]) -> None:
    size, changes = saved["history"]
    saved["history"] = (size, [(change[0], 99, *change[2:]) for change in changes])


def _name_of_a_list(saved: dict[str, Any]) -> None:
    saved["name"] = ["p1"]


def _seq_of_a_string(saved: dict[str, Any]) -> None:
    saved["seq"] = "12"


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (_states_reversed, "it does not hold one state of each of"),
        (_history_of_a_string_cause, "its history is not the changes a machine records"),
        (_history_of_no_size, "its history is not the changes a machine records"),
        (_history_of_no_state, "its history is not the changes a machine records"),
        (_name_of_a_list, r"its name is not a string: \['p1'\]"),
        (_seq_of_a_string, "its change count is not a count: '12'"),
    ],
)
def test_a_bitmask_save_no_machine_could_write_is_refused(
    damage: Callable[[dict[str, Any]], None], message: str
) -> None:
    machine = bitmask()
    assert machine.try_activate("Alive")
    blank, saved = state_of(machine)
    damage(saved)
    with pytest.raises(st.LoadError, match=message):
        blank().__setstate__(saved)


def test_a_chart_machine_saved_with_another_charts_snapshot_is_refused() -> None:
    other = ChartMachine(b.chart("Other", b.state("Other")))
    blank, saved = state_of(chart())
    saved["snapshot"] = other.snapshot().to_bytes()
    with pytest.raises(st.DecodeError, match="snapshot is of another chart"):
        blank().__setstate__(saved)


def test_a_bitmask_mask_the_rules_forbid_is_refused() -> None:
    machine = bitmask()
    definition = machine.definition
    shooting = 1 << definition.names.index("Shooting")
    blank, saved = state_of(machine)
    saved["mask"] = shooting  # Shooting needs Aiming
    with pytest.raises(st.DecodeError, match="Shooting is active but requires"):
        blank().__setstate__(saved)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"requires": ("Nope",)}, "names 'Nope', which is not a defined state"),
        ({"colour": "red"}, "the save holds a damaged bitmask definition"),
    ],
)
def test_a_damaged_bitmask_definition_is_a_load_error(change: dict[str, Any], message: str) -> None:
    loader, (name, rules) = bitmask().definition.__reduce__()
    damaged = ({**rules[0], **change}, *rules[1:])
    with pytest.raises(st.LoadError, match=message):
        loader(name, damaged)


@pytest.mark.parametrize("time", [float("nan"), -1.0, float("inf")])
def test_a_time_in_state_no_state_can_have_is_refused(time: float) -> None:
    machine = st.StateMachine(Idle, time_in_state=True)
    machine.process_state_transitions()
    blank, saved = state_of(machine)
    saved["timers"] = [(state, time) for state, _ in saved["timers"]]
    with pytest.raises(st.LoadError, match="its times in state are not pairs of a state and a"):
        blank().__setstate__(saved)


def test_a_loaded_state_is_placed_in_its_machine_with_its_owner() -> None:
    owner = ["the owner"]
    machine = st.StateMachine(Idle, owner)
    machine.process_state_transitions()
    blank, saved = state_of(machine)  # its states still name the machine they were saved from
    loaded = blank()
    loaded.__setstate__(saved)
    assert [type(state) for state in loaded.stack] == [Idle, Walk]
    assert all(state.machine is loaded and state.owner is owner for state in loaded.stack)


class Upper(st.State[Any]):
    pass


class Lower(st.State[Any]):
    pass


class Both(st.State[Any]):
    def transition(self) -> st.Transition:
        return st.concurrent(Upper, Lower)


def _host_not_last(saved: dict[str, Any]) -> None:
    ((host, _),) = saved["regions"]
    saved["stack"] = [host, Upper()]  # a host is the last state of its stack


def _host_in_its_own_region(saved: dict[str, Any]) -> None:
    ((host, stacks),) = saved["regions"]
    saved["regions"] = [(host, [*stacks, [host]])]


def _regions_of_no_active_state(saved: dict[str, Any]) -> None:
    saved["regions"] = [*saved["regions"], (Both(), [[Lower()]])]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (_host_not_last, "a state hosting regions is not the last of its stack"),
        (_host_in_its_own_region, "a state instance is active twice"),
        (_regions_of_no_active_state, "it holds regions of a state that is not active"),
    ],
)
def test_a_configuration_no_machine_can_be_in_is_refused(
    damage: Callable[[dict[str, Any]], None], message: str
) -> None:
    machine = st.StateMachine(Both)
    machine.process_state_transitions()
    blank, saved = state_of(machine)
    damage(saved)
    with pytest.raises(st.LoadError, match=message):
        blank().__setstate__(saved)


class Nested(st.State[Any]):
    def transition(self) -> st.Transition:
        return st.concurrent(Both, Lower)


def test_regions_in_regions_are_saved_and_loaded() -> None:
    machine = st.StateMachine(Nested)
    machine.process_state_transitions()
    loaded = pickle.loads(pickle.dumps(machine))
    assert [type(s) for s in loaded.walk()] == [Nested, Both, Upper, Lower, Lower]
    assert [type(s) for s in loaded.walk()] == [type(s) for s in machine.walk()]


def test_a_bitmask_machines_states_are_its_own_whatever_the_save_says() -> None:
    machine = bitmask()
    assert machine.try_activate("Alive") and machine.try_activate("Moving")
    blank, saved = state_of(machine)
    other = Player("p2").machine
    for index, state in enumerate(saved["states"]):
        state.machine, state.index = other, (index + 1) % len(saved["states"])
    loaded = blank()
    loaded.__setstate__(saved)
    assert all(s.machine is loaded and s.index == n for n, s in enumerate(loaded.states))
    assert loaded.get_state("Moving").is_active and not loaded.get_state("Aiming").is_active
