"""Saving class machines: pickle and deepcopy give a machine of its own, loaded without
running a hook, that goes on exactly as the original; what cannot be saved is refused by
name, and a save whose classes the program lost fails to load by name."""

from __future__ import annotations

import copy
import pickle
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import saved_machines as sm
from saved_machines import Hero
from saving_support import OtherCore

import statetree as st
from statetree.chart import ChartMachine, Event, from_data

Copier = Callable[[Any], Any]
COPIERS: dict[str, Copier] = {
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
    "deepcopy": copy.deepcopy,
}


@pytest.fixture(params=sorted(COPIERS))
def copier(request: pytest.FixtureRequest) -> Copier:
    return COPIERS[request.param]


def running_hero() -> Hero:
    """A hero walking (as Sprint, through an override) with a reload pending."""
    hero = Hero()
    hero.machine.add_state_override(sm.Walk, sm.Sprint)
    hero.frame(0.25)
    hero.moving = True
    hero.frame(0.5)
    hero.machine.post("reload")
    return hero


def shape(machine: st.StateMachine[Any]) -> list[tuple[str, int, float]]:
    return [(type(s).__name__, s.depth, s.time_in_state) for s in machine.stack]


def test_a_copy_is_where_the_original_is_and_no_hook_ran(copier: Copier) -> None:
    hero = running_hero()
    hooks, lines = list(hero.hooks), list(hero.lines)
    twin = copier(hero)
    assert twin.hooks == hooks == hero.hooks
    assert twin.lines == lines == hero.lines
    assert shape(twin.machine) == shape(hero.machine) == [
        ("Alive", 0, 0.75), ("Legs", 1, 0.75), ("Sprint", 2, 0.5), ("Arms", 1, 0.75),
    ]  # fmt: skip
    alive = twin.machine.get_state(sm.Alive)
    assert alive is not None
    assert [[type(s).__name__ for s in region] for region in twin.machine.regions(alive)] == [
        ["Legs", "Sprint"],
        ["Arms"],
    ]
    assert twin.machine.events == ("reload",)
    assert (twin.speed.value, twin.armed.value) == (2.0, True)
    assert twin.machine.name == "Hero"
    assert twin.machine.trace_level is st.TraceLevel.BASIC
    assert twin.machine.max_transitions == hero.machine.max_transitions
    assert twin.machine.get_state_override(sm.Walk) is sm.Sprint
    assert twin.machine.get_state(sm.Sprint).steps == 1  # type: ignore[union-attr]
    assert twin.machine.get_state(sm.Alive).lives == 3  # type: ignore[union-attr]


def test_the_copy_goes_on_exactly_as_the_original(copier: Copier) -> None:
    hero = running_hero()
    twin = copier(hero)
    for each in (hero, twin):
        each.frame(0.25)  # the pending reload is taken
        each.moving = False
        each.frame(0.25)
        each.dead = True
        each.frame(0.5)
    assert twin.hooks == hero.hooks
    assert twin.hooks[5:] == [
        "Reload.enter", "Sprint.exit(2)", "Stand.enter",
        "Reload.exit", "Stand.exit", "Alive.exit", "Dead.enter",
    ]  # fmt: skip
    assert twin.lines == hero.lines
    assert (twin.speed.value, twin.armed.value) == (hero.speed.value, hero.armed.value)
    assert (twin.speed.value, twin.armed.value) == (0.0, False)  # every holder gave back


def test_the_copy_is_its_own_machine_with_its_own_owner(copier: Copier) -> None:
    hero = running_hero()
    twin = copier(hero)
    assert twin.machine is not hero.machine
    assert twin.machine.owner is twin
    for state in twin.machine.stack:
        assert state.owner is twin
        assert state.machine is twin.machine
    holder, found, place = twin.speed._holders[0]
    assert holder() is twin.machine.get_state(sm.Sprint)
    assert (found, place) == (0.0, twin.machine._place_of(holder()))  # kept through the copy
    twin.moving = False
    twin.frame(0.1)
    assert hero.machine.is_in_state(sm.Sprint)
    assert hero.speed.value == 2.0
    assert twin.speed.value == 0.0


def test_a_machine_saved_alone_brings_its_owner(copier: Copier) -> None:
    hero = running_hero()
    machine = copier(hero.machine)
    owner = machine.owner
    assert isinstance(owner, Hero)
    assert owner.machine is machine
    assert owner.hooks == hero.hooks


