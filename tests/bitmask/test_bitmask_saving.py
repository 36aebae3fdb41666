"""Saving bitmask machines: pickle and deepcopy keep the mask, the history and every state's
data, run no hook nor any state's ``__init__``, and the copy goes on as the original."""

from __future__ import annotations

import copy
import pickle
from functools import partial
from typing import Any

import pytest
from bitmask_player import Player, Punching
from bitmask_strategies import definition_data
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as hs
from saved_bitmasks import Owner, Request
from saving_support import COPIES, OtherCore, goes_on_alike, goes_on_as_never_saved, saved

import statetree as st
from statetree.bitmask import BitCause, BitmaskDefinition, BitmaskMachine, BitState


def fighting() -> Player:
    player = Player("p1", ammo=2)
    for state in ("Alive", "Moving", "Aiming", "Shooting"):
        player.machine.try_activate(state)
    player.machine.try_activate(Punching)  # blocked by Shooting
    player.machine.deactivate("Shooting")
    player.machine.try_activate(Punching)
    return player


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_saved_player_is_its_own_and_goes_on_as_the_original(how: str) -> None:
    player = fighting()
    twin = saved(player, how)
    assert twin.events == player.events  # no hook ran
    assert twin.machine.mask == player.machine.mask
    assert twin.machine.active_states == ("Alive", "Moving", "Punching")
    assert twin.machine.history == player.machine.history
    assert twin.machine.get_state(Punching).ready_at == 3  # type: ignore[attr-defined]
    assert twin.machine.owner is twin
    assert all(
        state.owner is twin and state.machine is twin.machine for state in twin.machine.states
    )
    assert twin.machine.definition is player.machine.definition or how == "pickle"
    for each in (player, twin):
        each.tick(3)
        each.machine.try_activate(Punching)
        each.machine.try_activate("InDialogue")
    assert twin.events == player.events
    assert twin.machine.history == player.machine.history
    assert (twin.speed, twin.ammo, twin.machine.mask) == (
        player.speed,
        player.ammo,
        player.machine.mask,
    )


def test_a_shallow_copy_is_refused_and_shares_nothing() -> None:
    player = fighting()
    with pytest.raises(st.UsageError, match=r"^copy.copy\(bitmask machine 'p1'\): a shallow"):
        copy.copy(player.machine)
    assert all(state.machine is player.machine for state in player.machine.states)


def test_saving_from_a_hook_is_refused() -> None:
    refused: list[str] = []

    class Saver(BitState[Any]):
        def on_activated(self, cause: BitCause) -> None:
            try:
                pickle.dumps(self.machine)
            except st.SaveError as error:
                refused.append(str(error))

    machine = BitmaskMachine(BitmaskDefinition.from_classes([Saver]), name="Autosave")
    machine.try_activate(Saver)
    assert refused == [
        "cannot save bitmask machine 'Autosave' from its hook or check Saver.on_activated: "
        "save between two requests"
    ]


def test_a_state_class_made_inside_a_function_is_refused_by_name() -> None:
    class Local(BitState[Any]):
        pass

    machine = BitmaskMachine(BitmaskDefinition.from_classes([Local]))
    with pytest.raises(
        st.SaveError,
        match=r"^cannot save the class .*<locals>\.Local of module test_bitmask_saving \(the "
        r"behaviour of state 'Local'\): it was made inside a function",
    ):
        pickle.dumps(machine)
    assert copy.deepcopy(machine).definition is machine.definition


# -- random rules, random requests, here and in the other core ---------------------------


def requests(data: list[dict[str, Any]]) -> hs.SearchStrategy[list[Request]]:
    names = [entry["name"] for entry in data]
    return hs.lists(hs.tuples(hs.sampled_from(names), hs.booleans()), max_size=15)


@settings(max_examples=examples(60))
@given(definition_data(), hs.data())
def test_saving_at_any_request_changes_nothing(data: list[dict[str, Any]], draw: Any) -> None:
    script = draw.draw(requests(data), "script")
    cut = draw.draw(hs.integers(0, len(script)), "cut")
    how = draw.draw(hs.sampled_from(COPIES), "how")
    goes_on_as_never_saved(Owner, (data,), script, cut, partial(saved, how=how))


@settings(max_examples=examples(40))
@given(data=definition_data(), draw=hs.data())
def test_a_save_goes_on_in_the_other_core_as_never_saved(
    other_core: OtherCore, data: list[dict[str, Any]], draw: Any
) -> None:
    script = draw.draw(requests(data), "script")
    cut = draw.draw(hs.integers(0, len(script)), "cut")
    goes_on_alike(other_core, Owner, (data,), script, cut)


def test_a_save_of_another_format_is_refused() -> None:
    machine = fighting().machine
    with pytest.raises(st.LoadError, match="holds a bitmask machine in format 0; this version"):
        machine.__setstate__({"format": 0})
