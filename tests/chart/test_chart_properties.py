"""Properties of every chart: dumps load back equal; the active states always form a tree."""

from __future__ import annotations

from budget import examples
from chart_strategies import charts, steps
from hypothesis import given, settings
from hypothesis import strategies as st

from statetree.chart import (
    Chart,
    ChartMachine,
    ScriptStep,
    dump_json,
    dump_yaml,
    from_data,
    loads,
    to_data,
)
from statetree.errors import TransitionLoopError


@settings(max_examples=examples(25), deadline=None)
@given(charts())
def test_loading_what_is_dumped_gives_the_same_chart(chart: Chart) -> None:
    assert from_data(to_data(chart)) == chart
    assert loads(dump_json(chart), "json") == chart
    assert loads(dump_yaml(chart), "yaml") == chart


def check_tree(machine: ChartMachine) -> None:
    """Every active state's parent is active; each parent has the children its policy says."""
    active = set(machine.active)
    assert len(active) == len(machine.active)
    for path, state, _ in machine.chart.walk():
        if path not in active:
            continue
        parent = path.rpartition(".")[0]
        assert not parent or parent in active, f"{path} is active without {parent}"
        children = [f"{path}.{child.name}" for child in state.states]
        on = [child for child in children if child in active]
        if state.policy == "concurrent":
            assert on == children, f"{path} must have all its regions active"
        elif state.policy is not None:
            assert len(on) == 1, f"{path} must have exactly one active child, has {on}"


@settings(max_examples=examples(80), deadline=None)
@given(charts(), st.lists(steps(), max_size=12))
def test_random_events_keep_the_active_states_a_tree(
    chart: Chart, script: list[ScriptStep]
) -> None:
    machine = ChartMachine(chart, max_transitions=200)
    try:
        machine.start()
        check_tree(machine)
        for step in script:
            machine.play(step)
            check_tree(machine)
    except TransitionLoopError:
        return  # a random chart may raise events that keep re-firing its transitions