def test_a_machine_that_has_not_started_stays_so(copier: Copier) -> None:
    hero = Hero()
    twin = copier(hero)
    assert not twin.machine.started
    twin.frame(0.1)
    hero.frame(0.1)
    assert twin.hooks == hero.hooks == ["Alive.enter(3)", "Arms.enter", "Stand.enter"]
    assert twin.lines == hero.lines


def test_a_plain_machine_keeps_no_extras(copier: Copier) -> None:
    machine = st.StateMachine(sm.Dead, sm.Hero(trace=st.TraceLevel.NONE))
    twin = copier(machine)
    assert twin._extras is None
    assert twin.initial == st.sibling(sm.Dead)


def test_the_listeners_are_the_programs_and_are_not_saved(copier: Copier) -> None:
    hero = running_hero()
    seen: list[st.Step] = []
    hero.machine.add_listener(seen.append)
    twin = copier(hero)
    twin.frame(0.1)
    assert seen == []
    assert twin.lines[-1] == "HSM_1_Hero:   Inner   : Reload"


def test_transitions_come_back_equal_and_shared_when_they_take_no_arguments() -> None:
    for transition in (st.sibling(sm.Walk, 2.0), st.inner(sm.Alive, lives=2)):
        assert COPIERS["pickle"](transition) == transition
    assert COPIERS["pickle"](st.sibling(sm.Stand)) is st.sibling(sm.Stand)
    assert COPIERS["pickle"](st.inner_entry(sm.Stand)) is st.inner_entry(sm.Stand)
    assert COPIERS["pickle"](st.concurrent(sm.Legs, sm.Arms)) is st.concurrent(sm.Legs, sm.Arms)


def test_a_shallow_copy_is_refused() -> None:
    hero = running_hero()
    with pytest.raises(st.UsageError, match=r"copy.copy\(machine 'Hero'\): a shallow copy"):
        copy.copy(hero.machine)


def test_saving_from_a_hook_is_refused() -> None:
    failures: list[str] = []

    class Saver(st.State[Any]):
        def on_enter(self) -> None:
            try:
                pickle.dumps(self.machine)
            except st.SaveError as error:
                failures.append(str(error))

    machine = st.StateMachine(Saver, name="Autosave")
    machine.process_state_transitions()
    assert failures == [
        "cannot save machine 'Autosave' while it runs (from one of its states' hooks, or "
        "while another thread processes it): save between two calls, e.g. after "
        "process_state_transitions() returns"
    ]


def test_a_save_inside_caused_by_keeps_the_cause_to_the_block(copier: Copier) -> None:
    hero = running_hero()
    with hero.machine.caused_by(st.Cause.RESIMULATION):
        saved = copier(hero)  # the block belongs to this program, not to the save
    assert saved.machine.cause is st.Cause.TRANSITION
    assert hero.machine.cause is st.Cause.TRANSITION
    hero.frame(0.5)
    saved.frame(0.5)
    assert shape(saved.machine) == shape(hero.machine)


def test_a_class_made_inside_a_function_is_refused_by_name_but_copies() -> None:
    class Local(st.State[Any]):
        pass

    machine = st.StateMachine(Local)
    machine.process_state_transitions()
    with pytest.raises(st.SaveError, match=r"the class test_a_class_made_inside_a_function_is"):
        pickle.dumps(machine)
    with pytest.raises(st.SaveError, match="made inside a function"):
        pickle.dumps(machine)
    assert isinstance(copy.deepcopy(machine).stack[0], Local)


def test_a_sink_that_cannot_be_found_by_name_is_refused() -> None:
    machine = st.StateMachine(
        sm.Dead, name="Hero", trace=st.TraceLevel.BASIC, trace_sink=lambda _: None
    )
    with pytest.raises(
        st.SaveError,
        match=r"^cannot save the function .*<lambda> of module test_saving \(the trace sink of "
        r"machine 'Hero'\): it was made inside a function",
    ):
        pickle.dumps(machine)


def test_a_sink_bound_to_what_cannot_be_saved_is_refused_by_its_role(tmp_path: Path) -> None:
    with open(tmp_path / "trace.txt", "w") as log:
        for sink in (log.write, sys.stdout.write):
            machine = st.StateMachine(sm.Dead, trace=st.TraceLevel.BASIC, trace_sink=sink)
            kind = type(sink.__self__).__qualname__  # the console's stream is pytest's here
            for save in (partial(st.write_save, tmp_path / "slot.save"), copy.deepcopy):
                with pytest.raises(st.SaveError) as refused:
                    save(machine)
                assert str(refused.value).startswith(
                    f"cannot save the trace sink of the machine (the method write of a {kind}): "
                )
                assert str(refused.value).endswith(
                    "; give the machine a function defined at the top level of a module, or a "
                    "method of an object that can be saved"
                )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["trace.txt"]


