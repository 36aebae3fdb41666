"""Saving at any step changes nothing: random charts fed random scripts, saved (pickled,
deep-copied, or through their snapshot's bytes) between two steps, go on, both the copy and
the original, exactly as a run never saved: the same actions, trace lines, active states,
history, levels, clock and timers. Batches alike, agent for agent and call for call."""

from __future__ import annotations

import copy
import pickle
from typing import Any

from batch_strategies import Step, batch_charts
from batch_strategies import steps as batch_steps
from chart_strategies import charts, steps
from hypothesis import given, settings
from hypothesis import strategies as hs
from saved_charts import BatchHost, MachineHost

from statetree.chart import Chart, MachineSnapshot, ScriptStep

HOW = ("pickle", "deepcopy", "bytes")


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


def outcome(host: MachineHost) -> tuple[Any, ...]:
    machine = host.machine
    return host.actions, host.lines, machine.active, machine.snapshot()


@settings(max_examples=60)
@given(charts(), hs.lists(steps(), max_size=12), hs.data())
def test_saving_a_chart_machine_at_any_step_changes_nothing(
    chart: Chart, script: list[ScriptStep], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    how = data.draw(hs.sampled_from(HOW), "how")
    never = MachineHost(chart)
    for step in script:
        never.play(step)
    original = MachineHost(chart)
    for step in script[:cut]:
        original.play(step)
    before = outcome(original)
    twin = saved(original, how)
    assert outcome(twin) == before == outcome(original)  # nothing ran while saving
    for host in (twin, original):
        for step in script[cut:]:
            host.play(step)
        assert outcome(host) == outcome(never)


def batch_outcome(host: BatchHost) -> tuple[Any, ...]:
    return host.calls, host.batch.snapshot().to_bytes()


@settings(max_examples=40)
@given(batch_charts(), hs.integers(1, 4), hs.lists(batch_steps(), max_size=10), hs.data())
def test_saving_a_batch_at_any_step_changes_nothing(
    chart: Chart, count: int, script: list[Step], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    how = data.draw(hs.sampled_from(HOW[:2]), "how")
    never = BatchHost(chart, count)
    for step in script:
        never.play(step)
    original = BatchHost(chart, count)
    for step in script[:cut]:
        original.play(step)
    before = batch_outcome(original)
    twin = pickle.loads(pickle.dumps(original)) if how == "pickle" else copy.deepcopy(original)
    assert batch_outcome(twin) == before == batch_outcome(original)
    for host in (twin, original):
        for step in script[cut:]:
            host.play(step)
        assert batch_outcome(host) == batch_outcome(never)
