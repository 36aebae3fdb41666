"""Saving chart machines: a snapshot's bytes restore a new machine where the old one was,
pickle and deepcopy give a machine of its own that goes on as the original, and no action,
handler, listener or trace line runs while a machine is put in place."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import statetree as st
from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    ChartBatch,
    ChartMachine,
    Event,
    MachineSnapshot,
    Param,
    compile_chart,
    fingerprint,
    from_data,
    load,
)
from statetree.chart.saving import load_chart

GAME = DEFAULT_REGISTRY.with_actions(ActionType("play", (Param("sound"),)))

GUARD = {
    "name": "Guard",
    "root": {
        "name": "Guard",
        "policy": "concurrent",
        "states": [
            {
                "name": "Body",
                "states": [
                    {"name": "Idle", "transitions": [{"on": {"input": "alert"}, "to": "Alert"}]},
                    {
                        "name": "Alert",
                        "enter": [{"play": "alarm"}, {"start_timer": {"name": "calm", "delay": 2}}],
                        "exit": [{"play": "sigh"}],
                        "transitions": [{"on": {"timer": "calm"}, "to": "Idle"}],
                    },
                ],
            },
            {
                "name": "Eyes",
                "policy": "priority",
                "states": [
                    {"name": "Watching", "pre": {"held": "Sees"}, "enter": [{"play": "gasp"}]},
                    {"name": "Scanning"},
                ],
            },
        ],
    },
}
CHART = from_data(GUARD, GAME)
ALERT = Event("input", "alert")
SEES = Event("held", "Sees")


class Guard:
    """A game object holding its chart machine, whose handler is one of its methods."""

    def __init__(self) -> None:
        self.sounds: list[str] = []
        self.lines: list[str] = []
        self.brain = ChartMachine(
            CHART,
            {"play": self.play},
            owner=self,
            trace=st.TraceLevel.BASIC,
            trace_sink=self.lines.append,
        )

    def play(self, call: ActionCall) -> None:
        assert call.owner is self
        self.sounds.append(str(call.params["sound"]))

    def run(self) -> None:
        self.brain.send(ALERT)
        self.brain.hold(SEES)
        self.brain.tick(0.5)


def alerted() -> Guard:
    guard = Guard()
    guard.run()
    return guard


def go_on(guard: Guard) -> None:
    guard.brain.tick(2.0)  # calm fires at 2.0
    guard.brain.release(SEES)
    guard.brain.send(ALERT)


def test_a_snapshot_holds_everything_a_machine_is_between_two_calls() -> None:
    snapshot = alerted().brain.snapshot()
    assert snapshot == MachineSnapshot(
        fingerprint(CHART),
        ("Guard", "Guard.Body", "Guard.Body.Alert", "Guard.Eyes", "Guard.Eyes.Watching"),
        (("Guard", "Eyes"), ("Guard.Body", "Alert")),  # the last child each entered
        (SEES,),
        0.5,
        (("calm", "Guard.Body.Alert", 2.0),),
    )
    assert MachineSnapshot.from_bytes(snapshot.to_bytes()) == snapshot
    assert snapshot.to_bytes().startswith(b"STMACHN1{")
    for passed in (bytearray(snapshot.to_bytes()), memoryview(snapshot.to_bytes())):
        assert MachineSnapshot.from_bytes(passed) == snapshot
    with pytest.raises(st.DecodeError, match="is bytes, not str"):
        MachineSnapshot.from_bytes("STMACHN1{")  # type: ignore[arg-type]


def test_a_restored_machine_is_put_in_place_silently_and_goes_on_as_the_original() -> None:
    guard = alerted()
    data = guard.brain.snapshot().to_bytes()
    heard: list[Any] = []
    copy_lines: list[str] = []
    restored = ChartMachine(
        CHART,
        {"play": lambda call: heard.append(str(call.params["sound"]))},
        trace=st.TraceLevel.DIAGNOSTIC,
        trace_sink=copy_lines.append,
        on_action=heard.append,
    )
    restored.add_event_listener(heard.append)
    restored.restore(MachineSnapshot.from_bytes(data))
    assert (heard, copy_lines) == ([], [])
    assert restored.active == guard.brain.active
    assert restored.clock == 0.5
    assert restored.snapshot().to_bytes() == data
    go_on(guard)
    restored.release(SEES)  # as go_on, without the owner's log
    assert heard == []  # releasing the level leaves Watching through its pre-condition only
    restored.tick(2.0)
    restored.send(ALERT)
    assert restored.active == guard.brain.active
    assert restored.snapshot() == guard.brain.snapshot()


def test_a_started_machine_rewinds_silently_and_replays_as_the_original() -> None:
    guard = alerted()
    saved, at_save = guard.brain.snapshot(), len(guard.sounds)
    go_on(guard)
    ended, then_heard = guard.brain.snapshot(), guard.sounds[at_save:]
    guard.brain.send(ALERT)  # somewhere else: Alert again, a timer running
    guard.brain.tick(0.25)
    heard: list[Any] = []
    guard.brain.add_event_listener(heard.append)
    guard.brain.add_action_listener(heard.append)
    guard.brain.machine.add_listener(heard.append)
    sounds, lines = len(guard.sounds), len(guard.lines)

    guard.brain.restore(saved)  # a rollback: back to the saved frame, running nothing
    assert (heard, guard.sounds[sounds:], guard.lines[lines:]) == ([], [], [])
    assert guard.brain.snapshot() == saved
    go_on(guard)  # replayed from there: the same calls, the same end
    assert guard.sounds[sounds:] == then_heard
    assert guard.brain.snapshot() == ended


def test_a_started_machine_goes_back_to_not_started() -> None:
    fresh = ChartMachine(CHART, {"play": print}).snapshot()
    guard = alerted()
    guard.brain.restore(fresh)
    assert (guard.brain.active, guard.brain.clock, guard.brain.machine.started) == ((), 0.0, False)
    guard.brain.send(ALERT)
    assert guard.sounds[-1:] == ["alarm"] and guard.brain.is_active("Guard.Body.Alert")


def test_restore_refuses_another_chart_and_a_machine_changing_states() -> None:
    snapshot = alerted().brain.snapshot()
    other = from_data({"name": "Other", "root": {"name": "Guard"}})
    with pytest.raises(st.DecodeError, match="the snapshot is of another chart than 'Other'"):
        ChartMachine(other).restore(snapshot)
    fresh = ChartMachine(CHART, {"play": print})
    with pytest.raises(st.UsageError) as caught:
        fresh.restore(snapshot.to_bytes())  # type: ignore[arg-type]
    assert str(caught.value) == (
        "restore() takes a MachineSnapshot, got bytes: read bytes with "
        "MachineSnapshot.from_bytes(data) first"
    )
    with pytest.raises(st.UsageError, match=r"^restore\(\) takes a MachineSnapshot, got dict$"):
        fresh.restore({})  # type: ignore[arg-type]
    assert not fresh.machine.started
    refused: list[str] = []

    def play(call: ActionCall) -> None:
        try:
            machine.restore(snapshot)
        except st.UsageError as error:
            refused.append(str(error))

    machine = ChartMachine(CHART, {"play": play})
    machine.send(ALERT)  # alarm, from the processing
    eyes = GUARD["root"]["states"][1:]  # type: ignore[index]
    machine.reload(from_data({**GUARD, "root": {**GUARD["root"], "states": eyes}}, GAME))
    assert refused == ["restore() called while chart 'Guard' processes"] * 2
    assert machine.active == ("Guard", "Guard.Eyes", "Guard.Eyes.Scanning")  # sigh: on reload
    fresh.restore(snapshot)
    assert fresh.active == alerted().brain.active


IMPOSSIBLE = [
    ({"active": ("Guard.Body.Alert",)}, "Guard.Body.Alert is active without its parent"),
    (
        {"active": ("Guard", "Guard.Body", "Guard.Body.Idle", "Guard.Body.Alert")},
        "several children of Guard.Body are active",
    ),
    ({"history": (("Guard.Body", "Nowhere"),)}, "history of Guard.Body names no child of it"),
    ({"history": (("Guard.Body", "Idle"),)}, "the history of Guard.Body is not its active child"),
    ({"active": ("Guard", "Guard.Nose")}, r"names states chart 'Guard' lacks: \['Guard.Nose'\]"),
    ({"timers": (("calm", "Guard.Body.Idle", 2.0),)}, "belongs to Guard.Body.Idle, not active"),
    ({"timers": (("calm", "Guard.Body.Alert", 0.25),)}, "timer 'calm' fell due before its clock"),
    ({"held": (Event("input", "alert"),)}, "holds input alert, which is not a level trigger"),
]


@pytest.mark.parametrize(("change", "message"), IMPOSSIBLE, ids=[m for _, m in IMPOSSIBLE])
def test_an_impossible_snapshot_is_refused_and_changes_nothing(
    change: dict[str, Any], message: str
) -> None:
    good = alerted().brain.snapshot()
    fields = {name: getattr(good, name) for name in good.__dataclass_fields__}
    bad = MachineSnapshot(**{**fields, **change})
    machine = ChartMachine(CHART, {"play": print})
    with pytest.raises(st.DecodeError, match=message):
        machine.restore(bad)
    assert not machine.machine.started
    started = alerted()
    before = started.brain.snapshot()
    with pytest.raises(st.DecodeError, match=message):
        started.brain.restore(bad)
    assert started.brain.snapshot() == before  # a started machine did not change either
    machine.restore(good)  # nothing was half done
    assert machine.active == alerted().brain.active


HOSTILE = [
    (b"", "not a chart machine snapshot"),
    (b"STMACHN1", "is JSON; this is not"),
    (b"STMACHN1[]", "has exactly the keys"),
    (b"STMACHN1" + b"[" * 100_000, "is JSON; this is not"),
    (b"STMACHN1\xff", "is JSON; this is not"),
]


def _bytes(**change: object) -> bytes:
    data = {
        "format": 1, "chart": "0" * 16, "active": [], "history": {}, "held": [],
        "clock": 0.0, "timers": [],
    }  # fmt: skip
    return b"STMACHN1" + json.dumps({**data, **change}).encode()


HOSTILE += [
    (_bytes(format=2), "in format 2; this version of statetree reads format 1"),
    (_bytes(clock=float("nan")), "'clock' is nan, not a time"),
    (_bytes(clock=-1), "'clock' is -1.0, not a time"),
    (_bytes(clock=True), "'clock' must be a float"),
    (_bytes(active=[1]), "'active' holds 1, not a string"),
    (_bytes(history={"A": 3}), "'history' holds 3, not a string"),
    (_bytes(held=[["held"]]), "'held' holds \\['held'\\]"),
    (_bytes(timers=[["t", "A"]]), "timer is \\[name, state, due\\]"),
    (_bytes(timers=[["t", "A", 1e309]]), "'timers' is inf, not a time"),
    (_bytes(clock=10**400), "'clock' is a number too large to be a time"),
    (_bytes(timers=[["t", "A", 10**400]]), "'timers' is a number too large to be a time"),
    (_bytes(chart=7), "'chart' must be a str"),
    (_bytes(active=["A", "A"]), "'active' names A twice"),
    (_bytes(timers=[["t", "A", 1], ["t", "A", 2]]), "'timers' names \\('t', 'A'\\) twice"),
]


@pytest.mark.parametrize(("data", "message"), HOSTILE, ids=[m for _, m in HOSTILE])
def test_bad_snapshot_bytes_raise_a_decode_error(data: bytes, message: str) -> None:
    with pytest.raises(st.DecodeError, match=message):
        MachineSnapshot.from_bytes(data)


MADE_WRONG = [
    ({"clock": "1"}, "'clock' holds '1', not a time"),
    ({"clock": float("nan")}, "'clock' is nan, not a time"),
    ({"clock": -5.0}, "'clock' is -5.0, not a time"),
    ({"clock": 10**400}, "'clock' is a number too large to be a time"),
    ({"active": None}, "'active' holds None, not a sequence"),
    ({"history": (("Guard.Body",),)}, "'history' holds \\('Guard.Body',\\), not a pair"),
    ({"timers": (("calm", "Guard.Body.Alert", "soon"),)}, "'timers' holds 'soon', not a time"),
    ({"held": (("held", "Sees"),) * 2}, "'held' names held Sees twice"),
    ({"chart": None}, "'chart' holds None, not a string"),
]


@pytest.mark.parametrize(("change", "message"), MADE_WRONG, ids=[m for _, m in MADE_WRONG])
def test_a_snapshot_made_in_python_is_checked_as_its_bytes_are(
    change: dict[str, Any], message: str
) -> None:
    good = alerted().brain.snapshot()
    with pytest.raises(st.DecodeError, match=message):
        dataclasses.replace(good, **change)


def test_a_snapshot_made_in_python_keeps_tuples_and_events() -> None:
    good = alerted().brain.snapshot()
    made = dataclasses.replace(good, held=[["held", "Sees"]], active=list(good.active))
    assert made.held == (Event("held", "Sees"),) and type(made.held[0]) is Event
    assert made.active == good.active and isinstance(made.active, tuple)
    assert MachineSnapshot.from_bytes(made.to_bytes()) == made


# -- pickle and copies -------------------------------------------------------------------------


def saved(value: Any, how: str) -> Any:
    return pickle.loads(pickle.dumps(value)) if how == "pickle" else copy.deepcopy(value)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_saved_guard_is_its_own_and_goes_on_as_the_original(how: str) -> None:
    guard = alerted()
    twin = saved(guard, how)
    assert (twin.sounds, twin.lines) == (guard.sounds, guard.lines)  # nothing ran
    assert twin.brain.owner is twin
    assert twin.brain.snapshot() == guard.brain.snapshot()
    assert twin.brain.compiled is guard.brain.compiled  # one compiled chart per process
    for each in (guard, twin):
        go_on(each)
    assert (twin.sounds, twin.lines) == (guard.sounds, guard.lines)
    assert guard.sounds == ["alarm", "gasp", "sigh", "alarm"]
    assert twin.brain.snapshot() == guard.brain.snapshot()


def test_a_shallow_copy_shares_the_owner_and_handlers_and_runs_on_its_own() -> None:
    guard = alerted()
    fork = copy.copy(guard.brain)
    assert fork.owner is guard
    fork.tick(2.0)
    assert guard.sounds == ["alarm", "gasp", "sigh"]  # the fork's handler is the guard's
    assert guard.brain.active != fork.active


def test_what_a_machine_was_given_later_is_not_saved() -> None:
    guard = alerted()
    heard: list[Event] = []
    guard.brain.add_event_listener(heard.append)
    guard.brain.defer(lambda: heard.append(Event("deferred", "x")))
    twin = saved(guard, "pickle")
    go_on(twin)
    assert heard == []


def test_a_handler_made_inside_a_function_is_refused_by_name() -> None:
    machine = ChartMachine(CHART, {"play": lambda call: None})
    with pytest.raises(
        st.SaveError,
        match=r"^cannot save the function .*<lambda> of module test_chart_saving \(the handler "
        r"'play' of chart machine 'Guard'\): it was made inside a function",
    ):
        pickle.dumps(machine)
    assert copy.deepcopy(machine).active == machine.active  # copies need no name


def test_an_action_listener_and_a_sink_bound_to_files_are_refused_by_role(
    tmp_path: Path,
) -> None:
    with open(tmp_path / "log.txt", "w") as log:
        listened = ChartMachine(CHART, {"play": print}, on_action=log.write)
        traced = ChartMachine(
            CHART, {"play": print}, trace=st.TraceLevel.BASIC, trace_sink=log.write
        )
        for machine, role in ((listened, "on_action"), (traced, "trace sink")):
            for save in (pickle.dumps, copy.deepcopy):
                with pytest.raises(
                    st.SaveError,
                    match=rf"^cannot save the {role} of chart machine 'Guard' \(the method write "
                    r"of a TextIOWrapper\): ",
                ):
                    save(machine)


def test_saving_from_a_handler_is_refused() -> None:
    refused: list[str] = []

    def play(call: ActionCall) -> None:
        try:
            pickle.dumps(machine)
        except st.SaveError as error:
            refused.append(str(error))

    machine = ChartMachine(CHART, {"play": play})
    machine.send(ALERT)
    assert refused == [
        "cannot save chart machine 'Guard' while it processes (from one of its handlers or "
        "listeners): save between two calls"
    ]


def test_machines_of_one_chart_share_it_once_loaded() -> None:
    charted = [alerted(), alerted()]
    loaded = pickle.loads(pickle.dumps(charted))
    assert loaded[0].brain.compiled is loaded[1].brain.compiled


def test_a_chart_and_its_compilation_save_as_data() -> None:
    assert pickle.loads(pickle.dumps(CHART)) == CHART
    assert pickle.loads(pickle.dumps(CHART)).registry.actions["play"] == GAME.actions["play"]
    compiled = compile_chart(CHART)
    assert copy.deepcopy(compiled) is compiled
    assert copy.deepcopy(CHART) is CHART
    assert pickle.loads(pickle.dumps(GAME)).actions == GAME.actions


def test_a_chart_importing_patterns_is_saved_written_out(tmp_path: Path) -> None:
    (tmp_path / "lib.yaml").write_text(
        "patterns:\n  Blink:\n    states:\n      - {name: On, transitions: [{on: {input: t}, "
        "to: Off}]}\n      - {name: Off, transitions: [{on: {input: t}, to: On}]}\n"
    )
    (tmp_path / "lamp.yaml").write_text(
        "name: Lamp\nimports: [lib.yaml]\nroot: {name: Lamp, use: Blink}\n"
    )
    machine = ChartMachine(load(tmp_path / "lamp.yaml"))
    machine.send(Event("input", "t"))
    data = pickle.dumps(machine)
    for file in tmp_path.iterdir():
        file.unlink()
    loaded = pickle.loads(data)
    assert loaded.active == ("Lamp", "Lamp.Off")
    assert loaded.chart == machine.chart
    loaded.send(Event("input", "t"))
    assert loaded.active == ("Lamp", "Lamp.On")
    # The same chart, its fingerprint too: snapshots of either restore on the other.
    assert fingerprint(loaded.chart) == fingerprint(machine.chart)
    assert loaded.compiled is pickle.loads(pickle.dumps(machine)).compiled
    machine.send(Event("input", "t"))
    shipped = ChartMachine(machine.chart)
    shipped.restore(loaded.snapshot())
    assert shipped.snapshot() == machine.snapshot()


def test_shards_of_a_chart_importing_patterns_join_after_a_pickle(tmp_path: Path) -> None:
    (tmp_path / "combat.yaml").write_text(
        "patterns:\n  Stagger:\n    params: {seconds: number}\n"
        "    enter: [{start_timer: {name: T, delay: $seconds}}]\n"
    )
    (tmp_path / "goblin.yaml").write_text(
        "name: Goblin\nimports: [combat.yaml]\nroot: {name: Goblin, states: [{use: Stagger, "
        "with: {seconds: 0.4}, transitions: [{on: {timer: T}, to: Idle}]}, {name: Idle}]}\n"
    )
    chart = load(tmp_path / "goblin.yaml")
    batch = ChartBatch(chart, 4)
    batch.tick(0.1)
    left, right = batch.split(2)
    right = pickle.loads(pickle.dumps(right))  # a round trip through a worker
    whole = ChartBatch.join([left, right])
    whole.tick(0.5)
    assert whole.counts()["Goblin.Idle"] == 4
    assert ChartBatch.restore(right.snapshot(), chart).size == 2


def test_a_chart_pickles_before_any_machine_is_made() -> None:
    script = (
        "import pickle, sys\n"
        "from statetree.chart import builder as b\n"
        "chart = b.chart('Door', b.state('Door', b.state('Closed'), b.state('Open')))\n"
        "assert 'statetree.chart.machine' not in sys.modules\n"
        "assert pickle.loads(pickle.dumps(chart)) == chart\n"
        "assert pickle.loads(pickle.dumps(chart.registry)) == chart.registry\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], check=False, capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_a_saved_chart_this_version_reads_otherwise_fails_to_load() -> None:
    with pytest.raises(st.LoadError, match="the saved chart 'Guard' reads back as another"):
        load_chart(GUARD, GAME, "0" * 16)
    with pytest.raises(st.LoadError, match="the saved chart does not load: "):
        load_chart({"name": "Broken"}, None, "0" * 16)


def test_action_calls_kept_by_a_host_save_with_it() -> None:
    call = ActionCall("play", {"sound": "x"}, "Guard.Body.Alert", "exit")  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(call)) == call


def test_a_save_of_another_format_is_refused() -> None:
    machine = ChartMachine(CHART, {"play": print})
    with pytest.raises(st.LoadError, match="holds a chart machine in format 9; this version"):
        machine.__setstate__({"format": 9})
    with pytest.raises(st.LoadError, match="holds a chart batch in format None; this version"):
        ChartBatch.__new__(ChartBatch).__setstate__([])  # type: ignore[arg-type]
