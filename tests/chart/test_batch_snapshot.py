"""Snapshots and shards: a batch moved through bytes, or split and joined, runs on unchanged."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import struct
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from batch_strategies import ECHO, EVENTS, LEVELS, MAX_AGENTS, Step, batch_charts, steps
from batch_support import BOUND, Twins
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionType,
    BatchCall,
    BatchLoopError,
    BatchSnapshot,
    Chart,
    ChartBatch,
    Event,
    Param,
    from_data,
)
from statetree.chart.batch.arrays import NDArray
from statetree.chart.batch.snapshot import MAGIC
from statetree.errors import DecodeError, UsageError

SHARD_STEPS = st.lists(steps(spawning=False), max_size=8)


def restored(twins: Twins) -> Twins:
    """Twins whose batch is rebuilt from the bytes of ``twins``' batch."""
    data = twins.batch.snapshot().to_bytes()
    copy = Twins.__new__(Twins)
    copy.__dict__.update(twins.__dict__)
    handlers = {"host": copy.batch_host, "echo": copy.batch_echo}
    copy.batch = ChartBatch.restore(
        BatchSnapshot.from_bytes(data), twins.chart, handlers, max_transitions=twins.bound
    )
    assert copy.batch.snapshot().to_bytes() == data
    copy.trace_batch()
    return copy


@settings(max_examples=examples(40))
@given(batch_charts(), st.integers(1, MAX_AGENTS), st.data())
def test_a_restored_batch_is_bit_exact_and_runs_on_as_the_machines(
    chart: Chart, count: int, data: st.DataObject
) -> None:
    twins = Twins(chart, count)
    for step in data.draw(st.lists(steps(), max_size=8), "before"):
        twins.play(step)
    twins = restored(twins)
    for number, step in enumerate(data.draw(st.lists(steps(), max_size=8), "after")):
        twins.play(step)
        twins.check(f"step {number} after the restore: {step}")


class Logged:
    """A batch whose handlers log each call per agent, by index in the whole population."""

    def __init__(
        self, chart: Chart, snapshot: BatchSnapshot | None, calls: dict[int, list[str]]
    ) -> None:
        self.calls = calls
        handlers = {"host": self.host, "echo": self.echo}
        if snapshot is None:
            self.batch = ChartBatch(chart, MAX_AGENTS, handlers, max_transitions=BOUND)
        else:
            self.batch = ChartBatch.restore(snapshot, chart, handlers, max_transitions=BOUND)

    def host(self, call: BatchCall) -> None:
        for agent in call.entities.tolist():
            self.calls.setdefault(agent + self.batch.offset, []).append(str(call.action))

    def echo(self, call: BatchCall) -> None:
        self.host(call)
        if call.phase == "enter":
            self.batch.send(ECHO, call.entities)

    def play(self, step: Step) -> None:
        batch = self.batch
        local = [a - batch.offset for a in step.agents if 0 <= a - batch.offset < batch.size]
        try:
            if step.kind == "tick":
                batch.tick(step.dt)
            elif step.kind == "frame":
                slots = range(batch.offset, batch.offset + batch.size)
                alive = batch.alive.tolist()
                picks = [step.choices[a] if alive[a - batch.offset] else -1 for a in slots]
                batch.frame(step.dt, EVENTS, np.array(picks, np.intp))
            elif step.kind in ("start", "stop"):
                getattr(batch, step.kind)(local)
            elif step.kind in ("send_each", "levels"):
                picks = np.array(
                    [
                        c
                        for a, c in zip(step.agents, step.choices, strict=True)
                        if a - batch.offset in local
                    ],
                    np.intp,
                )
                if step.kind == "send_each":
                    batch.send_each(EVENTS, picks, local)
                else:
                    levels = {e: (picks >> i & 1).astype(bool) for i, e in enumerate(LEVELS)}
                    batch.set_levels(levels, local)
            else:
                assert step.event is not None
                getattr(batch, step.kind)(step.event, local)
        except BatchLoopError:
            pass


