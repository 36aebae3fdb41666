"""ChartBatch as a host sees it: batched calls, per-agent reads, spawning, errors."""

from __future__ import annotations

import dataclasses
import math
import pickle
import re
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from chart_samples import CHARTS, GAME, HOST_ACTIONS, example

from statetree import TraceLevel
from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    BatchCall,
    BatchLoopError,
    Chart,
    ChartBatch,
    ChartMachine,
    Event,
    HandlerError,
    Param,
    loads,
)
from statetree.chart import builder as b
from statetree.chart.batch.step import backend_names
from statetree.errors import DecodeError, TransitionLoopError, UsageError

ATTACK = Event("input", "ComboAttackButton")
X, H = Event("input", "X"), Event("held", "H")
A = "Character.Alive.ComboAttack.ComboAttack1"


class Host:
    """Records every batched call as (action, agents)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[int]]] = []

    def __call__(self, call: BatchCall) -> None:
        self.calls.append((str(call.action), call.entities.tolist()))

    def handlers(self) -> dict[str, Host]:
        return dict.fromkeys(HOST_ACTIONS, self)

    def take(self) -> list[tuple[str, list[int]]]:
        calls, self.calls = self.calls, []
        return calls


def combo(count: int = 4) -> tuple[ChartBatch, Host]:
    host = Host()
    batch = ChartBatch(example("combo_attack.yaml"), count, host.handlers())
    batch.start()
    host.take()
    return batch, host


def test_each_action_is_one_call_naming_its_agents_in_ascending_order() -> None:
    batch, host = combo()
    batch.send(ATTACK, [3, 0])
    assert host.take() == [
        (f"enter {A}: enable_damage_collision(name='ComboAttack1', damage=2.0)", [0, 3]),
        (f"enter {A}.Pre: play_animation(name='ComboAttack1', loop=False)", [0, 3]),
        (f"enter {A}.Pre: play_sound(name='ComboAttack1', loop=False)", [0, 3]),
    ]
    batch.send(Event("event", "Died"), [0, 1])
    assert host.take() == [
        (f"exit {A}: disable_damage_collision(name='ComboAttack1')", [0]),
        ("enter Character.Dead: play_animation(name='Death', loop=False)", [0, 1]),
    ]
    assert batch.active(0) == ("Character", "Character.Dead")
    assert batch.active(3)[-1] == f"{A}.Pre"
    assert batch.is_active("Character.Dead").tolist() == [True, True, False, False]
    assert batch.counts()["Character.Alive.Idle"] == 1  # agent 2
    assert batch.counts()[f"{A}.Pre"] == 1


def test_each_agent_calls_what_its_own_machine_calls() -> None:
    batch, host = combo(2)
    played: list[str] = []
    machine = ChartMachine(
        example("combo_attack.yaml"), dict.fromkeys(HOST_ACTIONS, lambda c: played.append(str(c)))
    )
    machine.start()
    played.clear()
    for step in (ATTACK, 0.75, 0.25, ATTACK, 1.0, 0.25, ATTACK):
        if isinstance(step, float):
            batch.tick(step)
            machine.tick(step)
        else:
            batch.send(step, [1])
            machine.send(step)
    assert [action for action, agents in host.take() if 1 in agents] == played
    assert batch.active(1) == machine.active


def test_an_agent_view_reads_one_agent_live() -> None:
    batch, _ = combo(3)
    view = batch.agent(2)
    batch.send(ATTACK, [2])
    batch.tick(1.0)
    assert view.active[-1] == f"{A}.Window"
    assert view.clock == 1.0
    assert [(t.name, t.state, t.due) for t in view.timers] == [("Window", f"{A}.Window", 1.25)]
    assert view.is_active(A) and not batch.agent(1).is_active(A)
    assert view.name == "Combo[2]"
    assert view.structure.initial == "Character"


def test_send_each_gives_every_agent_its_own_event() -> None:
    batch, host = combo(3)
    events = [ATTACK, Event("event", "Died")]
    batch.send_each(events, [1, -1, 0])
    assert [batch.active(i)[-1] for i in range(3)] == [
        "Character.Dead",
        "Character.Alive.Idle",
        f"{A}.Pre",
    ]
    assert host.take() == [
        ("enter Character.Dead: play_animation(name='Death', loop=False)", [0]),
        (f"enter {A}: enable_damage_collision(name='ComboAttack1', damage=2.0)", [2]),
        (f"enter {A}.Pre: play_animation(name='ComboAttack1', loop=False)", [2]),
        (f"enter {A}.Pre: play_sound(name='ComboAttack1', loop=False)", [2]),
    ]


def test_spawn_reuses_free_slots_and_despawn_runs_exit_actions() -> None:
    batch, host = combo(3)
    batch.send(ATTACK, [1])
    host.take()
    batch.despawn([1])
    assert host.take() == [(f"exit {A}: disable_damage_collision(name='ComboAttack1')", [1])]
    assert batch.alive.tolist() == [True, False, True]
    assert batch.population == 2
    assert batch.spawn(2).tolist() == [1, 3]
    assert batch.size == 4
    assert batch.active(1) == ()  # not started, like a new ChartMachine
    batch.tick(0.5)  # starts them
    assert batch.active(3) == ("Character", "Character.Alive", "Character.Alive.Idle")
    assert batch.agent(3).clock == 0.5


def test_a_traced_agent_writes_its_machines_lines_until_despawned_or_stopped() -> None:
    lines: list[str] = []
    batch, host = combo(3)
    batch.trace([1], sink=lines.append)
    batch.send(ATTACK, [0, 1])
    expected: list[str] = []
    chart = example("combo_attack.yaml")
    quiet = dict.fromkeys(HOST_ACTIONS, lambda call: None)
    machine = ChartMachine(chart, quiet, name="Combo[1]", trace_sink=expected.append)
    machine.start()  # untraced, as the batch's start before the trace
    machine.machine.set_debug_info("Combo[1]", TraceLevel.BASIC)
    machine.send(ATTACK)
    assert lines == expected and lines  # as its own machine, agent 0 untraced
    made = host.take()  # each host action once, for both agents: none replayed for the trace
    assert made and all(agents == [0, 1] for _, agents in made)
    assert len({action for action, _ in made}) == len(made)
    batch.trace([1], TraceLevel.NONE)
    batch.tick(5.0)
    assert lines == expected  # stopped
    batch.trace([1, 2], sink=lines.append)
    batch.despawn([1])
    batch.spawn(1)
    batch.tick(0.1)  # the new agent in slot 1 starts, untraced; agent 2 has nothing to do
    assert lines == expected
    for wrong, message in (
        ({"level": 5}, "a trace level is one of"),
        ({"sink": "print"}, "sink must be callable"),
    ):
        with pytest.raises(UsageError, match=message):
            batch.trace([0], **wrong)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="agent index 7 is out of range"):
        batch.trace([7])


def swapping(first: str = "A", second: str = "B") -> Chart:
    """A root whose children ``first`` and ``second`` (its first child starts) swap on
    input X; holding H moves A to B too."""
    children = {
        "A": b.state("A", transitions=[b.on(b.input("X"), "B"), b.on(b.held("H"), "B")]),
        "B": b.state("B", transitions=[b.on(b.input("X"), "A")]),
    }
    return b.chart("Swap", b.state("Root", children[first], children[second]))


def test_a_slot_freed_before_a_reload_spawns_an_agent_of_the_new_chart() -> None:
    batch = ChartBatch(swapping("A", "B"), 2)
    batch.start()
    batch.despawn([0])
    edited = swapping("B", "A")  # B starts now
    batch.reload(edited)
    freed = batch.snapshot(0, 1).arrays
    assert not freed["history"].any()  # the free slot reads as never used
    assert batch.spawn(1).tolist() == [0]
    batch.send(X, [0])
    machine = ChartMachine(edited)
    machine.send(X)
    assert batch.active(0) == machine.active == ("Root", "Root.A")
    batch.send(X, [1])  # the agent kept through the reload resumes where it was
    assert batch.active(1) == ("Root", "Root.B")


def test_a_traced_agent_writes_the_lines_its_machine_writes_in_a_reload() -> None:
    renamed = b.chart(  # B is gone: an agent in B leaves it for the initial state, A
        "Swap", b.state("Root", b.state("A", transitions=[b.on(b.input("X"), "C")]), b.state("C"))
    )
    batch = ChartBatch(swapping(), 3, name="Swap")
    batch.send(X, [1, 2])
    lines: list[str] = []
    batch.trace([1], sink=lines.append)
    batch.reload(renamed)
    expected: list[str] = []
    machine = ChartMachine(swapping(), name="Swap[1]", trace_sink=expected.append)
    machine.send(X)
    machine.machine.set_debug_info("Swap[1]", TraceLevel.BASIC)
    machine.reload(renamed)
    assert lines == expected and lines  # agent 2 reloaded as well, untraced
    assert batch.active(1) == batch.active(2) == machine.active == ("Root", "Root.A")


def test_a_spawn_into_a_restored_or_joined_free_slot_starts_clean() -> None:
    batch = ChartBatch(swapping(), 2)
    batch.hold(H, [0])
    batch.tick(5.0)
    arrays = {name: array.copy() for name, array in batch.snapshot().arrays.items()}
    arrays["alive"][0] = False  # freed elsewhere, its history, held input and clock left
    arrays["active"][:, 0] = 0
    snapshot = dataclasses.replace(batch.snapshot(), arrays=arrays)
    restored = ChartBatch.restore(snapshot, swapping())
    joined = ChartBatch.join([restored, ChartBatch(swapping(), 1)])
    for population in (restored, joined):
        assert population.spawn(1).tolist() == [0]
        population.start()
        assert population.active(0) == ("Root", "Root.A")
        assert population.agent(0).clock == 0.0
        population.send(X, [0])
        assert population.active(0) == ("Root", "Root.B")


@pytest.mark.parametrize("backend", backend_names())
def test_a_frame_names_the_timer_loop_its_machine_names(backend: str) -> None:
    # Main's timer races the blinking region's from the agent's clock before the frame: a
    # replay from its clock after the frame would see them fire in another order.
    blinking = [
        b.state(name, enter=[b.start_timer("T", 0.0)], transitions=[b.on(b.timer("T"), to)])
        for name, to in (("Wait", "Go"), ("Go", "Wait"))
    ]
    chart = b.chart(
        "Race",
        b.state(
            "Root",
            b.state(
                "Main",
                b.state("A", transitions=[b.on(b.input("X"), "B")]),
                b.state("B", enter=[b.start_timer("U", 0.0)]),
                enter=[b.start_timer("T", 0.0)],
            ),
            b.state("Blink", *blinking),
            policy="concurrent",
        ),
    )
    batch = ChartBatch(chart, 1, max_transitions=40, backend=backend)
    with pytest.raises(BatchLoopError) as raised:
        batch.frame(0.1, [Event("input", "X")], [0])
    machine = ChartMachine(chart, max_transitions=40)
    machine.send(Event("input", "X"))
    with pytest.raises(TransitionLoopError) as looped:
        machine.tick(0.1)
    assert raised.value.timers and looped.value.timers
    assert raised.value.cycle == tuple(looped.value.cycle) == ("Root.Blink.Go", "Root.Blink.Wait")


def test_both_passes_leave_the_same_snapshot_after_a_timer_stops() -> None:
    # T and U run together (regions), so their start order is kept; X stops T.
    left = b.state("A", enter=[b.start_timer("T", 1.0)], transitions=[b.on(b.input("X"), "B")])
    chart = b.chart(
        "Two",
        b.state(
            "Root",
            b.state("Left", left, b.state("B")),
            b.state("Right", b.state("C", enter=[b.start_timer("U", 1.0)])),
            policy="concurrent",
        ),
    )
    snapshots = []
    for backend in backend_names():
        batch = ChartBatch(chart, 2, backend=backend)
        batch.frame(0.5, [Event("input", "X")], [0, -1])
        assert [t.name for t in batch.agent(0).timers] == ["U"]
        snapshots.append(batch.snapshot().to_bytes())
    assert len(set(snapshots)) == 1


@pytest.mark.parametrize("backend", backend_names())
def test_a_chain_longer_than_the_bound_fails_as_its_machine_says(backend: str) -> None:
    steps = [
        b.state(f"S{n}", transitions=[b.on(b.held("Go"), f"S{n + 1}")] if n < 11 else [])
        for n in range(12)
    ]
    chain = b.chart("Chain", b.state("Top", *steps))
    batch = ChartBatch(chain, 2, max_transitions=10, backend=backend)
    with pytest.raises(BatchLoopError) as raised:
        batch.hold(Event("held", "Go"), [1])
    machine = ChartMachine(chain, name="Chain[1]", max_transitions=10)
    with pytest.raises(TransitionLoopError) as looped:
        machine.hold(Event("held", "Go"))
    assert (raised.value.repeating, looped.value.repeating) == (False, False)
    assert raised.value.cycle == looped.value.cycle and str(raised.value) == str(looped.value)
    assert "no state repeated; its last changes went to Top.S4 -> " in str(raised.value)
    assert batch.active(1) == machine.active


def test_a_loop_fails_only_the_agents_that_loop() -> None:
    loop = b.chart(
        "Loop",
        b.state(
            "Top",
            b.state("A", transitions=[b.on(b.held("Spin"), "B")]),
            b.state("B", transitions=[b.on(b.held("Spin"), "A")]),
        ),
    )
    batch = ChartBatch(loop, 3, max_transitions=10)
    with pytest.raises(BatchLoopError) as raised:
        batch.hold(Event("held", "Spin"), [0, 2])
    error = raised.value
    assert error.entities == (0, 2)
    assert error.cycle == ("Top.A", "Top.B")
    assert "'Loop[0]' changed its active states 10 times" in str(error)
    assert "Agents that could not settle: 0, 2." in str(error)
    again = pickle.loads(pickle.dumps(error))
    assert (again.entities, again.cycle, str(again)) == (error.entities, error.cycle, str(error))
    machine = ChartMachine(loop, max_transitions=10)
    with pytest.raises(Exception, match="changed its active states 10 times"):
        machine.hold(Event("held", "Spin"))
    assert batch.active(0) == machine.active  # left where the machine is left
    assert batch.active(1) == ()


def test_reload_reports_what_any_agent_kept_exited_and_entered() -> None:
    batch, host = combo(2)
    batch.send(ATTACK, [0])
    host.take()
    text = (CHARTS / "combo_attack.yaml").read_text().replace("damage: 2.0", "damage: 3.0")
    report = batch.reload(loads(text, "yaml", GAME))
    assert report.exited == (A, f"{A}.Pre")
    assert report.entered == (A, f"{A}.Pre")
    assert "Character.Alive.Idle" in report.kept
    assert host.take()[0] == (f"exit {A}: disable_damage_collision(name='ComboAttack1')", [0])


def test_wrong_calls_are_refused_with_what_was_wrong() -> None:
    batch, _ = combo(3)
    cases = [
        (
            lambda: batch.send(Event("held", "X")),
            "held X is a level trigger: use hold() and release()",
        ),
        (lambda: batch.hold(ATTACK), "is not a level trigger: send() it instead"),
        (lambda: batch.send(ATTACK, [1, 1]), "agent 1 is named twice"),
        (lambda: batch.send(ATTACK, [5]), "agent index 5 is out of range: the batch has 3"),
        (lambda: batch.send(ATTACK, np.ones(2, bool)), "one entry per agent slot (3)"),
        (lambda: batch.tick(-1.0), "time cannot go backwards"),
        (
            lambda: batch.is_active("Character.Nope"),
            "has no state 'Character.Nope' (did you mean 'Character.Dead'?); states: Character, ",
        ),
        (lambda: batch.send_each([ATTACK], [0, 1]), "one integer choice per agent (3)"),
        (lambda: batch.send_each([ATTACK], [0.0, 0.0, 0.0]), "got 3 of type float64"),
        (lambda: batch.send_each([ATTACK], [0, 2, -1]), "choice 2 names no event: there are 1"),
        (lambda: batch.send_each([], [-1, 0, -1]), "choice 0 names no event: there are 0"),
        (
            lambda: batch.send_each([ATTACK], np.array([0, 2**64 - 1, 0], np.uint64)),
            f"choice {2**64 - 1} names no event: there are 1",
        ),
        (lambda: batch.agent(7), "agent 7 does not exist (the batch has 3 slots)"),
    ]
    for call, message in cases:
        with pytest.raises(UsageError, match=re.escape(message)):
            call()
    batch.despawn([2])
    with pytest.raises(UsageError, match="agent 2 does not exist"):
        batch.send(ATTACK, [2])
    for read in (batch.agent, batch.active):
        with pytest.raises(
            UsageError, match=re.escape("agent 2 does not exist (it was despawned)")
        ):
            read(2)


ODD_CALLS: list[tuple[str, Callable[[ChartBatch], object], str]] = [
    ("tick(10**400)", lambda batch: batch.tick(10**400), "dt must be a finite number"),
    ("tick(sNaN)", lambda batch: batch.tick(Decimal("sNaN")), "dt must be a finite number"),
    ("tick(True)", lambda batch: batch.tick(True), "dt must be a finite number"),
    ("tick(np.True_)", lambda batch: batch.tick(np.True_), "dt must be a finite number"),
    ("frame(nan)", lambda batch: batch.frame(math.nan, [ATTACK], [0, 0, 0]), "frame(nan): "),
    ("frame(-1)", lambda batch: batch.frame(-1, [ATTACK], [0, 0, 0]), "time cannot go back"),
    ("frame choices", lambda batch: batch.frame(0.1, [ATTACK], [0, 3, 0]), "choice 3 names no"),
    ("agent(1.5)", lambda batch: batch.agent(1.5), "agent index must be an integer, got 1.5"),
    ("agent(True)", lambda batch: batch.agent(True), "agent index must be an integer, got True"),
    ("active(1.5)", lambda batch: batch.active(1.5), "agent index must be an integer, got 1.5"),
    ("snapshot(0.5)", lambda batch: batch.snapshot(0.5, 1), "needs a start of at least 0"),
    ("snapshot(2, 1)", lambda batch: batch.snapshot(2, 1), "(2, 1): the start is after the stop"),
    ("snapshot(0, 4)", lambda batch: batch.snapshot(0, 4), "(0, 4): the batch has 3 slots"),
    (
        "is_active([0])",
        lambda batch: batch.is_active([0]),  # type: ignore[arg-type]
        "chart 'Combo' has no state [0]; states: Character, ",
    ),
    (
        "leaf_ids({})",
        lambda batch: batch.leaf_ids({}),  # type: ignore[arg-type]
        "chart 'Combo' has no state {}; states: Character, ",
    ),
    (
        "join(3)",
        lambda batch: ChartBatch.join(3),
        "join() needs a list of ChartBatch shards, got 3",
    ),  # type: ignore[arg-type]
    (
        "spawn(2**64)",
        lambda batch: batch.spawn(2**64),
        "a batch holds at most 2,147,483,647 agents, 18,446,744,073,709,551,619 were asked for",
    ),
    (
        "restore(max_transitions=2**70)",
        lambda batch: ChartBatch.restore(batch.snapshot(), batch.chart, max_transitions=2**70),
        "max_transitions must be at most 2,147,483,647, got 1180591620717411303424",
    ),
]


@pytest.mark.parametrize(("_", "call", "message"), ODD_CALLS, ids=[c[0] for c in ODD_CALLS])
def test_odd_values_are_refused_by_the_library_and_change_nothing(
    _: str, call: Callable[[ChartBatch], object], message: str
) -> None:
    batch, host = combo(3)
    batch.send(ATTACK, [1])
    host.take()
    before = batch.snapshot().to_bytes()
    with pytest.raises(UsageError, match=re.escape(message)):
        call(batch)
    assert batch.snapshot().to_bytes() == before and host.take() == []


def test_a_batch_too_large_is_refused_before_anything_is_made() -> None:
    with pytest.raises(UsageError) as refused:
        ChartBatch(example("combo_attack.yaml"), 2**31, Host().handlers())
    assert str(refused.value) == (
        "a batch holds at most 2,147,483,647 agents, 2,147,483,648 were asked for"
    )


def test_a_frame_takes_any_real_number_of_seconds_as_a_tick_does() -> None:
    (batch, _), (ticked, _) = combo(2), combo(2)
    batch.frame(Fraction(1, 3), [ATTACK], [0, -1])
    ticked.send(ATTACK, [0])
    ticked.tick(1 / 3)
    assert batch.snapshot().to_bytes() == ticked.snapshot().to_bytes()


def test_handlers_may_send_to_their_own_agents_only() -> None:
    chart = example("combo_attack.yaml")
    batch: ChartBatch

    def nudge(call: BatchCall) -> None:
        if call.type == "play_sound":
            batch.send(Event("input", "Other"), [0, 1])

    batch = ChartBatch(chart, 2, dict.fromkeys(HOST_ACTIONS, nudge))
    batch.start()
    with pytest.raises(UsageError, match="only send\\(\\) to the agents of its own call"):
        batch.send(ATTACK, [0])

    def ticker(call: BatchCall) -> None:
        batch.tick(1.0)

    batch = ChartBatch(chart, 1, dict.fromkeys(HOST_ACTIONS, ticker))
    with pytest.raises(UsageError, match="tick\\(\\) called while batch 'Combo' processes"):
        batch.start()


ECHOING = b.chart(
    "Echoing",
    b.state(
        "Top",
        b.state("A", transitions=[b.on(b.input("Go"), "B")]),
        b.state(
            "B",
            enter=[b.action("echo"), b.action("host", tag=1)],
            transitions=[b.on(b.event("E"), "C"), b.on(b.event("F"), "D")],
        ),
        b.state("C", enter=[b.action("host", tag=2)]),
        b.state("D", enter=[b.action("host", tag=3)]),
    ),
    registry=DEFAULT_REGISTRY.with_actions(
        ActionType("echo"), ActionType("host", (Param("tag", int),))
    ),
)
ECHOED = [Event("event", "E"), Event("event", "F")]


@pytest.mark.parametrize("backend", backend_names())
def test_a_handler_may_send_each_of_its_agents_its_own_event(backend: str) -> None:
    choice = {0: 0, 1: 1, 2: -1, 3: 1}  # agent 2 gets none
    calls: list[tuple[str, list[int]]] = []

    def echo(call: BatchCall) -> None:
        calls.append(("echo", call.entities.tolist()))
        named = call.entities[::-1].copy()  # in any order, as send_each takes them
        batch.send_each(ECHOED, [choice[agent] for agent in named.tolist()], named)

    def host(call: BatchCall) -> None:
        calls.append((f"host {call.params['tag']}", call.entities.tolist()))

    batch = ChartBatch(ECHOING, 5, {"echo": echo, "host": host}, backend=backend)
    batch.start()
    go = (event for event in [Event("input", "Go")])  # any iterable; replays index it
    batch.send_each(go, [0, 0, 0, 0], [0, 1, 2, 3])

    for agent in range(5):
        active, made = _echoing_machine(None if agent == 4 else choice[agent])
        assert batch.active(agent) == active
        assert [name for name, agents in calls if agent in agents] == made
    assert calls == [
        ("echo", [0, 1, 2, 3]),
        ("host 1", [2]),  # agent 2 got no event: its calls go on in the batch's grouping
        ("host 1", [0]),
        ("host 2", [0]),
        ("host 1", [1]),
        ("host 3", [1]),
        ("host 1", [3]),
        ("host 3", [3]),
    ]


@pytest.mark.parametrize("backend", backend_names())
def test_a_handler_sending_while_agents_despawn_is_told_to_send_later(backend: str) -> None:
    refusals: list[str] = []

    def echo(call: BatchCall) -> None:
        try:
            batch.send(ECHOED[0], call.entities)
        except UsageError as error:
            refusals.append(str(error))

    chart = b.chart(
        "Leaving",
        b.state("Top", b.state("A", exit=[b.action("echo")])),
        registry=DEFAULT_REGISTRY.with_actions(ActionType("echo")),
    )
    batch = ChartBatch(chart, 3, {"echo": echo}, backend=backend)
    batch.start()
    batch.despawn([0, 2])

    assert refusals == [
        "send() called while the batch exits states outside a processing (despawn, reload or "
        "a received configuration), or not from one of its handlers; send after this call "
        "returns"
    ]
    assert batch.alive.tolist() == [False, True, False]


def _echoing_machine(choice: int | None) -> tuple[tuple[str, ...], list[str]]:
    """One agent of ``ECHOING`` as a machine (``None``: never sent Go), its echo sending
    ``ECHOED[choice]`` (none when negative); its active states and its calls."""
    made: list[str] = []

    def echo(call: ActionCall) -> None:
        made.append("echo")
        if choice is not None and choice >= 0:
            machine.send(ECHOED[choice])

    def host(call: ActionCall) -> None:
        made.append(f"host {call.params['tag']}")

    machine = ChartMachine(ECHOING, {"echo": echo, "host": host})
    machine.start()
    if choice is not None:
        machine.send(Event("input", "Go"))
    return machine.active, made


def test_a_missing_handler_or_a_snapshot_of_another_chart_is_refused() -> None:
    with pytest.raises(HandlerError, match="missing: enable_damage_collision"):
        ChartBatch(example("combo_attack.yaml"), 1, {})
    batch, host = combo(1)
    basic = example("basic_attack.yaml")
    with pytest.raises(DecodeError, match="another chart than 'BasicAttack'"):
        ChartBatch.restore(batch.snapshot(), basic, host.handlers())


def test_an_empty_batch_grows_and_splits_into_empty_shards() -> None:
    host = Host()
    batch = ChartBatch(example("combo_attack.yaml"), 0, host.handlers())
    batch.tick(1.0)
    batch.send(ATTACK)
    assert (batch.size, batch.counts()["Character"], host.take()) == (0, 0, [])
    assert batch.spawn(3).tolist() == [0, 1, 2]
    shards = batch.split(5)
    assert [(shard.size, shard.offset) for shard in shards] == [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (1, 2),
    ]
    assert ChartBatch.join(shards).alive.tolist() == [True, True, True]


def test_shards_of_a_split_join_only_in_order_and_once() -> None:
    batch = ChartBatch(example("combo_attack.yaml"), 4, Host().handlers())
    batch.start()
    batch.send(ATTACK, [0])
    left, right = batch.split(2)
    before = batch.snapshot().to_bytes()

    for wrong, message in (
        ([right, left], "a shard at offset 0 follows one covering 2 to 3"),
        ([left, left], "the same shard twice"),
        ([left], None),
    ):
        if message is None:
            assert ChartBatch.join(wrong).size == 2  # a prefix of the whole is in order
            continue
        with pytest.raises(UsageError, match=message):
            ChartBatch.join(wrong)
    assert ChartBatch.join([left, right]).snapshot().to_bytes() == before


def test_split_has_a_bound_and_a_frame_needs_choices_for_its_events() -> None:
    batch = ChartBatch(example("combo_attack.yaml"), 2, Host().handlers())
    batch.start()
    before = batch.snapshot().to_bytes()

    with pytest.raises(UsageError, match="at most 4096 shards, got 4097"):
        batch.split(4097)
    with pytest.raises(UsageError, match="frame\\(\\) was given events but no choices"):
        batch.frame(0.1, [ATTACK])

    assert batch.snapshot().to_bytes() == before


def test_a_handler_sending_each_a_choice_that_names_no_event_is_refused() -> None:
    refusals: list[str] = []

    def play_animation(call: BatchCall) -> None:
        try:
            batch.send_each([ATTACK], np.full(call.entities.size, 5), call.entities)
        except UsageError as error:
            refusals.append(str(error))

    handlers = {**dict.fromkeys(HOST_ACTIONS, Host()), "play_animation": play_animation}
    batch = ChartBatch(example("combo_attack.yaml"), 3, handlers)
    batch.start()

    assert refusals == ["choice 5 names no event: there are 1"]


@pytest.mark.parametrize("given", [str(CHARTS / "combo_attack.yaml"), None, {"name": "X"}])
def test_a_chart_given_as_something_else_is_refused(given: object) -> None:
    with pytest.raises(UsageError) as refused:
        ChartBatch(given, 1)  # type: ignore[arg-type]

    assert str(refused.value).startswith(f"a chart is needed, got {given!r}")


@pytest.mark.parametrize("backend", backend_names())
def test_a_time_that_would_take_a_clock_to_infinity_is_refused(backend: str) -> None:
    batch = ChartBatch(example("combo_attack.yaml"), 3, Host().handlers(), backend=backend)
    batch.tick(1e308)
    before = batch.snapshot().to_bytes()
    for call, name in [
        (lambda: batch.tick(1e308), "tick"),
        (lambda: batch.frame(1e308, [ATTACK], [0, -1, 0]), "frame"),
    ]:
        with pytest.raises(UsageError) as caught:
            call()
        message = f"{name}(1e+308): the clock (1e+308) would pass the largest float"
        assert str(caught.value) == message
        assert batch.snapshot().to_bytes() == before


@pytest.mark.parametrize("backend", backend_names())
def test_a_clock_no_agent_reads_any_more_refuses_no_time(backend: str) -> None:
    idle = b.chart("Idle", b.state("Top", b.state("A"), b.state("B")))
    batch, machine = ChartBatch(idle, 1, backend=backend), ChartMachine(idle)
    batch.tick(1e308)
    batch.despawn([0])
    batch.spawn(1)  # a new agent at clock 0: its machine takes this tick
    machine.tick(1e308)
    batch.tick(1e308)
    assert batch.agent(0).clock == machine.clock == 1e308
