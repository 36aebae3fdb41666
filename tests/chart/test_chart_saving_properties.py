"""Saving at any step changes nothing: random charts fed random scripts, saved (pickled,
deep-copied, or through their snapshot's bytes) between two steps, go on, both the copy and
the original, exactly as a run never saved: the same actions, trace lines, active states,
history, levels, clock and timers. Batches alike, agent for agent and call for call, and
whichever backend steps the copy. Saved by one core, they go on alike in the other."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

import pytest
from batch_strategies import Step, batch_charts
from batch_strategies import steps as batch_steps
from chart_strategies import charts, steps
from hypothesis import given, settings
from hypothesis import strategies as hs
from other_core import Host, OtherCore, go_on, other_core, played
from saved_charts import BOUND, BatchHost, MachineHost

from statetree.chart import BatchSnapshot, Chart, ChartBatch, MachineSnapshot, ScriptStep
from statetree.chart.batch.step import backend_names

HOW = ("pickle", "deepcopy", "bytes")

H = TypeVar("H", bound=Host)


def saved(host: MachineHost, how: str) -> MachineHost:
    if how == "pickle":
        loaded: MachineHost = pickle.loads(pickle.dumps(host))
        return loaded
    if how == "deepcopy":
        return copy.deepcopy(host)
    # What a program without pickle does: a new host, its machine restored from bytes.
    twin = MachineHost(host.machine.compiled)
    twin.actions.extend(host.actions)
    twin.lines.extend(host.lines)
    twin.machine.restore(MachineSnapshot.from_bytes(host.machine.snapshot().to_bytes()))
    return twin


def playing(host: H, script: Sequence[Any]) -> H:
    for step in script:
        host.play(step)
    return host


@settings(max_examples=60)
@given(charts(), hs.lists(steps(), max_size=12), hs.data())
def test_saving_a_chart_machine_at_any_step_changes_nothing(
    chart: Chart, script: list[ScriptStep], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    how = data.draw(hs.sampled_from(HOW), "how")
    never = playing(MachineHost(chart), script)
    original = playing(MachineHost(chart), script[:cut])
    before = original.outcome()
    twin = saved(original, how)
    assert twin.outcome() == before == original.outcome()  # nothing ran while saving
    for host in (twin, original):
        playing(host, script[cut:])
        assert host.outcome() == never.outcome()


def saved_batch(host: BatchHost, how: str, backend: str) -> BatchHost:
    if how == "pickle":
        loaded: BatchHost = pickle.loads(pickle.dumps(host))
        return loaded
    if how == "deepcopy":
        return copy.deepcopy(host)
    # Through the snapshot's bytes, into a batch stepped by ``backend``.
    twin = BatchHost(host.batch.compiled, 0, backend)
    twin.calls.extend(host.calls)
    snapshot = BatchSnapshot.from_bytes(host.batch.snapshot().to_bytes())
    twin.batch = ChartBatch.restore(
        snapshot, host.batch.compiled, twin.handlers(), max_transitions=BOUND, backend=backend
    )
    return twin


@settings(max_examples=40)
@given(batch_charts(), hs.integers(1, 4), hs.lists(batch_steps(), max_size=10), hs.data())
def test_saving_a_batch_at_any_step_changes_nothing(
    chart: Chart, count: int, script: list[Step], data: hs.DataObject
) -> None:
    """Saved by pickle or deepcopy, or through the snapshot's bytes into a batch stepped by
    either backend (numba's compiled pass or NumPy)."""
    cut = data.draw(hs.integers(0, len(script)), "cut")
    how = data.draw(hs.sampled_from(HOW), "how")
    backend, other = (data.draw(hs.permutations(backend_names()), "backends") * 2)[:2]
    never = playing(BatchHost(chart, count, backend), script)
    original = playing(BatchHost(chart, count, backend), script[:cut])
    before = original.outcome()
    twin = saved_batch(original, how, other)
    assert twin.outcome() == before == original.outcome()
    assert twin.batch.backend == (other if how == "bytes" else backend)
    for host in (twin, original):
        playing(host, script[cut:])
        assert host.outcome() == never.outcome()


# -- across the cores -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def other() -> Iterator[OtherCore]:
    with other_core() as worker:
        yield worker


def goes_on_in_the_other_core(other: OtherCore, new: H, script: Sequence[Any], cut: int) -> None:
    """Saved here at ``cut``, the host ``new`` goes on there as never saved; saved there, it
    goes on here alike (``new`` is a host that has played nothing)."""
    fresh = pickle.dumps(new)
    expected = playing(pickle.loads(fresh), script).outcome()
    saved_here = pickle.dumps(playing(pickle.loads(fresh), script[:cut]))
    assert other.call(go_on, saved_here, script[cut:]) == expected
    saved_there: H = pickle.loads(other.call(played, new, script[:cut]))
    assert playing(saved_there, script[cut:]).outcome() == expected


@settings(max_examples=40)
@given(chart=charts(), script=hs.lists(steps(), max_size=12), data=hs.data())
def test_a_chart_machine_saved_goes_on_in_the_other_core_as_never_saved(
    other: OtherCore, chart: Chart, script: list[ScriptStep], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    goes_on_in_the_other_core(other, MachineHost(chart), script, cut)


@settings(max_examples=30)
@given(
    chart=batch_charts(),
    count=hs.integers(1, 4),
    script=hs.lists(batch_steps(), max_size=10),
    data=hs.data(),
)
def test_a_batch_saved_goes_on_in_the_other_core_as_never_saved(
    other: OtherCore, chart: Chart, count: int, script: list[Step], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    goes_on_in_the_other_core(other, BatchHost(chart, count), script, cut)
