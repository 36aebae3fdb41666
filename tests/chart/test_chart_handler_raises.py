"""A host handler that raises inside an enter or exit action: the state is dropped (enter)
or counts as exited (exit), as a core state whose hook raised, and the machine goes on."""

from __future__ import annotations

import pytest

from statetree.chart import DEFAULT_REGISTRY, ActionCall, ActionType, ChartMachine, Event, loads
from statetree.chart.registry import Param

REGISTRY = DEFAULT_REGISTRY.with_actions(ActionType("play", (Param("name"),)))
USE = Event("input", "Use")


class Busy(Exception):
    pass


class Player:
    """The ``play`` handler: raises for the names in ``failing``, logs the others."""

    def __init__(self) -> None:
        self.failing: set[str] = set()
        self.log: list[str] = []

    def __call__(self, call: ActionCall) -> None:
        name = str(call.params["name"])
        if name in self.failing:
            raise Busy(name)
        self.log.append(name)


DOOR = loads(
    """
name: Door
root:
  name: Door
  states:
    - name: Closed
      transitions: [{on: {input: Use}, to: Open}]
    - name: Open
      enter: [{start_timer: {name: Shut, delay: 5.0}}, {play: Creak}, {play: Light}]
      transitions: [{on: {input: Use}, to: Closed}, {on: {timer: Shut}, to: Closed}]
""",
    "yaml",
    REGISTRY,
)


def test_an_enter_action_that_raises_drops_the_state_with_its_timers_and_history() -> None:
    player = Player()
    machine = ChartMachine(DOOR, {"play": player})
    machine.start()
    before = machine.snapshot()
    player.failing = {"Creak"}
    with pytest.raises(Busy, match="Creak"):
        machine.send(USE)
    # Open was never entered: Closed was exited, Open is nowhere, its timer never runs.
    assert machine.active == ("Door",)
    assert not machine.is_active("Door.Open")
    assert machine.state("Door.Open") is None
    snapshot = machine.snapshot()
    assert snapshot.timers == ()
    assert snapshot.history == before.history  # Door resumes Closed, not the dropped Open
    assert player.log == []
    player.failing.clear()
    machine.send(Event("input", "Nothing"))  # the next processing enters a child again
    assert machine.active == ("Door", "Door.Closed")
    machine.send(USE)
    assert machine.active == ("Door", "Door.Open")
    assert player.log == ["Creak", "Light"]
    assert [timer[:2] for timer in machine.snapshot().timers] == [("Shut", "Door.Open")]


PRIORITY = loads(
    """
name: Fighter
root:
  name: Fighter
  policy: priority
  states:
    - name: Attack
      pre: {input: Attack}
      post: {anim_finished: Attack}
      enter: [{play: Swing}]
    - name: Idle
""",
    "yaml",
    REGISTRY,
)


def test_a_priority_child_whose_enter_action_raises_is_no_longer_the_held_child() -> None:
    player = Player()
    machine = ChartMachine(PRIORITY, {"play": player})
    machine.start()
    assert machine.active == ("Fighter", "Fighter.Idle")
    player.failing = {"Swing"}
    with pytest.raises(Busy):
        machine.send(Event("input", "Attack"))
    assert machine.active == ("Fighter",)
    assert not machine.is_active("Fighter.Attack")
    player.failing.clear()
    machine.send(Event("input", "Nothing"))  # the ground state holds again
    assert machine.active == ("Fighter", "Fighter.Idle")
    machine.send(Event("input", "Attack"))
    assert machine.active == ("Fighter", "Fighter.Attack")
    assert player.log == ["Swing"]


GUARD = loads(
    """
name: Guard
root:
  name: Guard
  states:
    - name: Alive
      transitions: [{on: {timer: Shout}, to: Dead}]
      states:
        - name: Patrol
          transitions: [{on: {input: Alarm}, to: Chase}]
        - name: Chase
          enter:
            - {start_timer: {name: GiveUp, delay: 2.0}}
            - {start_timer: {name: Shout, delay: 3.0}}
          exit: [{play: StopRunning}]
          transitions: [{on: {timer: GiveUp}, to: Patrol}]
    - name: Dead
""",
    "yaml",
    REGISTRY,
)


def test_an_exit_action_that_raises_still_exits_the_state_and_stops_its_timers() -> None:
    player = Player()
    machine = ChartMachine(GUARD, {"play": player})
    fired: list[str] = []
    machine.add_event_listener(lambda event: fired.append(str(event)))
    machine.send(Event("input", "Alarm"))
    assert machine.active == ("Guard", "Guard.Alive", "Guard.Alive.Chase")
    player.failing = {"StopRunning"}
    with pytest.raises(Busy):
        machine.tick(2.5)  # GiveUp fires at 2.0; Chase's exit action raises
    assert machine.active == ("Guard", "Guard.Alive")
    assert not machine.is_active("Guard.Alive.Chase")
    assert machine.snapshot().timers == ()  # Shout went with Chase: Alive never sees it
    assert machine.clock == 2.0
    player.failing.clear()
    machine.send(Event("input", "Nothing"))  # Alive resumes Chase, which starts its timers
    assert machine.active == ("Guard", "Guard.Alive", "Guard.Alive.Chase")
    machine.tick(2.5)  # its GiveUp at 4.0: Patrol; its Shout (5.0) stops with it
    assert machine.active == ("Guard", "Guard.Alive", "Guard.Alive.Patrol")
    machine.tick(10.0)
    assert machine.active == ("Guard", "Guard.Alive", "Guard.Alive.Patrol")
    assert fired == ["input Alarm", "timer GiveUp", "input Nothing", "timer GiveUp"]
    assert player.log == ["StopRunning"]
