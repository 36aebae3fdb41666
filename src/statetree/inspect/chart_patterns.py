"""What the page's chart editor shows of patterns: each with its parameters and uses.

A pattern the chart's own file defines is edited once for all its uses (its states are
addressed ``@Pattern.State``); one imported from another file is shown, not edited (an
edit only ever writes the chart's own file). Each use can be detached into plain states.
"""

from __future__ import annotations

from typing import Any

from statetree.chart.model import Chart, PatternDef, UseSite
from statetree.chart.registry import Param

__all__ = ["param_data", "pattern_source"]


def param_data(param: Param) -> dict[str, Any]:
    """A declared parameter (of an action type or a pattern) for the editor's controls."""
    return {
        "name": param.name,
        "type": param.type_name,
        "default": param.default,
        "minimum": param.minimum,
        "choices": None if param.choices is None else list(param.choices),
    }


def _use(chart: Chart, site: UseSite, paths: dict[tuple[str | int, ...], str]) -> dict[str, Any]:
    return {
        "state": paths[site.path],
        "file": site.file,
        "line": chart.origin.used_at(site).line,
        "arguments": dict(site.use.arguments),
    }


def _pattern(chart: Chart, file: str, pattern: PatternDef | None, name: str) -> dict[str, Any]:
    path = ("patterns", name)
    return {
        "name": name,
        "file": file,
        "line": chart.origin.line_in(file, path),
        "editable": file == chart.origin.file,
        "params": [] if pattern is None else [param_data(param) for param in pattern.params],
        "uses": [],
    }


def pattern_source(chart: Chart) -> dict[str, Any]:
    """The chart's patterns (its own, then those it imports and uses) with their uses, and
    for each state a pattern wrote the pattern and the use it came from.
    """
    paths = {where: path for path, _, where in chart.walk()}
    own = {pattern.name: pattern for pattern in chart.patterns}
    found = {
        (chart.origin.file, name): _pattern(chart, chart.origin.file, p, name)
        for name, p in own.items()
    }
    for site in chart.origin.uses:
        key = (site.pattern_file, site.pattern)
        if key not in found:
            found[key] = _pattern(chart, site.pattern_file, None, site.pattern)
        found[key]["uses"].append(_use(chart, site, paths))
    states = {
        path: {"pattern": pattern, "use": use}
        for path, (pattern, use) in chart.used_patterns().items()
    }
    return {"patterns": list(found.values()), "from_pattern": states}
