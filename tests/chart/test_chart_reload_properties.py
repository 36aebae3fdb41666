"""Reload properties: a failed reload changes nothing; a rehearsal predicts the reload."""

from __future__ import annotations

from batch_strategies import batch_charts, edited_charts
from budget import examples
from chart_strategies import charts, steps
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

import statetree as st_
from statetree.chart import (
    ActionCall,
    Chart,
    ChartError,
    ChartMachine,
    Event,
    ScriptStep,
    StateDef,
    compile_chart,
)
from statetree.chart import builder as b
from statetree.chart.rehearse import rehearse_reload
from statetree.errors import TransitionLoopError

LIMIT = 100  # max_transitions: random charts may loop; keep each loop short


def looping(name: str) -> Chart:
    """A valid chart that never settles once entered: two states raising each other's event."""
    return b.chart(
        "Loop",
        b.state(
            name,
            b.state("Ping", enter=[b.raise_event("E")], transitions=[b.on(b.event("E"), "Pong")]),
            b.state("Pong", enter=[b.raise_event("E")], transitions=[b.on(b.event("E"), "Ping")]),
        ),
    )


def broken(name: str) -> Chart:
    """An invalid chart: a sequence whose first child never ends."""
    return Chart("Broken", StateDef(name, "sequential", (StateDef("A"), StateDef("B"))))


@st.composite
def new_charts(draw: st.DrawFn, old: Chart) -> Chart:
    """A chart to reload ``old`` with: random (it may loop), looping, or broken."""
    kind = draw(st.sampled_from(("random", "random", "looping", "broken")))
    if kind == "random":
        return draw(charts())
    return (looping if kind == "looping" else broken)(old.root.name)


class Observed:
    """A chart machine whose trace, actions and events are recorded in one list."""

    def __init__(self, chart: Chart) -> None:
        self.lines: list[str] = []
        self.machine = ChartMachine(
            chart,
            trace=st_.TraceLevel.BASIC,
            trace_sink=self.lines.append,
            on_action=lambda call: self.lines.append(str(call)),
            max_transitions=LIMIT,
        )
        self.machine.add_event_listener(lambda event: self.lines.append(str(event)))

    def play(self, step: ScriptStep) -> str:
        """Do ``step``; what it did, or the loop it ran into (the machine stays usable)."""
        try:
            self.machine.play(step)
        except TransitionLoopError as error:
            self.lines.append(f"loop: {error.cycle}")
        return f"{self.machine.active} at {self.machine.clock}"


@settings(max_examples=examples(60), deadline=None)
@given(st.data(), charts(), st.lists(steps(), max_size=6), st.lists(steps(), max_size=6))
def test_a_failed_reload_leaves_the_machine_as_if_it_never_reloaded(
    data: st.DataObject, old: Chart, before: list[ScriptStep], after: list[ScriptStep]
) -> None:
    new = data.draw(new_charts(old))
    reloaded, untouched = Observed(old), Observed(old)
    for step in before:
        assert reloaded.play(step) == untouched.play(step)
    reloaded.lines.clear()
    untouched.lines.clear()
    try:
        reloaded.machine.reload(new)
    except (ChartError, TransitionLoopError):
        assert reloaded.lines == []  # no action, trace line or event: nothing happened
    else:
        return
    for step in after:
        assert reloaded.play(step) == untouched.play(step)
    assert reloaded.lines == untouched.lines


@settings(max_examples=examples(60), deadline=None)
@given(charts(), charts(), st.lists(steps(), max_size=8))
def test_the_rehearsal_predicts_the_states_a_reload_leaves_active(
    old: Chart, new: Chart, script: list[ScriptStep]
) -> None:
    machine = Observed(old)
    for step in script:
        machine.play(step)
    try:
        predicted = rehearse_reload(machine.machine.machine, compile_chart(new))
    except TransitionLoopError:
        return
    machine.machine.reload(new)
    assert machine.machine.active == predicted


def test_a_reload_that_would_loop_changes_nothing_and_says_where() -> None:
    machine = Observed(looping("Top").__class__("Ok", b.state("Top", b.state("Idle"))))
    machine.machine.tick(0.5)
    try:
        machine.machine.reload(looping("Top"))
    except TransitionLoopError as error:
        assert error.cycle in (("Top.Ping", "Top.Pong"), ("Top.Pong", "Top.Ping"))
    else:
        raise AssertionError("the looping chart was accepted")
    assert machine.machine.active == ("Top", "Top.Idle")
    assert machine.machine.chart.name == "Ok"
    machine.machine.send(Event("event", "E"))  # still runs the old chart
    assert machine.machine.active == ("Top", "Top.Idle")


class Refused(Exception):
    """What a host's handler raises, to abort a reload part way."""


@settings(max_examples=examples(80), deadline=None)
@given(st.data(), batch_charts(), st.lists(steps(), max_size=6), st.lists(steps(), max_size=6))
def test_a_reload_a_handler_raises_in_leaves_the_machine_as_if_it_never_reloaded(
    data: st.DataObject, old: Chart, before: list[ScriptStep], after: list[ScriptStep]
) -> None:
    new = data.draw(edited_charts(old), "new")
    try:
        compile_chart(new)
    except ChartError:
        assume(False)
    failing = data.draw(st.integers(1, 6), "the handler call that raises")
    calls = [0]  # counted once the reload begins; 0 before

    def host(call: ActionCall) -> None:
        if calls[0]:
            calls[0] += 1
            if calls[0] > failing:
                raise Refused

    reloaded = ChartMachine(old, {"host": host, "echo": host}, max_transitions=LIMIT)
    untouched = ChartMachine(old, {"host": print, "echo": print}, max_transitions=LIMIT)
    for step in before:
        assert _played(reloaded, step) == _played(untouched, step)
    saved = reloaded.snapshot()
    calls[0] = 1
    try:
        reloaded.reload(new)
    except Refused:
        event("a handler raised in the reload")
    except TransitionLoopError:
        return
    else:
        return  # fewer calls than that: the reload completed
    finally:
        calls[0] = 0
    assert reloaded.snapshot() == saved and reloaded.chart == old
    for step in after:
        assert _played(reloaded, step) == _played(untouched, step)
    assert reloaded.snapshot() == untouched.snapshot()


def _played(machine: ChartMachine, step: ScriptStep) -> str:
    try:
        machine.play(step)
    except TransitionLoopError as error:
        return f"loop: {error.cycle}"
    return f"{machine.active} at {machine.clock}"
