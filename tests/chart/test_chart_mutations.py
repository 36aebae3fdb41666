"""Random mutations of valid charts give a chart or a ChartError, never anything else."""

from __future__ import annotations

from budget import examples
from chart_strategies import mutated_data, mutated_texts
from hypothesis import HealthCheck, given, settings

from statetree.chart import Chart, ChartError, from_data, loads


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_texts())
def test_a_mutated_chart_text_loads_or_raises_a_chart_error(case: tuple[str, str]) -> None:
    format, text = case
    try:
        chart = loads(text, format, file=f"mutated.{format}")  # type: ignore[arg-type]
    except ChartError as error:
        assert error.file == f"mutated.{format}" and error.problems
        assert all(problem.line >= 0 for problem in error.problems)
    else:
        assert isinstance(chart, Chart)


@settings(max_examples=examples(75), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_data())
def test_mutated_chart_data_loads_or_raises_a_chart_error(data: object) -> None:
    try:
        assert isinstance(from_data(data), Chart)
    except ChartError as error:
        assert error.problems
