"""Chart batches in the inspector: a population, counted per state while a page watches."""

from __future__ import annotations

import pytest
from inspect_samples import Lamp

from statetree.errors import UsageError
from statetree.inspect import (
    ChartAgentAdapter,
    ChartBatchAdapter,
    Hub,
    InspectError,
    PopulationView,
    adapt,
    capabilities,
)
from statetree.inspect.watcher import Watcher

np = pytest.importorskip("numpy", reason="chart batches need NumPy (the batch extra)")

from statetree.chart import DEFAULT_REGISTRY, ActionType, ChartBatch, Event, Param  # noqa: E402
from statetree.chart import builder as b  # noqa: E402

GUARD = b.chart(
    "Guard",
    b.state(
        "Top",
        b.state(
            "Patrol",
            enter=[b.action("play_animation", name="Walk")],
            transitions=[b.on(b.input("Alarm"), "Chase")],
        ),
        b.state("Chase", transitions=[b.on(b.input("Calm"), "Patrol")]),
    ),
    registry=DEFAULT_REGISTRY.with_actions(ActionType("play_animation", (Param("name"),))),
)


def guards(count: int = 5) -> ChartBatch:
    batch = ChartBatch(GUARD, count, {"play_animation": lambda call: None})
    batch.start()
    return batch


def test_a_batch_is_watched_as_a_population() -> None:
    batch = guards()
    adapter = adapt(batch)

    assert isinstance(adapter, ChartBatchAdapter)
    assert (adapter.name, adapter.kind, adapter.every) == ("Guard", "chart-batch", 1)
    assert isinstance(adapter.view(), PopulationView)
    assert adapter.view().structure.names == ("Top", "Top.Patrol", "Top.Chase")
    assert capabilities(adapter) == []
    assert adapter.active() == ("Top", "Top.Patrol")


def test_a_batch_and_its_agents_are_labelled_with_the_batch_name() -> None:
    batch = ChartBatch(GUARD, 2, {"play_animation": lambda call: None}, name="Crowd")
    hub = Hub([batch, batch.agent(1)])

    assert hub.ids == ("Crowd", "Crowd_1_")
    assert adapt(batch).name == "Crowd"
    assert ChartBatchAdapter(batch, name="Guards").name == "Guards"


def test_counts_are_taken_each_frame_while_a_page_watches() -> None:
    batch = guards()
    hub = Hub([batch, Lamp().machine])
    hub.frame()  # a driven program
    hub.watch(Watcher(), ["Guard"])
    hub.frame()  # attached: counted once
    batch.send(Event("input", "Alarm"), [1, 3])
    hub.frame()
    hub.flush()

    assert hub.latest["population"] == {"Guard": ((0, (5, 5, 0)), (1, (5, 3, 2)))}
    assert hub.latest["active"] == {"Guard": ("Top", "Top.Patrol", "Top.Chase")}
    batch.send(Event("input", "Calm"))
    hub.frame()
    hub.flush()
    assert hub.latest["population"] == {"Guard": ((2, (5, 5, 0)),)}  # only the new ones
    hub.flush()
    assert hub.latest["population"] == {}


def test_a_reload_starts_the_counts_over_under_the_new_states() -> None:
    batch = guards()
    adapter = ChartBatchAdapter(batch)
    adapter.attach(lambda *args: None)
    batch.send(Event("input", "Alarm"), [0, 1])
    adapter.poll()
    assert adapter.active() == ("Top", "Top.Patrol", "Top.Chase")
    alert = b.state("Alert")
    top = b.state("Top", alert, *GUARD.root.states)
    batch.reload(b.chart("Guard", top, registry=GUARD.registry))

    assert adapter.active() == ("Top", "Top.Patrol", "Top.Chase")  # counted anew
    adapter.poll()
    names = adapter.view().structure.names
    [(_, counts)] = adapter.samples(-1)
    assert dict(zip(names, counts, strict=True)) == {
        "Top": 5,
        "Top.Alert": 0,
        "Top.Patrol": 3,
        "Top.Chase": 2,
    }


@pytest.mark.parametrize(("every", "keep"), [(0, 600), (2.5, 600), ("3", 600), (None, -1)])
def test_counting_settings_are_whole_numbers_of_at_least_one(every: object, keep: object) -> None:
    with pytest.raises(UsageError, match=" is a whole number of at least 1, got "):
        ChartBatchAdapter(guards(), every=every, keep=keep)  # type: ignore[arg-type]


