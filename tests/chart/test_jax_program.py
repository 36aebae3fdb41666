"""ChartProgram as a JAX user sees it: frames, jit / vmap / scan, levels, loops, snapshots,
reads, parameters and the errors of wrong calls."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

jax = pytest.importorskip("jax", reason="JAX programs need the jax extra (Python 3.11+)")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

from statetree.chart import (  # noqa: E402
    DEFAULT_REGISTRY,
    ActionType,
    BatchLoopError,
    ChartBatch,
    ChartMachine,
    Event,
    Param,
    load,
)
from statetree.chart import builder as b  # noqa: E402
from statetree.chart.batch import BatchSnapshot  # noqa: E402
from statetree.chart.batch.table import table_of  # noqa: E402
from statetree.chart.compile import compile_chart  # noqa: E402
from statetree.chart.jax import TIMERS, UNRECORDED, ChartProgram  # noqa: E402
from statetree.chart.jax.complete import complete  # noqa: E402
from statetree.errors import DecodeError, UsageError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GAME = runpy.run_path(str(ROOT / "examples" / "charts" / "game.py"))["REGISTRY"]
CROWD = load(ROOT / "examples" / "charts" / "crowd.json", GAME)
EVENTS = [Event("input", n) for n in ("Attack", "Jump", "Move", "Stop")] + [
    Event("event", "Died"),
    Event("input", "Respawn"),
]
ATTACK, JUMP, MOVE, DIED = 0, 1, 2, 4
IDLE = "enter Character.Alive.Locomotion.Idle: play_animation(name='Idle', loop=True)"
HIT1 = "enter Character.Alive.Combo.Hit1: play_animation(name='Hit1', loop=False)"
WALK = "enter Character.Alive.Locomotion.Walk: play_animation(name='Walk', loop=True)"
DIE = "enter Character.Dead: play_animation(name='Die', loop=False)"
SPIN = Event("held", "Spin")
BARKING = DEFAULT_REGISTRY.with_actions(ActionType("bark"))
LOOP = b.chart(
    "Loop",
    b.state(
        "Top",
        b.state("A", transitions=[b.on(b.held("Spin"), "B")]),
        b.state("B", transitions=[b.on(b.held("Spin"), "A")]),
    ),
)
BLINK = b.chart(
    "Blink",
    b.state(
        "Blink",
        b.state("Wait", enter=[b.start_timer("T", 0.0)], transitions=[b.on(b.timer("T"), "Go")]),
        b.state("Go", enter=[b.start_timer("T", 0.0)], transitions=[b.on(b.timer("T"), "Wait")]),
    ),
)


@pytest.fixture(scope="module")
def crowd() -> ChartProgram:
    return ChartProgram(CROWD, EVENTS)


def calls(program: ChartProgram, frame: object) -> list[tuple[str, list[int]]]:
    return [(str(c.action), c.entities.tolist()) for c in program.host_calls(frame)]  # type: ignore[arg-type]


def leaves(program: ChartProgram, agents: object) -> list[str]:
    return [program.paths[n] for n in np.asarray(program.leaf_ids(agents)).tolist()]  # type: ignore[arg-type]


def test_a_frame_starts_the_agents_then_gives_each_its_event_then_ticks(
    crowd: ChartProgram,
) -> None:
    agents = crowd.init(4)
    agents, frame = crowd.step(agents, np.array([-1, ATTACK, DIED, MOVE]), 0.25)
    # by processing (the starts, then the events), then by the moment of the change
    assert calls(crowd, frame) == [(IDLE, [0, 1, 2, 3]), (WALK, [3]), (DIE, [2]), (HIT1, [1])]
    assert leaves(crowd, agents) == [
        "Character.Alive.Locomotion.Idle",
        "Character.Alive.Combo.Hit1.Windup",
        "Character.Dead",
        "Character.Alive.Locomotion.Walk",
    ]
    assert np.asarray(agents.clock).tolist() == [0.25] * 4
    assert np.asarray(agents.due)[0, 1] == 0.3  # the windup started at 0, when its event came
    agents, frame = crowd.tick(agents, 0.25)  # at 0.3 the windup ends, the window opens
    assert calls(crowd, frame) == []
    assert leaves(crowd, agents)[1] == "Character.Alive.Combo.Hit1.Window"
    assert np.asarray(agents.due)[0, 1] == 0.3 + 0.4  # counted from the timer's expiry
    rows, params = crowd.params("play_animation")
    called = np.asarray(frame.calls)
    assert called.shape == (len(crowd.actions), 4) and not called.any()
    assert [crowd.labels("play_animation", "name")[i] for i in np.asarray(params["name"])] == [
        str(crowd.actions[row].params["name"]) for row in rows
    ]


def test_the_program_runs_inside_jit_vmap_and_scan_as_each_game_alone(
    crowd: ChartProgram,
) -> None:
    games, agents, frames = 3, 6, 24
    random = np.random.default_rng(7)
    inputs = random.integers(-3, len(EVENTS), (frames, games, agents)).astype(np.int32)

    @jax.jit
    def played(start: object, inputs: jax.Array) -> object:
        def frame(state: object, choices: jax.Array) -> object:
            state, out = jax.vmap(lambda s, c: crowd.step(s, c, 0.1))(state, choices)
            return state, out.calls

        return lax.scan(frame, start, inputs)

    start = jax.vmap(lambda _: crowd.init(agents))(jnp.arange(games))
    together, masks = played(start, jnp.asarray(inputs))
    step = jax.jit(lambda state, choices: crowd.step(state, choices, 0.1))
    for game in range(games):
        alone = crowd.init(agents)
        for number in range(frames):
            alone, frame = step(alone, jnp.asarray(inputs[number, game]))
            assert np.array_equal(np.asarray(frame.calls), np.asarray(masks[number, game]))
        for mine, theirs in zip(alone, together, strict=True):
            assert np.array_equal(np.asarray(mine), np.asarray(theirs)[game], equal_nan=True)


def test_the_callers_own_arrays_keep_jaxs_default_types(crowd: ChartProgram) -> None:
    agents, _ = crowd.step(crowd.init(2), np.array([ATTACK, -1]), 0.1)
    assert (agents.clock.dtype, agents.due.dtype) == (jnp.float64, jnp.float64)
    assert jnp.zeros(1).dtype == jnp.float32
    assert crowd.params("play_animation")[1]["loop"].dtype == jnp.bool_
    assert not jax.config.read("jax_enable_x64")


def test_a_choice_naming_no_event_is_refused_and_the_agent_still_ticks(
    crowd: ChartProgram,
) -> None:
    agents, _ = crowd.step(crowd.init(3), np.array([-1, -1, -1]), 0.0)
    agents, frame = crowd.step(agents, np.array([len(EVENTS), ATTACK, -1]), 0.5)
    assert np.asarray(frame.refused).tolist() == [True, False, False]
    assert np.asarray(agents.clock).tolist() == [0.5, 0.5, 0.5]
    assert leaves(crowd, agents)[0] == "Character.Alive.Locomotion.Idle"
    # A JAX array is not read on the host: an unsigned choice past 31 bits is refused there.
    wide = jnp.array([2**32 - 1, 2**31, len(EVENTS) - 1], jnp.uint32)
    _, frame = crowd.step(agents, wide, 0.5)
    assert np.asarray(frame.refused).tolist() == [True, True, False]


def test_levels_change_only_the_agents_they_name() -> None:
    program = ChartProgram(LOOP, max_transitions=10)
    batch = ChartBatch(LOOP, 3, max_transitions=10)
    agents = program.init(3)
    where = np.array([True, False, True])
    agents, frame = program.set_levels(agents, {SPIN: True}, where)
    with pytest.raises(BatchLoopError) as raised:
        batch.hold(SPIN, [0, 2])
    error = program.loop_error(frame)
    assert error is not None
    assert (error.entities, error.cycle, str(error)) == (
        raised.value.entities,
        raised.value.cycle,
        str(raised.value),
    )
    ids = np.asarray(program.leaf_ids(agents)).tolist()
    assert ids[1] == -1  # not started: its levels did not change
    assert [program.paths[ids[0]], program.paths[ids[2]]] == [
        batch.active(0)[-1],
        batch.active(2)[-1],
    ]
    assert np.asarray(frame.failure).tolist() == [0, -1, 0]
    assert program.cycles == (("Top.A", "Top.B"),)


@pytest.mark.parametrize(
    ("levels", "where", "message"),
    [
        ({SPIN: np.array([0.5, 0.0, 2.0])}, None, "for held Spin: got shape (3,) of type float"),
        ({SPIN: np.array([True, False])}, None, "for held Spin: got shape (2,) of type bool"),
        ({SPIN: True}, np.array([0, 1, 2]), "for where: got shape (3,) of type int"),
    ],
)
def test_levels_and_where_are_booleans_one_per_agent(
    levels: dict[Event, object], where: object, message: str
) -> None:
    program = ChartProgram(LOOP, max_transitions=10)
    agents = program.init(3)

    with pytest.raises(UsageError) as refused:
        program.set_levels(agents, levels, where)  # type: ignore[arg-type]

    assert str(refused.value).startswith(
        f"set_levels() needs a boolean, or one boolean per agent (3), {message}"
    )


def test_an_agent_firing_too_many_timers_is_reported_with_the_batchs_cycle() -> None:
    program = ChartProgram(BLINK, max_transitions=8)
    batch = ChartBatch(BLINK, 2, max_transitions=8)
    before = program.init(2)
    after, frame = program.step(before, np.array([-1, -1]), 0.5)
    with pytest.raises(BatchLoopError) as raised:
        batch.frame(0.5, [], [-1, -1])
    assert np.asarray(frame.failure).tolist() == [TIMERS, TIMERS]
    error = program.loop_error(frame, before, None, 0.5)
    assert error is not None and error.timers
    assert (error.entities, error.cycle, str(error)) == (
        raised.value.entities,
        raised.value.cycle,
        str(raised.value),
    )
    assert program.loop_error(frame) is not None  # without the agents before: no cycle
    mine, theirs = program.snapshot(after).arrays, batch.snapshot().arrays
    for name in theirs:
        assert np.array_equal(mine[name], theirs[name], equal_nan=True), name


def test_snapshots_go_both_ways_with_chartbatch(crowd: ChartProgram) -> None:
    agents, _ = crowd.step(crowd.init(3), np.array([ATTACK, JUMP, -1]), 0.2)
    snapshot = BatchSnapshot.from_bytes(crowd.snapshot(agents).to_bytes())
    batch = ChartBatch.restore(snapshot, CROWD, {"play_animation": lambda call: None})
    batch.frame(0.2, EVENTS, [-1, -1, DIED])
    agents, _ = crowd.step(agents, np.array([-1, -1, DIED]), 0.2)
    back = crowd.restore(batch.snapshot())
    for mine, theirs in zip(agents, back, strict=True):
        assert np.array_equal(np.asarray(mine), np.asarray(theirs), equal_nan=True)


def test_an_agent_no_fresh_agent_reaches_needs_a_covering_program() -> None:
    before = b.chart(
        "Swap", b.state("Root", b.state("A", transitions=[b.on(b.input("X"), "B")]), b.state("B"))
    )
    after = b.chart("Swap", b.state("Root", b.state("A"), b.state("B")))
    batch = ChartBatch(before, 2)
    batch.send(Event("input", "X"), [1])
    batch.reload(after)
    snapshot = batch.snapshot()
    program = ChartProgram(compile_chart(after))
    with pytest.raises(UsageError, match=r"run program.covering\(snapshot\)"):
        program.restore(snapshot)
    covering = program.covering(snapshot)
    assert covering.covering(snapshot) is covering
    agents = covering.restore(snapshot)
    assert [covering.paths[n] for n in np.asarray(covering.leaf_ids(agents))] == [
        "Root.A",
        "Root.B",
    ]


def test_wrong_calls_are_refused_with_what_was_wrong(crowd: ChartProgram) -> None:
    agents = crowd.init(2)
    with pytest.raises(UsageError, match=r"is a level trigger: use set_levels\(\)"):
        ChartProgram(LOOP, [SPIN])
    with pytest.raises(UsageError, match=r"unknown event kind 'inptu' \(did you mean 'input'"):
        ChartProgram(CROWD, [Event("inptu", "Attack")])
    with pytest.raises(UsageError, match=r"^ChartProgram\(\) takes an Event\(kind, name\)"):
        ChartProgram(CROWD, ["Attack"])  # type: ignore[list-item]
    with pytest.raises(UsageError, match=r"one integer choice per agent \(2\)"):
        crowd.step(agents, np.array([0, 1, 2]), 0.1)
    with pytest.raises(UsageError, match=r"one integer choice per agent \(2\)"):
        crowd.step(agents, np.array([0.0, 1.0]), 0.1)
    with pytest.raises(UsageError, match="time cannot go backwards"):
        crowd.step(agents, np.array([0, 1]), -1.0)
    for dt in (jnp.asarray(True), jnp.asarray(0.5 + 0j), jnp.zeros(2)):
        with pytest.raises(UsageError, match=r"^step\(\) needs one dt of real seconds"):
            crowd.step(agents, np.array([0, 1]), dt)
    narrow = agents._replace(clock=agents.clock.astype(jnp.float32))
    for call in (
        lambda: crowd.step(narrow, np.array([0, 1]), 0.1),
        lambda: crowd.set_levels(narrow, {}),
        lambda: crowd.snapshot(narrow),
    ):
        with pytest.raises(UsageError, match=r"the agents' clock is of type float32, where"):
            call()
    with pytest.raises(UsageError, match="not a level trigger of the chart"):
        crowd.set_levels(agents, {SPIN: True})
    with pytest.raises(UsageError, match="has no host action 'strike'"):
        crowd.params("strike")
    with pytest.raises(UsageError, match="has no state 'Nowhere'"):
        crowd.is_active(agents, "Nowhere")
    with pytest.raises(UsageError, match="record must be an integer of at least 0"):
        ChartProgram(CROWD, record=-1)
    games = jax.vmap(lambda _: crowd.init(2))(jnp.arange(2))
    with pytest.raises(UsageError, match="index their batch axes first"):
        crowd.snapshot(games)
    blind = ChartProgram(CROWD, EVENTS, record=0)
    _, frame = blind.step(blind.init(2), np.array([-1, -1]), 0.1)
    with pytest.raises(UsageError, match=r"agents 0, 1 made host calls .* larger record"):
        blind.host_calls(frame)
    idle = [call.state == "Character.Alive.Locomotion.Idle" for call in blind.actions]
    assert np.asarray(frame.calls).tolist() == [[row, row] for row in idle]


def test_agents_of_another_program_and_host_reads_inside_jit_are_refused(
    crowd: ChartProgram,
) -> None:
    others = ChartProgram(LOOP).init(3)  # no timer rows, where the crowd's chart has one
    with pytest.raises(UsageError) as caught:
        crowd.step(others, np.array([0, 1, 2]), 0.1)
    rows = crowd.tables.fire.shape[0]
    assert str(caught.value) == (
        f"step(): the agents' due has shape (0, 3), where program 'Crowd' makes "
        f"({rows}, 3) for situations of shape (3,): agents of another program?"
    )
    with pytest.raises(UsageError, match=r"^set_levels\(\): the agents' due has shape"):
        crowd.set_levels(others, {}, None)
    with pytest.raises(UsageError, match=r"step\(\) takes the agents init\(\) or a step made"):
        crowd.step((1, 2), np.array([0]), 0.1)  # type: ignore[arg-type]

    agents = crowd.init(2)
    stray = agents._replace(situation=jnp.asarray([1, 10**6], jnp.int32))
    known = crowd.tables.table.shape[0]
    with pytest.raises(UsageError) as caught:
        crowd.snapshot(stray)
    assert str(caught.value) == (
        f"snapshot(): agents in situations 1 to 1000000, but program 'Crowd' has "
        f"{known}: agents of another program?"
    )

    @jax.jit
    def read_inside(agents: Any) -> Any:
        after, frame = crowd.step(agents, jnp.zeros(2, jnp.int32), 0.1)
        crowd.host_calls(frame)
        return after

    with pytest.raises(UsageError, match=r"^host_calls\(\) reads arrays on the host: call it "):
        read_inside(agents)
    with pytest.raises(UsageError, match=r"^snapshot\(\) reads arrays on the host"):
        jax.jit(lambda agents: crowd.snapshot(agents).size)(agents)
    assert crowd.snapshot(agents).size == 2  # outside jit, the same calls read


def test_processings_past_the_record_are_flagged_and_their_calls_still_reported() -> None:
    program = ChartProgram(CROWD, EVENTS, record=1)
    agents, frame = program.step(program.init(3), np.array([ATTACK, -1, -1]), 0.1)
    # Agent 0 starts (round 0, recorded), then attacks (round 1, past the record).
    entries = np.asarray(frame.entries)
    assert entries[0, 0] == UNRECORDED and entries[0, 1] == entries[0, 2] >= 0
    assert np.asarray(frame.overflow).tolist() == [True, False, False]
    names = [str(call.params["name"]) for call in program.actions]
    performed = {names[a] for a in np.flatnonzero(np.asarray(frame.calls)[:, 0])}
    assert performed == {"Idle", "Hit1"}
    with pytest.raises(UsageError, match=r"^agents 0 made host calls in more processings than"):
        program.host_calls(frame)
    assert leaves(program, agents)[0] == "Character.Alive.Combo.Hit1.Windup"


def test_a_snapshot_holding_levels_the_chart_does_not_use_is_refused(
    crowd: ChartProgram,
) -> None:
    batch = ChartBatch(CROWD, 2, {"play_animation": lambda call: None})
    batch.hold(Event("held", "Unused"), [1])
    with pytest.raises(UsageError) as refused:
        crowd.restore(batch.snapshot())
    assert str(refused.value) == (
        "the snapshot's agents hold levels the chart does not use (held Unused): a program "
        "keeps only the chart's levels; release them in the batch before its snapshot"
    )
    batch.release(Event("held", "Unused"), [1])
    restored = crowd.restore(batch.snapshot())  # released: nothing held aside
    assert crowd.snapshot(restored).to_bytes() == batch.snapshot().to_bytes()
    other = ChartBatch(LOOP, 1).snapshot()
    with pytest.raises(DecodeError, match="another chart"):
        crowd.restore(other)


def test_a_chart_too_large_for_a_complete_table_says_what_to_run_instead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    levels = b.chart(
        "Levels",
        b.state(
            "Root",
            b.state(
                "A",
                transitions=[b.on(b.all_of(*(b.held(f"L{n}") for n in range(12))), "B")],
            ),
            b.state("B"),
        ),
    )
    with pytest.raises(
        UsageError, match=r"12 level triggers: .* stops at 11; run it with ChartBatch"
    ):
        ChartProgram(levels)
    table = table_of(compile_chart(CROWD), 5)
    with pytest.raises(
        UsageError, match=r"reaches \d+ situations so far .*\(at most 3 situations\)"
    ):
        complete(table, limit=3)
    # Each situation of a chart with one level has two variants: 4 cells hold 1 situation.
    monkeypatch.setattr("statetree.chart.jax.complete.MAX_RELEVEL", 4)
    with pytest.raises(
        UsageError,
        match=r"with 1 level trigger, each has 2 variants\): too .*\(at most 4 situations times "
        r"variants, here 12\)",
    ):
        ChartProgram(LOOP, max_transitions=7)


def test_reads_name_each_agents_states_as_the_batch_does(crowd: ChartProgram) -> None:
    batch = ChartBatch(CROWD, 3, {"play_animation": lambda call: None})
    batch.frame(0.1, EVENTS, [ATTACK, -1, DIED])
    agents, _ = crowd.step(crowd.init(3), np.array([ATTACK, -1, DIED]), 0.1)
    assert np.asarray(crowd.leaf_ids(agents)).tolist() == batch.leaf_ids().tolist()
    inside = "Character.Alive.Combo"
    assert np.asarray(crowd.leaf_ids(agents, inside)).tolist() == batch.leaf_ids(inside).tolist()
    assert np.asarray(crowd.is_active(agents, "Character.Alive")).tolist() == [True, True, False]
    flags = np.asarray(crowd.active_flags(agents))
    assert flags.sum(axis=0).tolist() == list(batch.counts().values())


def test_without_jax_the_module_says_what_to_install() -> None:
    # Python refuses to import a module whose entry in sys.modules is None.
    code = "import sys; sys.modules['jax'] = None; import statetree.chart.jax"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.endswith(
        "statetree.chart.jax needs JAX: install it with pip install 'statetree[jax]'"
    )


HOSTILE_CALLS: list[tuple[str, Any, str]] = [
    ("levels not a mapping", lambda p, a: p.set_levels(a, [(SPIN, True)]), "takes a mapping"),
    ("a level of None", lambda p, a: p.set_levels(a, {SPIN: None}), "got None"),
    (
        "a plain tuple for a level",
        lambda p, a: p.set_levels(a, {("held", "Spin"): True}),
        r"set_levels\(\) takes an Event\(kind, name\) of two strings",
    ),
    (
        "a level of a misspelt kind",
        lambda p, a: p.set_levels(a, {Event("hedl", "Spin"): True}),
        r"unknown event kind 'hedl' \(did you mean 'held'\?\)",
    ),
    ("a level of 'yes'", lambda p, a: p.set_levels(a, {SPIN: "yes"}), "got 'yes'"),
    (
        "levels of two axes",
        lambda p, a: p.set_levels(a, {SPIN: np.ones((1, 2), bool)}),
        r"got shape \(1, 2\) of type bool",
    ),
    ("where of 'x'", lambda p, a: p.set_levels(a, {SPIN: True}, where="x"), "for where: got 'x'"),
    (
        "choices of two axes",
        lambda p, a: p.step(a, np.zeros((1, 2), np.int64), 0.1),
        r"got shape \(1, 2\) of type int64",  # as given, not as JAX would take it
    ),
    ("choices holding None", lambda p, a: p.step(a, [0, None], 0.1), r"got \[0, None\]"),
    (
        "a choice past 32 bits",
        lambda p, a: p.step(a, np.array([2**32, -1]), 0.1),
        "choice 4294967296 is beyond what any step can name",
    ),
    (
        "a dt of two",
        lambda p, a: p.step(a, [0, 0], jnp.ones(2)),
        r"one dt of real seconds, got an array of shape",
    ),
    (
        "agents of two worlds",
        lambda p, a: p.step(jax.vmap(lambda _: p.init(2))(jnp.arange(2)), [0, 0], 0.1),
        r"agents of one environment \(situations of shape \(2, 2\)\): for several",
    ),
    ("no agents", lambda p, a: p.snapshot(None), r"snapshot\(\) takes the agents init\(\)"),
    ("no agents to tick", lambda p, a: p.tick("junk", 0.1), r"^tick\(\) takes the agents init"),
    ("a path of a list", lambda p, a: p.is_active(a, ["Top"]), r"has no state \['Top'\]"),
    ("within a list", lambda p, a: p.leaf_ids(a, ["Top"]), r"has no state \['Top'\]"),
    (
        "a carried timer of a list",
        lambda p, a: ChartProgram(LOOP, carried=[(["Top"], "T")]),
        r"\(state path, timer name\) of the chart, got \(\['Top'\], 'T'\)",
    ),
    ("no frame", lambda p, a: p.host_calls(None), r"host_calls\(\) takes a Frame"),
    ("no frame either", lambda p, a: p.loop_error((1, 2)), r"loop_error\(\) takes a Frame"),
    ("agents of lists", lambda p, a: p.is_active(a._replace(clock=[0, 0]), "Top.A"), "takes"),
    (
        "a bound past 32 bits",
        lambda p, a: ChartProgram(LOOP, max_transitions=2**70),
        r"^max_transitions must be at most 2,147,483,647, got 1180591620717411303424$",
    ),
    ("a record past 32 bits", lambda p, a: ChartProgram(LOOP, record=2**31), "record must be at"),
    ("agents past 32 bits", lambda p, a: p.init(2**40), r"^init\(\) count must be at most"),
    (
        "events of a number",
        lambda p, a: ChartProgram(LOOP, 3),
        r"^ChartProgram\(\) takes a list of events, such as \[Event\('input', 'Jump'\)\], got 3$",
    ),
    (
        "one event for a list",
        lambda p, a: ChartProgram(LOOP, Event("input", "Go")),
        r"^ChartProgram\(\) takes a list of events, .*got Event\(kind='input', name='Go'\)$",
    ),
    (
        "events of None",
        lambda p, a: ChartProgram(LOOP, [None]),
        r"^ChartProgram\(\) takes an Event\(kind, name\) of two strings.*; got None$",
    ),
    (
        "a timer carried by no state",
        lambda p, a: ChartProgram(LOOP, carried=[("Nowhere", "T")]),
        r"\(state path, timer name\) of the chart, got \('Nowhere', 'T'\)",
    ),
]


@pytest.mark.parametrize(
    ("what", "call", "message"), HOSTILE_CALLS, ids=[h[0] for h in HOSTILE_CALLS]
)
def test_hostile_arguments_are_refused_with_what_was_wrong(
    what: str, call: Any, message: str
) -> None:
    program = ChartProgram(LOOP, [])
    with pytest.raises(UsageError, match=message):
        call(program, program.init(2))


def test_a_program_shares_the_table_of_a_chart_a_batch_reloaded_into() -> None:
    exits = b.state("A", exit=[b.action("bark")])
    old = b.chart("S", b.state("Top", exits, b.state("B")), registry=BARKING)
    new = compile_chart(b.chart("S", b.state("Top", b.state("Z"), b.state("B")), registry=BARKING))
    batch = ChartBatch(old, 2, {"bark": lambda call: None})
    batch.start()
    batch.reload(new)  # the shared table now holds the reload's entries, old barks included
    program = ChartProgram(new)
    agents = program.covering(batch.snapshot()).restore(batch.snapshot())
    assert leaves(program, agents) == ["Top.Z", "Top.Z"]


def test_a_program_of_a_chart_a_batch_despawned_agents_of_builds() -> None:
    """A despawn's entries (agents leaving for the unstarted situation) join the table the
    batches and programs of a compiled chart share; no step takes them."""
    compiled = compile_chart(CROWD)
    batch = ChartBatch(compiled, 3, {"play_animation": lambda call: None})
    batch.start()
    batch.despawn([1])
    program = ChartProgram(compiled)
    agents = program.covering(batch.snapshot()).restore(batch.snapshot())
    found = np.asarray(program.leaf_ids(agents)).tolist()
    assert found == batch.leaf_ids().tolist()
    assert found[1] == -1 and min(found[0], found[2]) > 0


def test_a_dt_closed_over_fires_at_the_machines_instants_a_float32_argument_does_not() -> None:
    """What jax.md says of a dt that is an argument of the caller's own jit."""
    fuse = b.chart(
        "Fuse",
        b.state(
            "Top",
            b.state(
                "Lit",
                enter=[b.start_timer("Fuse", 0.7)],
                transitions=[b.on(b.timer("Fuse"), "Boom")],
            ),
            b.state("Boom"),
        ),
    )
    program = ChartProgram(fuse)
    machine = ChartMachine(fuse)
    machine.tick(0.7)
    none = jnp.array([-1])
    closed, _ = jax.jit(lambda agents: program.step(agents, none, 0.7))(program.init(1))
    given, _ = jax.jit(program.step)(program.init(1), none, 0.7)
    assert machine.is_active("Top.Boom")
    assert leaves(program, closed) == ["Top.Boom"]
    assert leaves(program, given) == ["Top.Lit"]  # the float32 0.7 is below the deadline
    assert float(given.clock[0]) == float(jnp.float32(0.7))


