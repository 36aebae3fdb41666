"""Saving at any step changes nothing: random charts fed random scripts, saved (pickled,
deep-copied, or through their snapshot's bytes) between two steps, go on, both the copy and
the original, exactly as a run never saved: the same actions, trace lines, active states,
history, levels, clock and timers. Batches alike, agent for agent and call for call. Saved
by one core, they go on alike in the other."""

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
from saved_charts import BatchHost, MachineHost

from statetree.chart import Chart, MachineSnapshot, ScriptStep

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


@settings(max_examples=40)
@given(batch_charts(), hs.integers(1, 4), hs.lists(batch_steps(), max_size=10), hs.data())
def test_saving_a_batch_at_any_step_changes_nothing(
    chart: Chart, count: int, script: list[Step], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    how = data.draw(hs.sampled_from(HOW[:2]), "how")
    never = playing(BatchHost(chart, count), script)
    original = playing(BatchHost(chart, count), script[:cut])
    before = original.outcome()
    twin = pickle.loads(pickle.dumps(original)) if how == "pickle" else copy.deepcopy(original)
    assert twin.outcome() == before == original.outcome()
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
