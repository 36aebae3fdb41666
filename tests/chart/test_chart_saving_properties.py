"""Saving at any step changes nothing: random charts fed random scripts, saved (pickled,
deep-copied, or through their snapshot's bytes) between two steps, go on, both the copy and
the original, exactly as a run never saved: the same actions, trace lines, active states,
history, levels, clock and timers. Batches alike, agent for agent and call for call, and
whichever backend steps the copy. Saved by one core, they go on alike in the other."""

from __future__ import annotations

from functools import partial

from batch_strategies import Step, batch_charts
from batch_strategies import steps as batch_steps
from budget import examples
from chart_strategies import charts, steps
from hypothesis import given, settings
from hypothesis import strategies as hs
from saved_charts import BOUND, BatchHost, MachineHost
from saving_support import COPIES, OtherCore, goes_on_alike, goes_on_as_never_saved, saved

from statetree.chart import BatchSnapshot, Chart, ChartBatch, MachineSnapshot, ScriptStep
from statetree.chart.batch.step import backend_names

HOW = (*COPIES, "bytes")


def saved_machine(host: MachineHost, how: str) -> MachineHost:
    if how in COPIES:
        return saved(host, how)
    # What a program without pickle does: a new host, its machine restored from bytes.
    twin = MachineHost(host.machine.compiled)
    twin.actions.extend(host.actions)
    twin.lines.extend(host.lines)
    twin.machine.restore(MachineSnapshot.from_bytes(host.machine.snapshot().to_bytes()))
    return twin


@settings(max_examples=examples(60))
@given(charts(), hs.lists(steps(), max_size=12), hs.data())
def test_saving_a_chart_machine_at_any_step_changes_nothing(
    chart: Chart, script: list[ScriptStep], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    how = data.draw(hs.sampled_from(HOW), "how")
    goes_on_as_never_saved(MachineHost, (chart,), script, cut, partial(saved_machine, how=how))


def saved_batch(host: BatchHost, how: str, backend: str) -> BatchHost:
    if how in COPIES:
        twin = saved(host, how)
        assert twin.batch.backend == host.batch.backend
        return twin
    # Through the snapshot's bytes, into a batch stepped by ``backend``.
    twin = BatchHost(host.batch.compiled, 0, backend)
    twin.calls.extend(host.calls)
    snapshot = BatchSnapshot.from_bytes(host.batch.snapshot().to_bytes())
    twin.batch = ChartBatch.restore(
        snapshot, host.batch.compiled, twin.handlers(), max_transitions=BOUND, backend=backend
    )
    assert twin.batch.backend == backend
    return twin


@settings(max_examples=examples(40))
@given(batch_charts(), hs.integers(1, 4), hs.lists(batch_steps(), max_size=10), hs.data())
def test_saving_a_batch_at_any_step_changes_nothing(
    chart: Chart, count: int, script: list[Step], data: hs.DataObject
) -> None:
    """Saved by pickle or deepcopy, or through the snapshot's bytes into a batch stepped by
    either backend (numba's compiled pass or NumPy)."""
    cut = data.draw(hs.integers(0, len(script)), "cut")
    how = data.draw(hs.sampled_from(HOW), "how")
    backend, other = (data.draw(hs.permutations(backend_names()), "backends") * 2)[:2]
    save = partial(saved_batch, how=how, backend=other)
    goes_on_as_never_saved(BatchHost, (chart, count, backend), script, cut, save)


# -- across the cores -----------------------------------------------------------------------


@settings(max_examples=examples(40))
@given(chart=charts(), script=hs.lists(steps(), max_size=12), data=hs.data())
def test_a_chart_machine_saved_goes_on_in_the_other_core_as_never_saved(
    other_core: OtherCore, chart: Chart, script: list[ScriptStep], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    goes_on_alike(other_core, MachineHost, (chart,), script, cut)


@settings(max_examples=examples(30))
@given(
    chart=batch_charts(),
    count=hs.integers(1, 4),
    script=hs.lists(batch_steps(), max_size=10),
    data=hs.data(),
)
def test_a_batch_saved_goes_on_in_the_other_core_as_never_saved(
    other_core: OtherCore, chart: Chart, count: int, script: list[Step], data: hs.DataObject
) -> None:
    cut = data.draw(hs.integers(0, len(script)), "cut")
    goes_on_alike(other_core, BatchHost, (chart, count), script, cut)