def test_a_large_batch_is_counted_every_few_frames() -> None:
    adapter = ChartBatchAdapter(guards(25_000))
    assert adapter.every == 2
    adapter.attach(lambda raw: None)
    for _ in range(5):
        adapter.poll()

    assert [frame for frame, _ in adapter.samples(-1)] == [0, 2, 4]
    assert [frame for frame, _ in adapter.samples(2)] == [4]
    adapter.detach()
    adapter.poll()
    assert len(adapter.samples(-1)) == 3


def test_the_view_message_carries_the_samples_kept() -> None:
    import shutil

    from statetree.inspect.views import Views

    if shutil.which("dot") is None:
        pytest.skip("needs Graphviz's dot")
    batch = guards(3)
    hub = Hub([batch])
    hub.frame()
    hub.watch(Watcher(), ["Guard"])
    hub.frame()
    view = Views(hub).view_message("Guard")

    assert view["population"] == [[0, 3, 3, 0]]
    assert view["states"] == ["Top", "Top.Patrol", "Top.Chase"]


def test_an_agent_of_a_batch_is_watched_as_a_chart_machine() -> None:
    batch = guards(3)
    adapter = adapt(batch.agent(1))
    hub = Hub([adapter, batch.agent(2)])
    hub.frame()  # a driven program
    hub.watch(Watcher(), ["Guard_1_"])
    hub.frame()  # attached
    batch.tick(0.25)
    batch.hold(Event("held", "Shift"), [1])
    batch.send(Event("input", "Alarm"), [1, 2])
    hub.frame()
    rows = hub.flush()

    assert isinstance(adapter, ChartAgentAdapter)
    assert (adapter.name, adapter.kind) == ("Guard[1]", "chart-agent")
    assert adapter.view().structure.names == ("Top", "Top.Patrol", "Top.Chase")
    assert adapter.view().structure is adapter.view().structure  # drawn once
    # The agent's steps, found after the frame that made them, in processing order.
    assert rows == [
        (1, 2, "Guard_1_", "exit", "Exited", "Top.Patrol", 1, ""),
        (2, 2, "Guard_1_", "enter", "Entered", "Top.Chase", 1, ""),
    ]
    assert hub.latest["active"] == {"Guard_1_": ("Top", "Top.Chase")}
    assert hub.travel("Guard_1_", 1).active == ("Top",)
    assert hub.travel("Guard_1_", 2).values == (
        ("chart", "clock", 0.25),
        ("held", "held Shift", True),
    )


def test_an_agent_reports_nothing_once_unwatched() -> None:
    batch = guards(1)
    adapter = adapt(batch.agent(0))
    notes: list[object] = []
    adapter.attach(notes.append)
    batch.send(Event("input", "Alarm"))
    adapter.poll()
    adapter.detach()
    batch.send(Event("input", "Calm"))
    adapter.poll()

    assert notes == [("exit", "Top.Patrol"), ("enter", "Top.Chase")]


def test_a_despawned_agent_has_left_its_states_and_breaks_nothing() -> None:
    batch = guards(2)
    hub = Hub([batch.agent(1)])
    hub.frame()
    hub.watch(Watcher(), ["Guard_1_"])
    hub.frame()
    batch.despawn([1])  # the game removes the enemy a page watches
    hub.frame()

    assert [row[3:6] for row in hub.flush()] == [
        ("exit", "Exited", "Top.Patrol"),
        ("exit", "Exited", "Top"),
    ]
    assert hub.latest["active"] == {"Guard_1_": ()}
    assert hub.travel("Guard_1_", 2).values == ()


def test_a_state_breakpoint_on_a_population_is_refused() -> None:
    hub = Hub([guards()])
    page = Watcher()
    hub.opened()
    hub.frame()
    hub.watch(page, ["Guard"])
    hub.frame()
    with pytest.raises(InspectError) as caught:
        hub.set_breakpoint("Guard", "enter", "Top.Chase", True)
    assert str(caught.value) == (
        "machine 'Guard' is a population: its agents' entries and exits are not followed one "
        "by one; watch one of its agents and set the breakpoint there"
    )
    assert hub.breakpoints("Guard") == []