def test_a_loop_error_replays_a_refused_choice_as_none() -> None:
    program = ChartProgram(BLINK, [Event("input", "Poke")], max_transitions=4)
    before = program.init(2)
    choices = np.array([5, -1])  # agent 0's choice names no event: refused, no event
    _, frame = program.step(before, choices, 0.1)
    error = program.loop_error(frame, before, choices, 0.1)
    assert error is not None and error.cycle == ("Blink.Wait", "Blink.Go")
    assert "the repeating cycle is not known here" in str(program.loop_error(frame))


def test_a_level_change_of_a_started_agent_is_its_first_processing_in_the_record() -> None:
    barking = b.chart(
        "Dog",
        b.state(
            "Top",
            b.state("Quiet", transitions=[b.on(b.held("Spin"), "Loud")]),
            b.state("Loud", enter=[b.action("bark")]),
        ),
        registry=BARKING,
    )
    program = ChartProgram(barking, record=1)
    agents, _ = program.tick(program.init(2), 0.0)  # started
    agents, frame = program.set_levels(agents, {SPIN: True})
    assert np.asarray(frame.overflow).tolist() == [False, False]
    assert calls(program, frame) == [("enter Top.Loud: bark()", [0, 1])]


def test_the_callers_strict_type_promotion_does_not_reach_the_program(crowd: ChartProgram) -> None:
    with jax.numpy_dtype_promotion("strict"):
        agents, frame = crowd.step(crowd.init(3), jnp.array([ATTACK, -1, JUMP]), 0.1)
        agents, _ = crowd.set_levels(agents, {}) if crowd.levels else (agents, frame)
    assert leaves(crowd, agents)[0] == "Character.Alive.Combo.Hit1.Windup"


