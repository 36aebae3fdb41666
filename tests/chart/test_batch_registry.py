"""What a Registry can declare, and how a batch runs each: trigger types become latch rows
(edge) or flags (level), host actions batched handler calls; nothing runs one agent at a
time, and an action type that neither engine can perform is refused when it is declared."""

from __future__ import annotations

import pytest

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    BatchCall,
    ChartBatch,
    ChartMachine,
    Event,
    Param,
    Registry,
    TriggerType,
    from_data,
)
from statetree.chart import builder as b
from statetree.chart.errors import ChartError
from statetree.errors import DefinitionError

# Host actions named like the built-ins: the registry says they are the host's.
HOSTED = Registry.of(
    [*DEFAULT_REGISTRY.triggers.values(), TriggerType("sensor"), TriggerType("pad", level=True)],
    [ActionType("start_timer", (Param("name"), Param("delay", float))), ActionType("raise")],
)
CHART = b.chart(
    "Door",
    b.state(
        "Root",
        b.state("Idle", transitions=[b.on(b.trigger("sensor", "Beam"), "Door")]),
        b.state(
            "Door",
            b.state("Open", pre=b.trigger("pad", "Step"), enter=[b.action("raise")]),
            b.state("Shut", enter=[b.action("start_timer", name="T", delay=0.5)]),
            policy="priority",
        ),
    ),
    registry=HOSTED,
)
SENSOR, PAD = Event("sensor", "Beam"), Event("pad", "Step")


def test_a_builtin_the_runtime_does_not_perform_is_refused_where_it_is_declared() -> None:
    with pytest.raises(DefinitionError) as refused:
        DEFAULT_REGISTRY.with_actions(ActionType("teleport", (Param("to"),), builtin=True))
    assert str(refused.value) == (
        "action type teleport(to: string) is declared built in, but only the chart runtime's "
        "own actions are: start_timer(name: string, delay: number), clear_history(), "
        "raise(name: string). Declare it without builtin=True and register a handler for it."
    )
    with pytest.raises(DefinitionError, match=r"^action type start_timer\(name: string\) is"):
        Registry.of(actions=[ActionType("start_timer", (Param("name"),), builtin=True)])


def test_host_triggers_and_host_actions_named_like_builtins_run_as_on_machines() -> None:
    machine_calls: list[list[str]] = [[], [], []]
    batch_calls: list[tuple[str, list[int]]] = []

    def machine(agent: int) -> ChartMachine:
        def host(call: ActionCall) -> None:
            machine_calls[agent].append(str(call))

        return ChartMachine(CHART, {"start_timer": host, "raise": host})

    def on_batch(call: BatchCall) -> None:
        batch_calls.append((str(call.action), call.entities.tolist()))

    batch = ChartBatch(CHART, 3, {"start_timer": on_batch, "raise": on_batch})
    machines = [machine(agent) for agent in range(3)]
    batch.hold(PAD, [1])
    machines[1].hold(PAD)
    batch.send(SENSOR, [0, 1])
    machines[0].send(SENSOR)
    machines[1].send(SENSOR)
    batch.tick(1.0)  # the host's start_timer starts no timer: nothing fires
    for each in machines:
        each.tick(1.0)
    assert [batch.active(agent) for agent in range(3)] == [m.active for m in machines]
    assert [batch.active(agent)[-1] for agent in range(3)] == [
        "Root.Door.Shut",
        "Root.Door.Open",
        "Root.Idle",
    ]
    assert batch_calls == [(machine_calls[1][0], [1]), (machine_calls[0][0], [0])]
    assert machine_calls == [
        ["enter Root.Door.Shut: start_timer(name='T', delay=0.5)"],
        ["enter Root.Door.Open: raise()"],
        [],
    ]
    assert batch.agent(0).timers == ()


def test_a_trigger_no_registry_declares_is_refused_before_any_batch_runs() -> None:
    # A trigger type is only a kind of event (edge or level), so every declared one runs
    # on arrays; there is no host-evaluated trigger that a batch would have to refuse.
    data = {
        "name": "Turret",
        "root": {
            "name": "R",
            "states": [
                {"name": "Idle", "transitions": [{"on": {"laser": "Hit"}, "to": "Hurt"}]},
                {"name": "Hurt"},
            ],
        },
    }
    with pytest.raises(ChartError) as refused:  # refused where the chart is read
        from_data(data)
    assert str(refused.value) == (
        "<data> at root.states[0].transitions[0].on: unknown trigger type 'laser'; "
        "known: input, anim_finished, timer, event, held"
    )
    declared = DEFAULT_REGISTRY.with_triggers(TriggerType("laser"))
    batch = ChartBatch(from_data(data, declared), 3)
    batch.start()
    batch.send(Event("laser", "Hit"), [0, 2])
    assert [batch.active(agent)[-1] for agent in range(3)] == ["R.Hurt", "R.Idle", "R.Hurt"]
