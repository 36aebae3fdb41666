"""Every engine takes a name by one rule: a ``str`` (``None``: its default), refused otherwise
before anything is built or started; and every chart engine names a path it lacks alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import statetree as st
from statetree.bitmask import BitmaskDefinition, BitmaskMachine
from statetree.chart import ChartBatch, ChartMachine, loads

CHART = loads("name: Guard\nroot: {name: Top, states: [{name: Idle}]}\n", "yaml")
DOOR = BitmaskDefinition.from_data({"Open": {}}, name="Door")


class Idle(st.State[None]):
    pass


def _program(name: Any) -> object:
    pytest.importorskip("jax", reason="JAX programs need the jax extra (Python 3.11+)")
    from statetree.chart.jax import ChartProgram

    return ChartProgram(CHART, name=name)


def _sharded(name: Any) -> object:
    from statetree.chart.shard import ShardedBatch

    return ShardedBatch(CHART, 2, name=name, shards=2)  # refused before a shard is made


ENGINES: dict[str, Callable[[Any], object]] = {
    "StateMachine": lambda name: st.StateMachine(Idle, name=name),
    "ChartMachine": lambda name: ChartMachine(CHART, name=name),
    "ChartBatch": lambda name: ChartBatch(CHART, 2, name=name),
    "ChartProgram": _program,
    "ShardedBatch": _sharded,
    "BitmaskMachine": lambda name: BitmaskMachine(DOOR, name=name),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", [123, b"x", ["Guard"]])
def test_a_name_that_is_no_str_is_refused_by_every_engine(engine: str, name: object) -> None:
    with pytest.raises(st.UsageError) as caught:
        ENGINES[engine](name)
    assert str(caught.value) == f"a machine's name must be a str, got {name!r}"


@pytest.mark.parametrize("engine", [e for e in ENGINES if e != "ShardedBatch"])
def test_a_str_name_is_kept(engine: str) -> None:
    made = ENGINES[engine]("Scout 7")
    assert made.name == "Scout 7"  # type: ignore[attr-defined]


def _paths(engine: str) -> Callable[[str], object]:
    if engine == "ChartMachine":
        return ChartMachine(CHART).is_active
    if engine == "ChartBatch":
        return ChartBatch(CHART, 2).is_active
    pytest.importorskip("jax", reason="JAX programs need the jax extra (Python 3.11+)")
    from statetree.chart.jax import ChartProgram

    program = ChartProgram(CHART)
    return lambda path: program.is_active(program.init(2), path)


@pytest.mark.parametrize("engine", ["ChartMachine", "ChartBatch", "ChartProgram"])
@pytest.mark.parametrize(
    ("path", "hint"),
    [
        ("Idle", " (did you mean 'Top.Idle'?)"),  # a state's name without its parents
        ("Top.Idel", " (did you mean 'Top.Idle'?)"),
        ("Elsewhere", ""),
    ],
)
def test_a_path_the_chart_lacks_is_named_with_a_close_one(
    engine: str, path: str, hint: str
) -> None:
    with pytest.raises(st.UsageError) as caught:
        _paths(engine)(path)
    assert str(caught.value) == f"chart 'Guard' has no state {path!r}{hint}; states: Top, Top.Idle"


def test_a_chart_of_many_states_lists_a_dozen() -> None:
    states = ", ".join(f"{{name: S{n:03}}}" for n in range(300))
    big = loads(f"name: Big\nroot: {{name: Top, states: [{states}]}}\n", "yaml")
    with pytest.raises(st.UsageError) as caught:
        ChartMachine(big).is_active("Top.Nowhere")
    listed = str(caught.value).split("; states: ")[1]
    assert listed.split(", ") == ["Top", *(f"Top.S{n:03}" for n in range(11)), "..."]