def test_unsigned_choices_past_the_events_are_refused_not_wrapped(crowd: ChartProgram) -> None:
    with jax.enable_x64(True):
        choices = jnp.array([2**64 - 1, 2**63, ATTACK], jnp.uint64)
    _, frame = crowd.step(crowd.init(3), choices, 0.1)
    assert np.asarray(frame.refused).tolist() == [True, True, False]
    for narrow in (jnp.uint8, jnp.uint16):  # too narrow to wrap: read as they are
        _, frame = crowd.step(crowd.init(3), jnp.array([200, ATTACK, 7], narrow), 0.1)
        assert np.asarray(frame.refused).tolist() == [True, False, True]


def test_what_the_program_cannot_read_or_hold_is_refused_with_what_was_wrong(
    crowd: ChartProgram,
) -> None:
    agents = crowd.init(3)
    flat_due = agents._replace(due=agents.due[0])
    with pytest.raises(UsageError, match=r"^snapshot\(\): the agents' due has shape \(3,\), for"):
        crowd.snapshot(flat_due)
    floats = agents._replace(situation=agents.situation.astype(jnp.float32))
    for read in (crowd.leaf_ids, crowd.active_flags):
        with pytest.raises(UsageError, match="the agents' situation is of type float32"):
            read(floats)
    one = jax.tree.map(lambda array: array[..., 0], agents)
    with pytest.raises(UsageError, match="the agents have no agent axis"):
        crowd.step(one, np.array(-1), 0.1)
    _, frame = crowd.step(agents, np.array([-1, -1, -1]), 0.1)
    with pytest.raises(UsageError, match=r"^loop_error\(\): the agents before the step"):
        crowd.loop_error(frame, jax.tree.map(lambda array: array[..., :1], agents))
    with pytest.raises(UsageError, match="one integer choice per agent"):
        crowd.loop_error(frame, agents, [0.5, 0.0, 0.0])
    rewards = b.chart(
        "Reward",
        b.state("Top", enter=[b.action("reward", points=3_000_000_000)]),
        registry=DEFAULT_REGISTRY.with_actions(ActionType("reward", (Param("points", int),))),
    )
    program = ChartProgram(rewards)
    with pytest.raises(UsageError, match="parameter 'points' of the chart's 'reward' actions"):
        program.params("reward")
    with pytest.raises(UsageError, match="have no parameter 'point' \\(they have: points\\)"):
        program.labels("reward", "point")


def test_levels_of_starting_and_started_agents_make_the_batchs_host_calls() -> None:
    acting = DEFAULT_REGISTRY.with_actions(ActionType("act", (Param("name"),)))
    crouch = Event("held", "Crouch")
    chart = b.chart(
        "C",
        b.state(
            "Top",
            b.state(
                "Stand",
                enter=[b.action("act", name="stand")],
                transitions=[b.on(b.held("Crouch"), "Low")],
            ),
            b.state("Low", enter=[b.action("act", name="low")]),
        ),
        registry=acting,
    )
    made: list[tuple[str, list[int]]] = []
    batch = ChartBatch(
        chart, 3, {"act": lambda c: made.append((str(c.action), c.entities.tolist()))}
    )
    batch.start([1])
    snapshot = batch.snapshot()
    made.clear()
    batch.set_levels({crouch: np.array([True, True, False])})  # agent 0 starts, 1 had
    program = ChartProgram(chart, [])
    _, frame = program.set_levels(
        program.restore(snapshot), {crouch: np.array([True, True, False])}
    )
    assert calls(program, frame) == made
