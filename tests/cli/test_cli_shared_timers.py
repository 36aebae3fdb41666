"""The shared-timer warning of ``statetree check`` finds, in one walk along each place's
ancestors, the same first pair as comparing every place with every earlier one does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as hs

from statetree.cli.chart_check import _first_together

NAMES = ["R", "R.A", "R.B", "R.A.X", "R.A.Y", "R.B.X", "R.B.Y", "R.A.X.P", "R.A.X.Q"]


def together(first: str, second: str, hosts: set[str]) -> bool:
    """Whether two states can be active at once: one holds the other, or they are in two
    regions of a host (their nearest common state runs its children as regions)."""
    a, b = first.split("."), second.split(".")
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    if common in (len(a), len(b)):
        return first != second
    return ".".join(a[:common]) in hosts


@given(
    hs.lists(hs.sampled_from(NAMES), max_size=12),
    hs.sets(hs.sampled_from([n for n in NAMES if n.count(".") < 3])),
)
def test_the_first_shared_timer_is_the_pairwise_one(paths: list[str], hosts: set[str]) -> None:
    places = [(path, ("at", index)) for index, path in enumerate(paths)]
    expected = None
    for later, (path, where) in enumerate(places):
        other = next((p for p, _ in places[:later] if together(p, path, hosts)), None)
        if other is not None:
            expected = ((path, where), other)
            break
    assert _first_together(places, hosts) == expected