@settings(max_examples=examples(60))
@given(batch_charts(), st.integers(1, MAX_AGENTS), st.data())
def test_shards_step_on_their_own_as_the_whole_batch_does(
    chart: Chart, shards: int, data: st.DataObject
) -> None:
    whole_calls: dict[int, list[str]] = {}
    whole = Logged(chart, None, whole_calls)
    for step in data.draw(SHARD_STEPS, "before"):
        whole.play(step)
    bounds = [split.offset for split in whole.batch.split(shards)] + [MAX_AGENTS]
    snapshots = [whole.batch.snapshot(a, b) for a, b in itertools.pairwise(bounds)]
    for split, snapshot in zip(whole.batch.split(shards), snapshots, strict=True):
        assert split.snapshot().to_bytes() == snapshot.to_bytes()
    shard_calls = {agent: list(calls) for agent, calls in whole_calls.items()}
    parts = [Logged(chart, snapshot, shard_calls) for snapshot in snapshots]
    for step in data.draw(SHARD_STEPS, "after"):
        whole.play(step)
        for part in parts:
            part.play(step)
        assert shard_calls == whole_calls
    joined = ChartBatch.join([part.batch for part in parts])
    assert joined.counts() == whole.batch.counts()
    mine, theirs = joined.snapshot(), whole.batch.snapshot()
    for name, array in theirs.arrays.items():
        if name != "sequence":  # each shard counts its own timer starts
            assert np.array_equal(mine.arrays[name], array, equal_nan=True), name


def ignore(call: BatchCall) -> None:
    pass


@settings(max_examples=examples(100))
@given(batch_charts(), st.data())
def test_damaged_snapshot_bytes_are_refused_with_a_decode_error(
    chart: Chart, data: st.DataObject
) -> None:
    twins = Twins(chart, 3)
    for step in data.draw(st.lists(steps(), max_size=4), "before"):
        twins.play(step)
    good = twins.batch.snapshot().to_bytes()
    damaged = bytearray(good)
    for _ in range(data.draw(st.integers(1, 4), "edits")):
        edit = data.draw(st.sampled_from(("flip", "cut", "insert")), "edit")
        where = data.draw(st.integers(0, max(len(damaged) - 1, 0)), "where")
        if edit == "flip" and damaged:
            damaged[where] ^= data.draw(st.integers(1, 255), "bits")
        elif edit == "cut":
            del damaged[where : where + data.draw(st.integers(1, 8), "length")]
        else:
            damaged[where:where] = data.draw(st.binary(min_size=1, max_size=8), "inserted")
    handlers = {"host": ignore, "echo": ignore}
    try:
        batch = ChartBatch.restore(BatchSnapshot.from_bytes(bytes(damaged)), chart, handlers)
    except DecodeError:
        return
    # Accepted bytes describe a legal batch: it snapshots, restores and runs.
    again = ChartBatch.restore(
        BatchSnapshot.from_bytes(batch.snapshot().to_bytes()), chart, handlers
    )
    assert again.snapshot().to_bytes() == batch.snapshot().to_bytes()
    with contextlib.suppress(BatchLoopError):  # random charts may loop
        again.tick(1.0)


def _guards() -> ChartBatch:
    # Two timers in one state: rows that run together, with a start order.
    chart = from_data(
        {
            "name": "Guard",
            "root": {
                "name": "Top",
                "states": [
                    {
                        "name": "Watch",
                        "enter": [
                            {"start_timer": {"name": "Look", "delay": 1.0}},
                            {"start_timer": {"name": "Rest", "delay": 2.0}},
                        ],
                        "transitions": [{"on": {"timer": "Rest"}, "to": "Sleep"}],
                    },
                    {"name": "Sleep"},
                ],
            },
        }
    )
    batch = ChartBatch(chart, 3)
    batch.start()
    batch.tick(0.25)
    return batch


IMPOSSIBLE = [
    ("clock", lambda a: a["clock"].__setitem__(0, np.inf)),
    ("clock", lambda a: a["clock"].__setitem__(1, -np.inf)),
    ("clock", lambda a: a["clock"].__setitem__(2, -1.0)),
    ("due", lambda a: a["due"].__setitem__((0, 0), -np.inf)),
    ("due", lambda a: a["due"].__setitem__((0, 1), np.inf)),
    ("due", lambda a: a["due"].__setitem__((1, 2), 0.0)),  # due before its agent's clock
    ("start order", lambda a: a["sequence"].__setitem__((0, 0), 2**63 - 1)),
]


