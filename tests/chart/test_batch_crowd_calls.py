"""Whole-crowd calls: several levels set in one processing, every agent's leaf in one read."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionType,
    BatchCall,
    ChartBatch,
    ChartMachine,
    Event,
    from_data,
)
from statetree.errors import UsageError

GUARD = from_data(
    {
        "name": "Guard",
        "root": {
            "name": "Guard",
            "policy": "priority",
            "states": [
                {"name": "Flee", "pre": {"all": [{"held": "Hurt"}, {"held": "Sees"}]}},
                {"name": "Chase", "pre": {"held": "Sees"}, "enter": ["shout"]},
                {
                    "name": "Idle",
                    "states": [
                        {"name": "Stand", "transitions": [{"on": {"input": "Go"}, "to": "Walk"}]},
                        {"name": "Walk"},
                    ],
                },
            ],
        },
    },
    DEFAULT_REGISTRY.with_actions(ActionType("shout")),
)
HURT, SEES = Event("held", "Hurt"), Event("held", "Sees")
QUIET = {"shout": lambda call: None}


def test_levels_set_together_are_seen_by_one_processing_as_on_a_machine() -> None:
    shouts: list[list[int]] = []
    batch = ChartBatch(GUARD, 4, {"shout": lambda call: shouts.append(call.entities.tolist())})
    batch.start()
    machine = ChartMachine(GUARD, {"shout": lambda call: None})
    machine.start()
    batch.set_levels({HURT: np.array([True, False, True, False]), SEES: True})
    machine.set_levels({HURT: True, SEES: True})
    assert batch.active(0) == machine.active == ("Guard", "Guard.Flee")  # never chased
    assert [batch.active(agent)[-1] for agent in range(4)] == [
        "Guard.Flee",
        "Guard.Chase",
        "Guard.Flee",
        "Guard.Chase",
    ]
    assert shouts == [[1, 3]]


def test_only_agents_whose_levels_change_are_processed_or_started() -> None:
    calls: list[list[int]] = []

    def shout(call: BatchCall) -> None:
        calls.append(call.entities.tolist())

    batch = ChartBatch(GUARD, 3, {"shout": shout})
    batch.set_levels({SEES: np.array([True, False, False])})
    assert calls == [[0]]
    assert batch.agent(1).active == () and batch.agent(2).active == ()
    batch.set_levels({SEES: np.array([True, True, False])})  # agent 0 is not processed again
    assert calls == [[0], [1]]
    assert batch.agent(0).held == (SEES,)


def test_wrong_levels_are_refused_and_change_nothing() -> None:
    batch = ChartBatch(GUARD, 3, QUIET)
    batch.start()
    before = batch.snapshot().to_bytes()
    with pytest.raises(UsageError, match=r"^input Go is not a level trigger: send\(\) it instead$"):
        batch.set_levels({SEES: True, Event("input", "Go"): True})
    with pytest.raises(
        UsageError,
        match=r"one boolean per agent \(2\), for held Sees: got shape \(3,\) of type bool",
    ):
        batch.set_levels({SEES: np.array([True, False, True])}, [0, 2])
    with pytest.raises(UsageError, match=r"got shape \(3,\) of type int64"):
        batch.set_levels({SEES: np.array([1, 0, 1])})
    with pytest.raises(UsageError, match=r"got shape \(1, 3\) of type bool"):
        batch.set_levels({SEES: np.ones((1, 3), np.bool_)})
    with pytest.raises(UsageError, match=r"^set_levels\(\) takes an Event\(kind, name\) of two"):
        batch.set_levels({3: True})  # type: ignore[dict-item]
    with pytest.raises(
        UsageError, match=r"^set_levels\(\) takes an Event.*; got \('held', 'Sees'\)$"
    ):
        batch.set_levels({("held", "Sees"): True})  # type: ignore[dict-item]
    with pytest.raises(UsageError, match=r"^set_levels\(\) takes a mapping of level events"):
        batch.set_levels([SEES])  # type: ignore[arg-type]
    assert batch.snapshot().to_bytes() == before


def test_events_may_come_as_any_iterable_of_events() -> None:
    by_list, by_generator = ChartBatch(GUARD, 2, QUIET), ChartBatch(GUARD, 2, QUIET)
    go = Event("input", "Go")
    by_list.send_each([go], [0, -1])
    by_generator.send_each((event for event in [go]), [0, -1])
    by_generator.frame(0.5, iter([go]), [-1, 0])
    by_list.frame(0.5, (go,), [-1, 0])
    assert by_generator.snapshot().to_bytes() == by_list.snapshot().to_bytes()
    assert [by_generator.active(agent)[-1] for agent in (0, 1)] == ["Guard.Idle.Walk"] * 2


@pytest.mark.parametrize("events", [Event("input", "Go"), ("input", "Go"), "Go", None, 3])
def test_send_each_and_frame_take_a_list_of_events_and_say_so(events: Any) -> None:
    batch = ChartBatch(GUARD, 2, QUIET)
    before = batch.snapshot().to_bytes()
    for call, run in (
        ("send_each", lambda: batch.send_each(events, [0, 0])),
        ("frame", lambda: batch.frame(0.5, events, [0, 0])),
    ):
        with pytest.raises(UsageError) as caught:
            run()
        assert str(caught.value) == (
            f"{call}() takes a list of events, such as [Event('input', 'Jump')], got {events!r}"
        )
    with pytest.raises(UsageError, match=r"^frame\(\) needs one integer choice per agent \(2\)"):
        batch.frame(0.5, [Event("input", "Go")], [0])
    with pytest.raises(UsageError) as missing:
        batch.send_each([Event("input", "Go")], None)  # type: ignore[arg-type]
    assert str(missing.value) == (
        "send_each() needs its choices: one integer per agent (2), the index of each agent's "
        "event (negative: none)"
    )
    with pytest.raises(
        UsageError, match=r"^send_each\(\) takes an Event.*; got \('input', \['x'\]\)$"
    ):
        batch.send_each([("input", ["x"])], [0, 0])  # type: ignore[list-item]
    assert batch.snapshot().to_bytes() == before


PLAIN_TUPLES: list[tuple[str, Any]] = [
    ("send_each", lambda batch: batch.send_each([("input", "Go")], [0, 0])),
    ("send", lambda batch: batch.send(("input", "Go"))),
    ("hold", lambda batch: batch.hold(("held", "Sees"))),
    ("release", lambda batch: batch.release(("held", "Sees"))),
]


@pytest.mark.parametrize(("call", "run"), PLAIN_TUPLES, ids=[c for c, _ in PLAIN_TUPLES])
def test_a_plain_tuple_is_no_event_as_on_a_machine(call: str, run: Any) -> None:
    batch = ChartBatch(GUARD, 2, QUIET)
    batch.send_each([Event("input", "Go")], [-1, -1])  # known now: a list of tuples equal to it
    before = batch.snapshot().to_bytes()
    with pytest.raises(UsageError, match=rf"^{call}\(\) takes an Event\(kind, name\) of two"):
        run(batch)
    assert batch.snapshot().to_bytes() == before


def test_leaf_ids_read_every_agent_innermost_state_with_its_path() -> None:
    batch = ChartBatch(GUARD, 5, QUIET)
    batch.start([0, 1, 2, 3])
    batch.send(Event("input", "Go"), [1, 2])
    batch.hold(SEES, [3])
    batch.despawn([2])
    leaves = batch.leaf_ids()
    assert leaves.dtype == np.intp
    assert [batch.paths[n] if n >= 0 else None for n in leaves.tolist()] == [
        "Guard.Idle.Stand",
        "Guard.Idle.Walk",
        None,  # despawned
        "Guard.Chase",
        None,  # not started
    ]
    assert [batch.active(agent)[-1] for agent in (0, 1, 3)] == [
        batch.paths[n] for n in leaves[[0, 1, 3]].tolist()
    ]
    inside = batch.leaf_ids("Guard.Idle").tolist()
    assert (
        inside
        == [batch.paths.index("Guard.Idle.Stand"), batch.paths.index("Guard.Idle.Walk")] + [-1] * 3
    )
    with pytest.raises(UsageError, match=r"chart 'Guard' has no state 'Guard\.Run'"):
        batch.leaf_ids("Guard.Run")


def test_leaf_ids_of_regions_are_read_region_by_region() -> None:
    chart = from_data(
        {
            "name": "Duo",
            "root": {
                "name": "Hero",
                "policy": "concurrent",
                "states": [
                    {"name": "Legs", "states": [{"name": "Stand"}]},
                    {"name": "Arms", "states": [{"name": "Rest"}]},
                ],
            },
        }
    )
    batch = ChartBatch(chart, 2)
    batch.start()
    assert [batch.paths[n] for n in batch.leaf_ids("Hero.Arms").tolist()] == ["Hero.Arms.Rest"] * 2
    with pytest.raises(UsageError) as refused:
        batch.leaf_ids()
    assert str(refused.value) == (
        "state Hero runs concurrent regions, so an agent has one innermost state in each: "
        "read them one by one, with leaf_ids(region) for each of Hero.Legs, Hero.Arms"
    )


def test_a_machine_sets_levels_in_one_processing_and_ignores_levels_already_so() -> None:
    machine = ChartMachine(GUARD, QUIET)
    machine.set_levels({SEES: False, HURT: False})  # as it already reads: not even started
    assert machine.active == ()
    machine.set_levels({SEES: True, HURT: True})
    assert machine.active == ("Guard", "Guard.Flee")
    with pytest.raises(UsageError, match=r"^input Go is not a level trigger"):
        machine.set_levels({Event("input", "Go"): True, SEES: False})
    assert machine.active == ("Guard", "Guard.Flee")  # nothing changed


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_values_given_per_entity_go_to_those_entities_in_the_order_named(backend: str) -> None:
    pytest.importorskip(backend, reason=f"the {backend} pass needs {backend} (the batch extra)")
    batch = ChartBatch(GUARD, 4, QUIET, backend=backend)
    batch.start()
    go, nothing = Event("input", "Go"), Event("input", "Nothing")
    batch.send_each([go, nothing], [1, 0, -1], [2, 0, 3])  # agent 0 gets Go, 2 nothing
    assert [batch.active(agent)[-1] for agent in range(4)] == [
        "Guard.Idle.Walk",
        "Guard.Idle.Stand",
        "Guard.Idle.Stand",
        "Guard.Idle.Stand",
    ]
    batch.set_levels({SEES: np.array([False, True]), HURT: True}, [3, 1])  # 1 sees, 3 not
    assert [batch.active(agent)[-1] for agent in range(4)] == [
        "Guard.Idle.Walk",
        "Guard.Flee",
        "Guard.Idle.Stand",
        "Guard.Idle.Stand",
    ]
    assert [batch.agent(agent).held for agent in (1, 3)] == [(HURT, SEES), (HURT,)]
