"""A chart's table completed: every situation an agent can reach, with every entry derived.

A compiled step cannot stop to derive an entry it lacks, as :class:`ChartBatch` does when
an agent meets a new situation, so a JAX program needs the whole table up front: every
entry of every situation in it, every level combination of each started one, and the same
for every situation those lead to. That closure is finite (a chart has finitely many
configurations, histories and held levels) but grows with regions and levels, so it is
bounded: a chart past the bound gets an error that says so and what to run instead.
"""

from __future__ import annotations

from statetree.chart.batch.table import STARTED, Table
from statetree.errors import UsageError

__all__ = ["MAX_LEVELS", "MAX_RELEVEL", "MAX_SITUATIONS", "complete"]

MAX_SITUATIONS = 1 << 16
"""A complete table may hold this many situations."""
MAX_LEVELS = 11
"""A chart may have this many level triggers (a situation has ``2 ** levels`` variants).
Each held combination is a situation of its own, so with ``L`` levels a chart has more
than ``2 ** L`` situations, each with ``2 ** L`` variants: past 11, more than
:data:`MAX_RELEVEL`."""
MAX_RELEVEL = 1 << 24
"""Situations times level combinations: the cells of the table that finds a situation with
other levels held (4 bytes each)."""


def complete(table: Table, limit: int = MAX_SITUATIONS) -> None:
    """Derive every entry of every situation of ``table`` and of every situation they lead
    to, and every level combination of each started situation.

    Raises:
        UsageError: the chart has more than :data:`MAX_LEVELS` levels, or reaches more
            than ``limit`` situations, or more than :data:`MAX_RELEVEL` situations times
            level combinations (the table keeps what was derived).
    """
    layout = table.layout
    name = layout.compiled.chart.name
    if len(layout.levels) > MAX_LEVELS:
        raise UsageError(
            f"chart {name!r} has {len(layout.levels)} level triggers: a JAX program holds "
            f"every combination of them, which stops at {MAX_LEVELS}; run it with "
            "ChartBatch, which derives its table as agents meet situations"
        )
    inputs = range(len(layout.inputs))
    levels = len(layout.levels)
    combinations = range(1 << levels)
    number = 1  # situation 0 is a free slot
    while number < len(table.situations):
        count = len(table.situations) - 1
        if count > limit or (count + 1) * len(combinations) > MAX_RELEVEL:
            crossed = (
                f"at most {limit:,} situations"
                if count > limit
                else f"at most {MAX_RELEVEL:,} situations times variants, here "
                f"{(count + 1) * len(combinations):,}"
            )
            raise UsageError(
                f"chart {name!r} reaches {count:,} situations so far (active states, "
                f"histories and held levels together; with {levels} level "
                f"trigger{'s' * (levels != 1)}, each has {len(combinations):,} variants): "
                f"too many for the complete table a JAX program runs ({crossed}); run it "
                "with ChartBatch, which derives its table as agents meet situations"
            )
        if table.info[number, STARTED]:
            for input_ in inputs:
                table.entry(number, input_)
            for bits in combinations:
                table.with_levels(number, bits)
        else:
            table.entry(number, 0)
        number += 1