@pytest.mark.parametrize(("name", "edit"), IMPOSSIBLE)
def test_impossible_timers_and_clocks_are_refused_before_anything_is_built(
    name: str, edit: Callable[[dict[str, NDArray[Any]]], None]
) -> None:
    batch = _guards()
    good = batch.snapshot()
    arrays = {key: array.copy() for key, array in good.arrays.items()}
    edit(arrays)
    data = dataclasses.replace(good, arrays=arrays).to_bytes()
    with pytest.raises(DecodeError, match=name):
        ChartBatch.restore(BatchSnapshot.from_bytes(data), batch.chart, {})
    assert ChartBatch.restore(good, batch.chart, {}).snapshot().to_bytes() == good.to_bytes()


def _edited(**edits: Callable[[NDArray[Any]], None]) -> Callable[[BatchSnapshot], BatchSnapshot]:
    def edit(good: BatchSnapshot) -> BatchSnapshot:
        arrays = {key: array.copy() for key, array in good.arrays.items()}
        for name, change in edits.items():
            change(arrays[name])
        return dataclasses.replace(good, arrays=arrays)

    return edit


def _set(where: Any, value: object) -> Callable[[NDArray[Any]], None]:
    return lambda array: array.__setitem__(where, value)


# The guards' states: Top (flag 0), Top.Watch (1), Top.Sleep (2); Top's history is a child.
INCONSISTENT = [
    (_edited(active=_set((0, 0), 0xFF)), "the snapshot has active flags beyond the chart's states"),
    (_edited(alive=_set(0, False)), "the snapshot has states active in free slots"),
    (
        _edited(active=_set((0, 0), 0b111)),
        "the snapshot has an impossible agent: several children of Top are active",
    ),
    (
        _edited(active=_set((0, 0), 0b100)),
        "the snapshot has an impossible agent: Top.Sleep is active without its parent",
    ),
    (
        _edited(history=_set((0, 0), 9)),
        "the snapshot has an impossible agent: the history of Top names no child of it",
    ),
    (
        _edited(active=_set((0, 0), 0b101), history=_set((0, 0), 1)),
        "the snapshot has a running timer whose state is not active",
    ),
    (
        lambda good: dataclasses.replace(good, carried=(("Top.Gone", "Look"),)),
        "the snapshot carries timers of states the chart lacks: ['Top.Gone']",
    ),
]


@pytest.mark.parametrize(("edit", "message"), INCONSISTENT)
def test_inconsistent_agents_are_refused_saying_what_is_wrong(
    edit: Callable[[BatchSnapshot], BatchSnapshot], message: str
) -> None:
    batch = _guards()
    good = batch.snapshot()
    data = edit(good).to_bytes()  # as bytes from elsewhere would be
    with pytest.raises(DecodeError) as refused:
        ChartBatch.restore(BatchSnapshot.from_bytes(data), batch.chart, {})
    assert str(refused.value) == message
    assert batch.snapshot().to_bytes() == good.to_bytes()


def test_deeply_nested_metadata_is_a_decode_error() -> None:
    meta = b"[" * 100_000 + b"]" * 100_000
    data = MAGIC + struct.pack("<I", len(meta)) + meta
    with pytest.raises(DecodeError, match="nests too deeply"):
        BatchSnapshot.from_bytes(data)


def test_metadata_with_a_huge_integer_is_a_decode_error() -> None:
    meta = b'{"sequence": 1' + b"0" * 5000 + b"}"
    with pytest.raises(DecodeError) as caught:
        BatchSnapshot.from_bytes(MAGIC + struct.pack("<I", len(meta)) + meta)
    assert str(caught.value).startswith(
        "batch snapshot metadata is not JSON: an integer of 5,001 characters"
    )


def _replaced(good: BatchSnapshot, **fields: Any) -> BatchSnapshot:
    return dataclasses.replace(good, **fields)


MADE_IN_PYTHON = [
    ("alive", lambda g: {**g.arrays, "alive": np.ones(g.size, np.int8)}, "'alive'"),
    ("missing", lambda g: {k: v for k, v in g.arrays.items() if k != "due"}, "arrays are"),
    ("short", lambda g: {**g.arrays, "clock": g.arrays["clock"][:-1]}, "do not hold"),
    ("listed", lambda g: {**g.arrays, "alive": g.arrays["alive"].tolist()}, "needs 1 axes"),
    (
        "not boolean",
        lambda g: {**g.arrays, "alive": (g.arrays["alive"].view(np.uint8) * 2).view(np.bool_)},
        "holds values that are not booleans",
    ),
]


