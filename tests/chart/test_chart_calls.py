"""A chart machine's calls with the wrong things: each is refused with a ``UsageError`` that
says what was expected, the same with the compiled and the Python core, and changes nothing.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from statetree.chart import ChartMachine, Event
from statetree.chart import builder as b
from statetree.errors import UsageError

HELD = Event("held", "Guard")


def machine() -> ChartMachine:
    chart = b.chart(
        "Gate",
        b.state(
            "Gate",
            b.state(
                "Shut",
                enter=[b.start_timer("Open", 1.0)],
                transitions=[b.on(b.timer("Open"), "Open"), b.on(b.input("Go"), "Open")],
            ),
            b.state("Open", transitions=[b.on(b.held("Guard"), "Shut")]),
        ),
    )
    gate = ChartMachine(chart)
    gate.start()
    return gate


def seen(gate: ChartMachine) -> tuple[object, ...]:
    runtime = gate.machine.owner
    return gate.active, runtime.clock, frozenset(runtime.held)


NOT_EVENTS: list[object] = [None, "Go", ("input", "Go"), Event("input", None), Event(1, 2), 7]  # type: ignore[arg-type]


@pytest.mark.parametrize("call", ["send", "hold", "release"])
@pytest.mark.parametrize("event", NOT_EVENTS, ids=repr)
def test_an_event_call_takes_an_event_of_two_strings(call: str, event: object) -> None:
    gate = machine()
    before = seen(gate)

    with pytest.raises(UsageError) as caught:
        getattr(gate, call)(event)

    assert str(caught.value) == (
        f"{call}() takes an Event(kind, name) of two strings, such as "
        f"Event('input', 'Jump'); got {event!r}"
    )
    assert seen(gate) == before


@pytest.mark.parametrize(
    "levels", [[HELD], {HELD: True, "Guard": True}, None], ids=["list", "str key", "None"]
)
def test_set_levels_takes_a_mapping_of_events(levels: Any) -> None:
    gate = machine()
    before = seen(gate)

    with pytest.raises(UsageError) as caught:
        gate.set_levels(levels)

    assert str(caught.value).startswith("set_levels() takes ")
    assert seen(gate) == before


BAD_TIMES: list[tuple[object, str]] = [
    (-1, "time cannot go backwards"),
    (-0.5, "time cannot go backwards"),
    (math.nan, "dt must be a finite number of seconds"),
    (math.inf, "dt must be a finite number of seconds"),
    (10**400, "dt must be a finite number of seconds"),
    (Decimal("NaN"), "dt must be a finite number of seconds"),
    (Decimal("sNaN"), "dt must be a finite number of seconds"),
    ("1", "dt must be a finite number of seconds"),
    (None, "dt must be a finite number of seconds"),
    (True, "dt must be a finite number of seconds"),
    ([1.0], "dt must be a finite number of seconds"),
]


@pytest.mark.parametrize(("dt", "problem"), BAD_TIMES, ids=[repr(dt)[:12] for dt, _ in BAD_TIMES])
def test_tick_takes_a_finite_time_of_at_least_zero(dt: object, problem: str) -> None:
    gate = machine()
    before = seen(gate)

    with pytest.raises(UsageError) as caught:
        gate.tick(dt)  # type: ignore[arg-type]

    assert str(caught.value) == f"tick({reprlib.repr(dt)}): {problem}"  # short, if huge
    assert len(str(caught.value)) < 100
    assert seen(gate) == before


@pytest.mark.parametrize("dt", [1, 1.0, Fraction(1, 1), Decimal("1.0")], ids=repr)
def test_tick_takes_any_real_number_as_a_float(dt: object) -> None:
    gate = machine()

    gate.tick(dt)  # type: ignore[arg-type]

    assert gate.active == ("Gate", "Gate.Open")
    assert type(gate.machine.owner.clock) is float and gate.machine.owner.clock == 1.0


def test_numpy_times_and_names_are_taken_as_plain_ones() -> None:
    numpy = pytest.importorskip("numpy", reason="NumPy values need NumPy (the batch extra)")
    gate = machine()

    gate.tick(numpy.float32(0.5))
    gate.tick(numpy.int64(0))
    assert type(gate.machine.owner.clock) is float and gate.machine.owner.clock == 0.5
    with pytest.raises(UsageError):
        gate.tick(numpy.array([1.0, 2.0]))
    for truth in (numpy.True_, numpy.array(True)):  # a bool is no time, NumPy's either
        with pytest.raises(UsageError, match="dt must be a finite number of seconds"):
            gate.tick(truth)
    assert gate.machine.owner.clock == 0.5
    gate.send(Event(numpy.str_("input"), numpy.str_("Go")))
    assert gate.active == ("Gate", "Gate.Open")


CALLS: list[tuple[str, Callable[[ChartMachine], object]]] = [
    ("send", lambda gate: gate.send(Event("input", "Go"))),
    ("hold", lambda gate: gate.hold(HELD)),
    ("tick", lambda gate: gate.tick(0.5)),
]


@pytest.mark.parametrize(("name", "call"), CALLS, ids=[name for name, _ in CALLS])
def test_good_calls_still_work(name: str, call: Callable[[ChartMachine], object]) -> None:
    gate = machine()
    call(gate)
    assert seen(gate) != (("Gate", "Gate.Shut"), 0.0, frozenset())


class NoTruth:
    def __bool__(self) -> bool:
        raise ValueError("neither")

    def __repr__(self) -> str:
        return "NoTruth()"


@pytest.mark.parametrize("value", [NoTruth(), "no", None, 2, 1, 0, 1.0, [True]])
def test_a_level_set_to_something_neither_true_nor_false_is_refused(value: object) -> None:
    gate = machine()
    before = seen(gate)

    with pytest.raises(UsageError) as caught:
        gate.set_levels({HELD: value})  # type: ignore[dict-item]

    assert str(caught.value) == f"set_levels(): held Guard must be true or false; got {value!r}"
    assert seen(gate) == before


@pytest.mark.parametrize(
    ("value", "held"),
    [(True, True), (np.True_, True), (np.False_, False), (False, False)],
)
def test_a_level_set_to_a_boolean_is_set(value: object, held: bool) -> None:
    gate = machine()
    gate.set_levels({HELD: value})  # type: ignore[dict-item]

    assert (HELD in seen(gate)[2]) is held


def test_play_takes_a_step_of_a_script() -> None:
    gate = machine()
    before = seen(gate)

    with pytest.raises(UsageError) as caught:
        gate.play("tick 1")  # type: ignore[arg-type]

    assert str(caught.value) == "play() takes a step of a script (see read_script); got 'tick 1'"
    assert seen(gate) == before


def test_tick_refuses_a_time_that_would_take_the_clock_to_infinity() -> None:
    gate = machine()
    gate.tick(1e308)
    before = seen(gate)

    with pytest.raises(UsageError) as caught:
        gate.tick(1e308)

    assert str(caught.value) == "tick(1e+308): the clock (1e+308) would pass the largest float"
    assert seen(gate) == before
