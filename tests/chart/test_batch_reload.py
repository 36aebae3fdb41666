"""Hot reload of a batch: every agent keeps and changes what its own ChartMachine would."""

from __future__ import annotations

from batch_strategies import MAX_AGENTS, batch_charts, edited_charts, steps
from batch_support import Twins
from budget import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from statetree.chart import (
    DEFAULT_REGISTRY,
    Chart,
    ChartBatch,
    ChartError,
    ChartMachine,
    Event,
    TriggerType,
    compile_chart,
    loads,
)
from statetree.chart.reload import Reloaded


@settings(max_examples=examples(150))
@given(batch_charts(), st.integers(1, MAX_AGENTS), st.data())
def test_every_agent_reloads_as_its_own_chart_machine(
    chart: Chart, count: int, data: st.DataObject
) -> None:
    edited = data.draw(edited_charts(chart), "edited")
    try:
        compile_chart(edited)
    except ChartError:
        assume(False)
    twins = Twins(chart, count, backend=data.draw(st.sampled_from(("numba", "numpy")), "backend"))
    for step in data.draw(st.lists(steps(), max_size=8), "before"):
        twins.play(step)
    twins.reload(edited)
    twins.check("the reload")
    for number, step in enumerate(data.draw(st.lists(steps(), max_size=8), "after")):
        twins.play(step)
        twins.check(f"step {number} after the reload: {step}")
    if data.draw(st.booleans(), "back"):  # levels held aside are used again
        twins.reload(chart)
        twins.check("the reload back")
        for number, step in enumerate(data.draw(st.lists(steps(), max_size=4), "then")):
            twins.play(step)
            twins.check(f"step {number} after the reload back: {step}")


def test_levels_of_a_kind_the_new_registry_drops_are_released_in_every_agent() -> None:
    pad = DEFAULT_REGISTRY.with_triggers(TriggerType("pad", level=True))
    rule = "  name: Top\n  policy: priority\n  states:\n    - {name: Run, pre: {%s: Right}}\n"
    text = "name: Hero\nroot:\n" + rule + "    - {name: Stand}\n"
    before, after = loads(text % "pad", "yaml", pad), loads(text % "held", "yaml")
    batch = ChartBatch(before, 3)
    machines = [ChartMachine(before) for _ in range(3)]
    for agent, event in ((0, "Right"), (1, "Left"), (2, "Right")):  # Left: no state uses it
        batch.hold(Event("pad", event), [agent])
        machines[agent].hold(Event("pad", event))
    reports = {machine.reload(after) for machine in machines}
    # What at least one agent kept, exited, entered: agent 1 stood already.
    assert batch.reload(after) == Reloaded(("Top", "Top.Stand"), ("Top.Run",), ("Top.Stand",))
    assert reports == {
        Reloaded(("Top",), ("Top.Run",), ("Top.Stand",)),
        Reloaded(("Top", "Top.Stand"), ()),
    }
    assert [batch.agent(n).held for n in range(3)] == [(), (), ()]
    assert [batch.active(n) for n in range(3)] == [machine.active for machine in machines]
    restored = ChartBatch.restore(batch.snapshot(), after)  # its snapshot restores
    assert restored.counts() == batch.counts() == {"Top": 3, "Top.Run": 0, "Top.Stand": 3}