def test_a_sink_saved_by_name_is_found_again() -> None:
    machine = st.StateMachine(sm.Dead, trace=st.TraceLevel.BASIC, trace_sink=print)
    assert COPIERS["pickle"](machine)._extras.sink is print


def test_a_class_the_program_lost_fails_to_load_by_name(
    copier: Copier, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = pickle.dumps(running_hero())
    monkeypatch.delattr(sm, "Sprint")
    with pytest.raises(st.LoadError, match=r"the save needs saved_machines\.Sprint, which the"):
        pickle.loads(data)


def test_a_module_the_program_lost_fails_to_load_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "vanishing.py").write_text(
        "import statetree as st\n\nclass Gone(st.State):\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import vanishing

    machine = st.StateMachine(vanishing.Gone)
    machine.process_state_transitions()
    data = pickle.dumps(machine)
    monkeypatch.delitem(sys.modules, "vanishing")
    (tmp_path / "vanishing.py").unlink()
    with pytest.raises(st.LoadError, match=r"needs vanishing\.Gone, but module vanishing cannot"):
        pickle.loads(data)


def test_a_machine_of_another_format_is_refused() -> None:
    machine = st.StateMachine.__new__(st.StateMachine)
    with pytest.raises(st.LoadError, match="in format 99; this version of statetree reads"):
        machine.__setstate__({"format": 99})


# -- across the compiled and the pure core ------------------------------------------------------

DOOR = {
    "name": "Door",
    "root": {
        "name": "Door",
        "states": [
            {"name": "Shut", "transitions": [{"on": {"input": "use"}, "to": "Opening"}]},
            {
                "name": "Opening",
                "enter": [{"start_timer": {"name": "t", "delay": 2}}],
                "transitions": [{"on": {"timer": "t"}, "to": "Open"}],
            },
            {"name": "Open"},
        ],
    },
}


def running_world() -> Hero:
    """A running hero that also holds a chart machine (the chart runtime is compiled too)."""
    hero = running_hero()
    door = ChartMachine(from_data(DOOR), trace=st.TraceLevel.BASIC, trace_sink=hero.lines.append)
    door.send(Event("input", "use"))
    door.tick(0.5)
    hero.door = door  # type: ignore[attr-defined]
    return hero


def go_on(hero: Hero) -> None:
    hero.frame(0.25)
    hero.moving = False
    hero.frame(0.25)
    hero.door.tick(2.0)  # type: ignore[attr-defined]


def went_on(data: bytes) -> tuple[list[str], list[str], tuple[str, ...]]:
    """What the world saved as ``data`` does once loaded (run in the other core)."""
    hero = pickle.loads(data)
    go_on(hero)
    return hero.hooks, hero.lines, hero.door.active


def saved_world() -> bytes:
    """A running world saved (run in the other core)."""
    return pickle.dumps(running_world())


def test_a_save_of_one_core_loads_in_the_other(other_core: OtherCore) -> None:
    hero = running_world()
    hooks, lines, door = other_core.call(went_on, pickle.dumps(hero))
    go_on(hero)
    assert (hooks, lines, door) == (hero.hooks, hero.lines, hero.door.active)
    assert door == ("Door", "Door.Open")

    loaded = pickle.loads(other_core.call(saved_world))
    twin = running_world()
    for each in (loaded, twin):
        go_on(each)
    assert (loaded.hooks, loaded.lines) == (twin.hooks, twin.lines)
    assert loaded.door.active == twin.door.active


class Slotted(st.StateMachine[Any]):
    """A machine subclass with data of its own in a slot."""

    __slots__ = ("frames",)


class Noted(st.StateMachine[Any]):
    """A machine subclass with data of its own in its dict."""


def test_a_machine_subclass_keeps_its_own_data(copier: Copier) -> None:
    slotted, noted = Slotted(sm.Dead, name="Sub"), Noted(sm.Dead)
    slotted.frames = 3
    noted.note = "hi"  # type: ignore[attr-defined]
    twins = copier([slotted, noted])
    assert [type(twin) for twin in twins] == [Slotted, Noted]
    assert (twins[0].frames, twins[0].name, twins[1].note) == (3, "Sub", "hi")
