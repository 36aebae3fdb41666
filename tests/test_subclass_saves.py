"""Subclasses of the machines save and load as their bases do: no ``__init__`` runs on a load
or a copy, and the attributes a subclass adds come back; a save whose class the program has
replaced is refused naming it; a handler whose object cannot be found by name is refused
when saving."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from bitmask_player import PLAYER_STATES, Player

import statetree as st
from statetree.bitmask import BitmaskMachine
from statetree.chart import ActionCall, BatchCall, ChartBatch, ChartMachine, Event
from statetree.chart import builder as b

OPEN = Event("input", "Open")
DOOR = b.chart(
    "Door",
    b.state(
        "Door",
        b.state("Closed", transitions=[b.on(b.input("Open"), "Open")]),
        b.state("Open", enter=[b.action("creak")], transitions=[b.on(b.timer("Shut"), "Closed")]),
        enter=[b.start_timer("Shut", 2.0)],
    ),
    registry=st.chart.DEFAULT_REGISTRY.with_actions(st.chart.ActionType("creak", ())),
)
BUILT: list[str] = []
"""Each ``__init__`` of the subclasses below, as it runs."""


def creak(call: ActionCall | BatchCall) -> None:
    """The doors' handler (saved by name)."""


class DoorBrain(ChartMachine):
    """A game's machine: built from its door, with state of its own."""

    def __init__(self, door: str) -> None:
        BUILT.append(door)
        super().__init__(DOOR, {"creak": creak}, name=door)
        self.door = door
        self.opened = 0


class Doors(ChartBatch):
    def __init__(self, count: int) -> None:
        BUILT.append(f"{count} doors")
        super().__init__(DOOR, count, {"creak": creak})
        self.wave = 1


class Flags(BitmaskMachine[Player]):
    def __init__(self, owner: Player) -> None:
        BUILT.append("flags")
        super().__init__(PLAYER_STATES, owner, name="flags")
        self.combo = 0


def _pickled(machine: Any) -> Any:
    return pickle.loads(pickle.dumps(machine))


COPIES: list[Callable[[Any], Any]] = [_pickled, copy.deepcopy]


@pytest.mark.parametrize("again", [*COPIES, copy.copy], ids=["pickle", "deepcopy", "copy"])
def test_a_chart_machine_subclass_loads_without_its_init_and_keeps_its_attributes(
    again: Callable[[Any], Any],
) -> None:
    brain = DoorBrain("gate")
    brain.send(OPEN)
    brain.opened, brain.door = 3, "north gate"
    BUILT.clear()
    loaded = again(brain)
    assert BUILT == []  # no __init__ ran (it takes other arguments than a load could give)
    assert type(loaded) is DoorBrain
    assert (loaded.door, loaded.opened) == ("north gate", 3)
    assert loaded.active == brain.active == ("Door", "Door.Open")
    loaded.tick(2.0)
    assert loaded.active == ("Door", "Door.Closed")


@pytest.mark.parametrize("again", COPIES, ids=["pickle", "deepcopy"])
def test_batch_and_bitmask_subclasses_keep_their_attributes(again: Callable[[Any], Any]) -> None:
    doors = Doors(3)
    doors.send(OPEN, [1])
    doors.wave = 4
    flags = Flags(Player("p1"))
    assert flags.try_activate("Alive")
    flags.combo = 2
    BUILT.clear()
    loaded_doors, loaded_flags = again(doors), again(flags)
    assert BUILT == []
    assert (type(loaded_doors), loaded_doors.wave) == (Doors, 4)
    assert loaded_doors.snapshot() == doors.snapshot()
    assert (type(loaded_flags), loaded_flags.combo) == (Flags, 2)
    assert loaded_flags.mask == flags.mask


def test_a_save_whose_machine_class_was_replaced_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = pickle.dumps(DoorBrain("gate"))
    monkeypatch.setattr(__import__(__name__), "DoorBrain", Doors)  # now a batch class
    with pytest.raises(st.LoadError, match=r"needs the ChartMachine subclass .*DoorBrain"):
        pickle.loads(data)


class _Mind(st.State[Any]):
    pass


class Mind(st.StateMachine[Any]):
    pass


def test_a_class_machine_save_whose_class_is_now_no_machine_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    machine = Mind(_Mind)
    machine.process_state_transitions()
    data = pickle.dumps(machine)
    monkeypatch.setattr(__import__(__name__), "Mind", dict)
    with pytest.raises(st.LoadError, match=r"needs the StateMachine subclass .*Mind"):
        pickle.loads(data)


def test_a_handler_name_now_holding_no_function_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = pickle.dumps(DoorBrain("gate"))
    monkeypatch.setattr(__import__(__name__), "creak", "creak.wav")
    with pytest.raises(st.LoadError, match=r"needs .*\.creak as the handler of action 'creak'"):
        pickle.loads(data)


def _local_host() -> Any:
    class Host:
        def creak(self, call: ActionCall) -> None:
            pass

        def write(self, line: str) -> None:
            pass

    return Host()


@pytest.mark.parametrize("role", ["handler", "sink"])
def test_a_method_of_an_object_of_a_local_class_is_refused_by_its_role_in_a_save(
    role: str,
) -> None:
    host = _local_host()
    if role == "handler":
        machine = ChartMachine(DOOR, {"creak": host.creak}, name="Gate")
        said = "the handler 'creak' of chart machine 'Gate'"
    else:
        machine = ChartMachine(DOOR, {"creak": creak}, name="Gate", trace_sink=host.write)
        said = "the trace sink of chart machine 'Gate'"
    with pytest.raises(st.SaveError) as refused:
        pickle.dumps(machine)
    message = str(refused.value)
    assert "_local_host.<locals>.Host" in message and said in message
    assert "made inside a function" in message
    copied = copy.deepcopy(machine)  # a copy needs no name: the object is copied
    copied.send(OPEN)
    assert copied.active == ("Door", "Door.Open")
