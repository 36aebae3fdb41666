"""Timers: bad delays are refused at load, one tick's work is bounded, dead timers go."""

from __future__ import annotations

import math

import pytest

from statetree.chart import ChartError, ChartMachine, Event, loads
from statetree.chart import builder as b
from statetree.chart.runtime import COMPACT_AT
from statetree.errors import TransitionLoopError, UsageError


def blink(delay: float, limit: int = 1000) -> ChartMachine:
    """Two states that restart each other's timer: Wait, Go, Wait..."""
    start, expired = [b.start_timer("T", delay)], b.timer("T")
    chart = b.chart(
        "Blink",
        b.state(
            "Top",
            b.state("Wait", enter=start, transitions=[b.on(expired, "Go")]),
            b.state("Go", enter=start, transitions=[b.on(expired, "Wait")]),
        ),
    )
    return ChartMachine(chart, max_transitions=limit)


DELAY = """\
name: D
root:
  name: Top
  enter: [start_timer: {name: T, delay: DELAY}]
  transitions: []
"""


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("-1", "must be at least 0, got -1"),
        ("-0.5", "must be at least 0, got -0.5"),
        (".nan", "must be a finite number, got nan"),
        (".inf", "must be a finite number, got inf"),
        ("-.inf", "must be a finite number, got -inf"),
        ("1e400", "must be a finite number, got inf"),
        ("soon", "must be a number, got 'soon'"),
    ],
)
def test_a_bad_delay_is_refused_at_load_with_its_line(written: str, reason: str) -> None:
    with pytest.raises(ChartError) as failure:
        loads(DELAY.replace("DELAY", written).replace("  transitions: []\n", ""), "yaml")
    assert (failure.value.line, failure.value.path) == (4, "root.enter[0].start_timer.delay")
    assert failure.value.message == f"start_timer: 'delay' {reason}"


def test_json_and_toml_delays_are_checked_alike() -> None:
    timer = '{"start_timer": {"name": "T", "delay": NaN}}'
    json_text = f'{{"name": "D", "root": {{"name": "T",\n "enter": [{timer}]}}}}'
    timer = '{ start_timer = { name = "T", delay = -inf } }'
    toml_text = f'name = "D"\n[root]\nname = "T"\nenter = [{timer}]\n'
    for text, format, line in ((json_text, "json", 2), (toml_text, "toml", 4)):
        with pytest.raises(ChartError, match="must be a finite number") as failure:
            loads(text, format)  # type: ignore[arg-type]
        assert failure.value.line == line


@pytest.mark.parametrize("delay", [0.0, 1e-300, 1e-9])
def test_a_timer_cycle_that_cannot_advance_time_raises_the_loop_error(delay: float) -> None:
    machine = blink(delay, limit=50)
    with pytest.raises(TransitionLoopError) as failure:
        machine.tick(1.0)
    error = failure.value
    assert error.timers and error.changes == 50 and error.machine == "Blink" and error.chart
    assert error.cycle in (("Top.Wait", "Top.Go"), ("Top.Go", "Top.Wait"))
    assert str(error).startswith("machine 'Blink' fired 50 timers in one tick() without")
    # The 51st timer was not fired: 50 firings from Wait end in Wait, its timer started.
    assert machine.active == ("Top", "Top.Wait")
    assert machine.clock == pytest.approx(50 * delay)
    with pytest.raises(TransitionLoopError):
        machine.tick(1.0)  # still usable: the next tick goes on, and loops again


def test_a_tick_fires_up_to_the_bound_and_later_ticks_go_on() -> None:
    machine = blink(1 / 64, limit=64)  # binary fractions: the expiries add up exactly
    machine.tick(1.0)  # exactly 64 firings
    assert machine.clock == 1.0 and machine.active == ("Top", "Top.Wait")
    with pytest.raises(TransitionLoopError):
        machine.tick(1.5)  # 96 due: the 65th is refused, the clock stops at the 64th
    assert machine.clock == 2.0 and machine.active == ("Top", "Top.Wait")
    machine.tick(0.5)  # the caller ticks the rest: the machine goes on from the 64th expiry
    assert machine.clock == 2.5 and machine.active == ("Top", "Top.Wait")


@pytest.mark.parametrize("dt", [-1.0, math.nan, math.inf])
def test_a_tick_must_be_a_finite_time_forward(dt: float) -> None:
    machine = blink(0.5)
    with pytest.raises(UsageError, match=r"tick\(.*\): (time cannot go backwards|dt must be)"):
        machine.tick(dt)
    assert machine.clock == 0.0


def test_one_timer_per_state_survives_any_number_of_entries() -> None:
    text = """\
name: Long
root:
  name: Top
  states:
    - name: A
      enter: [start_timer: {name: Long, delay: 1000}]
      transitions: [{on: {input: Go}, to: B}]
    - name: B
      transitions: [{on: {input: Go}, to: A}]
"""
    machine = ChartMachine(loads(text, "yaml"))
    runtime = machine._runtime
    for _ in range(10_000):
        machine.send(Event("input", "Go"))
        live = sum(entry[2].alive for entry in runtime.timers)
        assert live <= 1
        assert len(runtime.timers) <= 2 * live + COMPACT_AT + 1
        assert runtime.dead == len(runtime.timers) - live


def test_a_restarted_timer_replaces_the_old_one_in_its_state() -> None:
    text = DELAY.replace("DELAY", "1.0").replace(
        "  transitions: []\n",
        "  states:\n    - name: A\n      enter: [start_timer: {name: U, delay: 0.5}]\n"
        "      transitions: [{on: {timer: U}, to: A}]\n",
    )
    machine = ChartMachine(loads(text, "yaml"))
    machine.tick(10.0)  # A re-enters itself every half second
    top = machine.state("Top")
    assert top is not None and top.timers is not None and len(top.timers) == 1
    assert len(machine._runtime.timers) <= 2 + COMPACT_AT
