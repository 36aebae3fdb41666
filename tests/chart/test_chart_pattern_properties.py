"""Properties of charts written with patterns: each runs exactly as its hand-expanded twin,
trace for trace, and its data, YAML and JSON round-trip with the patterns and uses kept."""

from __future__ import annotations

from typing import Any

from budget import examples
from chart_strategies import mutated_data, steps, text_mutations
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pattern_strategies import patterned, written_out

from statetree import TraceLevel
from statetree.chart import (
    ActionCall,
    Chart,
    ChartError,
    ChartMachine,
    ScriptStep,
    dump_json,
    dump_yaml,
    from_data,
    loads,
    to_data,
)
from statetree.errors import TransitionLoopError


def played(chart: Chart, script: list[ScriptStep]) -> list[str]:
    """The trace lines and actions of ``chart`` playing ``script`` (and how it ended)."""
    lines: list[str] = []

    def performed(call: ActionCall) -> None:
        lines.append(str(call))

    machine = ChartMachine(
        chart,
        trace=TraceLevel.BASIC,
        trace_sink=lines.append,
        on_action=performed,
        max_transitions=200,
    )
    try:
        machine.start()
        for step in script:
            machine.play(step)
            lines.append(f"active: {machine.active}")
    except TransitionLoopError as error:
        lines.append(f"loop: {error}")
    return lines


@settings(max_examples=examples(60))
@given(patterned(), st.lists(steps(), max_size=12))
def test_a_chart_with_patterns_runs_exactly_as_its_hand_expanded_twin(
    data: dict[str, Any], script: list[ScriptStep]
) -> None:
    chart = from_data(data)
    twin = from_data(written_out(data))
    assert chart == twin
    assert played(chart, script) == played(twin, script)


@settings(max_examples=examples(40))
@given(patterned())
def test_patterns_and_uses_round_trip_as_data_yaml_and_json(data: dict[str, Any]) -> None:
    chart = from_data(data)
    assert to_data(chart) == data
    assert to_data(loads(dump_yaml(chart), "yaml")) == data
    assert to_data(loads(dump_json(chart), "json")) == data


@settings(max_examples=examples(75), suppress_health_check=[HealthCheck.too_slow])
@given(mutated_data(patterned()))
def test_mutated_pattern_data_loads_or_raises_a_chart_error(data: object) -> None:
    try:
        assert isinstance(from_data(data), Chart)
    except ChartError as error:
        assert error.problems and all(problem.line >= 0 for problem in error.problems)


@st.composite
def _mutated_yaml(draw: st.DrawFn) -> str:
    return draw(text_mutations(dump_yaml(from_data(draw(patterned())))))


@settings(max_examples=examples(75), suppress_health_check=[HealthCheck.too_slow])
@given(_mutated_yaml())
def test_a_mutated_pattern_chart_text_loads_or_raises_a_chart_error(text: str) -> None:
    try:
        assert isinstance(loads(text, "yaml", file="mutated.yaml"), Chart)
    except ChartError as error:
        assert error.problems and {problem.file for problem in error.problems} == {"mutated.yaml"}
