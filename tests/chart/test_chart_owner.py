"""Machine owners: one handler shared by many chart machines knows whose action it is."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    Chart,
    ChartMachine,
    Event,
    Param,
    compile_chart,
)
from statetree.chart import builder as b

GAME = DEFAULT_REGISTRY.with_actions(ActionType("play_animation", (Param("name"),)))
HIT = Event("input", "Hit")


def enemy_chart(hurt_animation: str = "Hurt") -> Chart:
    """Top{Idle -(input Hit)-> Hurt -(timer Back)-> Idle}, each playing an animation."""
    return b.chart(
        "Enemy",
        b.state(
            "Top",
            b.state(
                "Idle",
                enter=[b.action("play_animation", name="Idle")],
                transitions=[b.on(b.input("Hit"), "Hurt")],
            ),
            b.state(
                "Hurt",
                enter=[b.action("play_animation", name=hurt_animation), b.start_timer("Back", 1)],
                transitions=[b.on(b.timer("Back"), "Idle")],
            ),
        ),
        registry=GAME,
    )


@dataclass
class Enemy:
    name: str
    animations: list[str] = field(default_factory=list)


def play_animation(call: ActionCall) -> None:
    """One handler for every enemy: the call says whose animation to play."""
    call.owner.animations.append(str(call.params["name"]))


def test_one_handler_serves_many_machines_each_call_naming_its_owner() -> None:
    chart = compile_chart(enemy_chart())
    enemies = [Enemy("Orc"), Enemy("Imp")]
    seen: list[tuple[str, str]] = []
    machines = [
        ChartMachine(
            chart,
            {"play_animation": play_animation},
            owner=enemy,
            on_action=lambda call: seen.append((call.owner.name, str(call))),
        )
        for enemy in enemies
    ]
    for machine in machines:
        machine.start()
    machines[1].send(HIT)
    machines[1].tick(1.0)
    assert [enemy.animations for enemy in enemies] == [["Idle"], ["Idle", "Hurt", "Idle"]]
    assert seen == [
        ("Orc", "enter Top.Idle: play_animation(name='Idle')"),
        ("Imp", "enter Top.Idle: play_animation(name='Idle')"),
        ("Imp", "enter Top.Hurt: play_animation(name='Hurt')"),
        ("Imp", "enter Top.Hurt: start_timer(name='Back', delay=1.0)"),
        ("Imp", "enter Top.Idle: play_animation(name='Idle')"),
    ]
    assert [machine.owner for machine in machines] == enemies


def test_action_listeners_added_later_see_the_owner_too() -> None:
    owners: list[object] = []
    machine = ChartMachine(enemy_chart(), {"play_animation": lambda call: None}, owner=7)
    machine.add_action_listener(lambda call: owners.append(call.owner))
    machine.send(HIT)
    assert owners == [7, 7, 7]


def test_a_machine_without_owner_hands_out_the_compiled_records() -> None:
    chart = compile_chart(enemy_chart())
    calls: list[ActionCall] = []
    machine = ChartMachine(chart, {"play_animation": calls.append})
    machine.send(HIT)
    assert machine.owner is None
    assert [call.owner for call in calls] == [None, None]
    assert calls[0] is chart.calls[0]
    assert calls[1] is chart.calls[1]


def test_a_reloaded_machine_keeps_its_owner_for_the_new_actions() -> None:
    enemy = Enemy("Orc")
    machine = ChartMachine(enemy_chart(), {"play_animation": play_animation}, owner=enemy)
    machine.start()
    machine.reload(enemy_chart(hurt_animation="Stagger"))
    machine.send(HIT)
    assert enemy.animations == ["Idle", "Stagger"]


def test_a_machine_handed_to_another_owner_names_it_from_then_on() -> None:
    first, second = Enemy("Orc"), Enemy("Imp")
    machine = ChartMachine(enemy_chart(), {"play_animation": play_animation}, owner=first)
    machine.start()
    machine.owner = second
    machine.send(HIT)
    assert (first.animations, second.animations) == (["Idle"], ["Hurt"])
    machine.owner = first
    machine.tick(1.0)
    assert (first.animations, second.animations) == (["Idle", "Idle"], ["Hurt"])
    assert machine.compiled.calls[0].owner is None  # the compiled records stay unowned


def test_the_owner_is_not_part_of_equality_and_the_record_still_pickles() -> None:
    call = ActionCall("play_animation", {"name": "Idle"}, "Top.Idle", "enter", owner=3)
    assert call == ActionCall("play_animation", {"name": "Idle"}, "Top.Idle", "enter")
    copied = pickle.loads(pickle.dumps(ActionCall("raise", {}, "Top", "exit", owner=("Orc", 3))))
    assert (copied.type, copied.state, copied.phase, copied.owner) == (
        "raise",
        "Top",
        "exit",
        ("Orc", 3),
    )
