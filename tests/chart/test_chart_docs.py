"""The format reference in docs/charts.md lists exactly the keys of the JSON Schema."""

from __future__ import annotations

import re

from chart_samples import ROOT

from statetree.chart import schema

PAGE = (ROOT / "docs" / "charts.md").read_text()


def reference_keys(heading: str) -> set[str]:
    """The keys of the first table after ``heading`` in the page."""
    start = PAGE.index(heading)
    table = PAGE[start:].split("\n\n")[1]
    return set(re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE))


def test_the_chart_keys_are_documented() -> None:
    assert reference_keys("A chart is a mapping") == set(schema()["properties"])


def test_the_state_keys_are_documented() -> None:
    assert reference_keys("Each state is a mapping") == set(
        schema()["$defs"]["state"]["properties"]
    )


def test_the_documented_policies_are_the_schema_s() -> None:
    policies = schema()["$defs"]["state"]["properties"]["policy"]["enum"]
    for policy in policies:
        assert f"**{policy.capitalize()}.**" in PAGE