@pytest.mark.parametrize(("case", "arrays", "message"), MADE_IN_PYTHON)
def test_a_snapshot_made_in_python_is_checked_as_its_bytes_are(
    case: str, arrays: Callable[[BatchSnapshot], Any], message: str
) -> None:
    good = _guards().snapshot()

    with pytest.raises(DecodeError, match=message):
        _replaced(good, arrays=arrays(good))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"offset": -1}, "offset must be an integer"),
        ({"sequence": "3"}, "sequence must be an integer"),
        ({"offset": True}, "offset must be an integer"),
        ({"chart": None}, "chart is a fingerprint"),
        ({"carried": ((1, 2),)}, "carried timers are a tuple of pairs of strings"),
        ({"carried": None}, "carried timers are a tuple of pairs of strings"),
        ({"held_events": 5}, "held events are a tuple of pairs of strings"),
        ({"carried": (("Top", "T"), ("Top", "T"))}, "lists a carried timer twice"),
        ({"held_events": (Event("held", "A"),)}, "held array has 0 rows for 1 held events"),
        ({"carried": tuple(("Top", f"T{n}") for n in range(257))}, "at most 256 timers"),
    ],
)
def test_a_snapshot_made_in_python_has_fields_of_the_right_types(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(DecodeError, match=message):
        _replaced(_guards().snapshot(), **fields)


def test_a_snapshot_naming_a_held_event_twice_is_refused_when_made() -> None:
    good = _guards().snapshot()
    with pytest.raises(DecodeError, match="lists a held event twice"):
        _replaced(
            good,
            held_events=(Event("held", "H"), Event("held", "H")),
            arrays={**good.arrays, "held": np.zeros((2, good.size), np.bool_)},
        )


def test_a_carried_timer_the_chart_starts_itself_is_refused() -> None:
    batch = _guards()
    forged = _replaced(batch.snapshot(), carried=(("Top.Watch", "Look"),))
    with pytest.raises(DecodeError, match=r"carries timers the chart starts itself: \[\('Top"):
        ChartBatch.restore(forged, batch.compiled)


def test_snapshot_bytes_are_little_endian_whatever_the_arrays_byte_order() -> None:
    good = _guards().snapshot()
    swapped = {
        name: array.astype(array.dtype.newbyteorder(">")) for name, array in good.arrays.items()
    }
    big = _replaced(good, arrays=swapped)
    assert big.to_bytes() == good.to_bytes()
    assert BatchSnapshot.from_bytes(big.to_bytes()).to_bytes() == good.to_bytes()


def test_a_batch_restored_in_place_goes_back_to_its_snapshot_keeping_its_handlers() -> None:
    calls: list[tuple[str, list[int]]] = []
    chart = from_data(
        {
            "name": "Door",
            "root": {
                "name": "Top",
                "states": [
                    {"name": "Shut", "transitions": [{"on": {"input": "Push"}, "to": "Open"}]},
                    {
                        "name": "Open",
                        "enter": [{"creak": {"loud": True}}],
                        "transitions": [{"on": {"input": "Push"}, "to": "Shut"}],
                    },
                ],
            },
        },
        DEFAULT_REGISTRY.with_actions(ActionType("creak", (Param("loud", bool),))),
    )
    handlers = {"creak": lambda call: calls.append((call.type, call.entities.tolist()))}
    doors = ChartBatch(chart, 3, handlers, name="Doors", backend="numpy")
    doors.start()
    checkpoint = doors.snapshot()
    doors.send(Event("input", "Push"), [0, 2])
    same = doors

    assert doors.restore(checkpoint) is None  # in place, as ChartMachine.restore
    assert doors.restore(snapshot=checkpoint) is None  # by its name too
    assert doors is same and doors.snapshot() == checkpoint and doors.name == "Doors"
    assert calls == [("creak", [0, 2])]  # restoring ran nothing
    doors.send(Event("input", "Push"), [1])
    assert calls == [("creak", [0, 2]), ("creak", [1])]  # its own handlers still
    built = ChartBatch.restore(checkpoint, chart, handlers)  # on the class: a new batch
    assert built is not doors and built.snapshot() == checkpoint

    before = doors.snapshot()
    other = _guards().snapshot()
    with pytest.raises(DecodeError):
        doors.restore(other)  # another chart's agents: the batch did not change
    assert doors.snapshot() == before
    with pytest.raises(UsageError, match=r"a new batch is ChartBatch\.restore\(snapshot, chart"):
        doors.restore(checkpoint, chart, handlers)  # the class's call, made on a batch
    assert doors.snapshot() == before

    def rewinding(call: BatchCall) -> None:
        doors.restore(checkpoint)

    doors = ChartBatch(chart, 1, {"creak": rewinding})
    doors.start()
    checkpoint = doors.snapshot()
    with pytest.raises(UsageError, match=r"^restore\(\) called while batch 'Door' processes"):
        doors.send(Event("input", "Push"))


def test_snapshots_compare_as_their_bytes_do() -> None:
    batch = _guards()
    checkpoint = batch.snapshot()
    swapped = {
        name: array.astype(array.dtype.newbyteorder(">"))
        for name, array in checkpoint.arrays.items()
    }
    assert batch.snapshot() == checkpoint == _replaced(checkpoint, arrays=swapped)
    assert BatchSnapshot.from_bytes(checkpoint.to_bytes()) == checkpoint
    batch.tick(0.5)
    assert batch.snapshot() != checkpoint
    assert checkpoint != checkpoint.to_bytes()  # a snapshot is not its bytes
    with pytest.raises(TypeError):
        hash(checkpoint)  # its arrays can change


def test_snapshot_bytes_may_come_as_any_bytes_like_object() -> None:
    data = _guards().snapshot().to_bytes()

    for passed in (bytearray(data), memoryview(data)):
        assert BatchSnapshot.from_bytes(passed).to_bytes() == data
    with pytest.raises(DecodeError, match="is bytes, not str"):
        BatchSnapshot.from_bytes("STBATCH1")  # type: ignore[arg-type]


def test_an_event_held_in_a_snapshot_must_be_a_level_trigger() -> None:
    batch = _guards()
    good = batch.snapshot()
    held = np.zeros((1, good.size), np.bool_)
    edge = _replaced(good, held_events=(("timer", "Look"),), arrays={**good.arrays, "held": held})

    with pytest.raises(DecodeError) as refused:
        ChartBatch.restore(edge, batch.chart, {})

    assert str(refused.value) == (
        "the snapshot holds timer Look, which is no level trigger of chart 'Guard' (its level "
        "kinds: held)"
    )


def test_a_restore_is_given_a_snapshot_not_its_bytes() -> None:
    batch = _guards()
    data = batch.snapshot().to_bytes()

    with pytest.raises(UsageError) as refused:
        ChartBatch.restore(data, batch.chart, {})  # type: ignore[arg-type]

    assert str(refused.value) == (
        "a BatchSnapshot is needed, got bytes: read bytes with BatchSnapshot.from_bytes(data)"
    )


def test_a_split_shard_names_the_agents_that_loop_by_its_own_indexes() -> None:
    flipper = from_data(
        {
            "name": "Flipper",
            "root": {
                "name": "Top",
                "states": [
                    {"name": "X", "transitions": [{"on": {"held": "Flip"}, "to": "Y"}]},
                    {"name": "Y", "transitions": [{"on": {"held": "Flip"}, "to": "X"}]},
                ],
            },
        }
    )
    _, right = ChartBatch(flipper, 6, max_transitions=10).split(2)
    right.start()
    with pytest.raises(BatchLoopError) as looped:
        right.hold(Event("held", "Flip"), [0, 2])
    assert looped.value.entities == (0, 2) and looped.value.machine == "Flipper[0]"
    right.despawn(looped.value.entities)  # the indexes every call of the shard takes
    assert right.alive.tolist() == [False, True, False]


def test_a_stopped_agent_keeps_its_levels_through_a_snapshot_as_a_machine_does() -> None:
    chart = from_data(
        {
            "name": "Runner",
            "root": {
                "name": "Top",
                "policy": "priority",
                "states": [{"name": "Run", "pre": {"held": "R"}}, {"name": "Idle"}],
            },
        }
    )
    batch = ChartBatch(chart, 2)
    batch.start()
    batch.hold(Event("held", "R"), [0])
    batch.stop([0])
    restored = ChartBatch.restore(BatchSnapshot.from_bytes(batch.snapshot().to_bytes()), chart)
    assert restored.active(0) == () and restored.agent(0).held == (Event("held", "R"),)
    restored.tick(0.1)  # started again, still holding R
    assert restored.active(0) == ("Top", "Top.Run")
