"""Hot reload of a batch: every agent keeps and changes what its own ChartMachine would."""

from __future__ import annotations

from batch_strategies import MAX_AGENTS, batch_charts, edited_charts, steps
from batch_support import Twins
from budget import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from statetree.chart import Chart, ChartError, compile_chart


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
