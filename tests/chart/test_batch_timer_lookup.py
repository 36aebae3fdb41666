"""A tick finds the timer a row holds by a table of active flags (charts with few states
and timer rows: ``LOOKUP_ENTRIES``) or from the owners' flags: both must name the same timer.

Every set of active flags in which no two owners of one row's timers are active (the only
sets a chart can reach: owners sharing a row never coexist) is checked, row by row.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
from batch_strategies import batch_charts
from hypothesis import assume, given, settings

from statetree.chart import Chart, compile_chart
from statetree.chart.batch import timers as timer_module
from statetree.chart.batch.bits import Bits
from statetree.chart.batch.plan import Plan


@settings(max_examples=100, deadline=None)
@given(batch_charts())
def test_the_flags_table_names_the_timer_the_owners_name(chart: Chart) -> None:
    plan = Plan(compile_chart(chart))
    timers = plan.timers
    assume(timers.keys and timers.by_flags is not None)
    assert timers.by_flags is not None
    bits = Bits(plan.states)
    words = np.arange(1 << plan.states).astype(bits.dtype)
    owning = bits.flags(words[None, :], timers.owners, np.arange(words.size))
    for row in range(timers.rows):
        reachable = owning[timers.places == row].sum(axis=0) <= 1
        expected = timers.owned(np.full(words.size, row), owning)
        if timers.rows == 1:
            assert np.array_equal(timers.owned(None, owning), expected)
        found = timers.by_flags[row]
        assert np.array_equal(found[reachable], expected[reachable])
        # Each key of the row is found when its owner alone is active.
        for number, key in enumerate(timers.keys):
            if key.row == row:
                assert found[1 << key.owner] == number


@given(batch_charts())
@settings(max_examples=20, deadline=None)
def test_the_table_is_built_up_to_its_size_limit(chart: Chart) -> None:
    compiled = compile_chart(chart)
    timers = Plan(compiled).timers
    entries = timers.rows << len(compiled.classes)
    if not timers.rows or entries > timer_module.LOOKUP_ENTRIES:
        assert timers.by_flags is None
        return
    assert timers.by_flags is not None
    assert timers.by_flags.shape == (timers.rows, 1 << len(compiled.classes))
    with mock.patch.object(timer_module, "LOOKUP_ENTRIES", entries - 1):
        assert Plan(compiled).timers.by_flags is None
