"""What tools reach of a running chart machine from Python, in both builds.

Placing a machine in another's situation (``statetree.chart.placement``), the batch engine
deriving its tables and hot reload read and write a chart machine's runtime, its timers, its
states and their classes directly. Compiled, those are fields of extension types, and a field
left out of a ``.pxd`` (or declared read-only) is missing or frozen there only: these tests
run in both builds, so such a change fails here.
"""

from __future__ import annotations

import heapq
import runpy
from typing import Any

import pytest
from chart_samples import CHARTS, HOST_ACTIONS, Recorder, example

import statetree as st
from statetree.chart import Chart, ChartMachine, Event, Registry, ScriptStep, load, read_script
from statetree.chart.placement import place, place_timers, running_timers, situation_of
from statetree.chart.runtime import Timer
from statetree.chart.states import ChartState
from statetree.core.transition import CONCURRENT, Transition
from statetree.errors import UsageError

PLATFORMER: Registry = runpy.run_path(str(CHARTS.parent / "chart_platformer.py"))["REGISTRY"]


def _chart(name: str) -> Chart:
    return load(CHARTS / name, PLATFORMER) if name == "platformer.yaml" else example(name)


def _script(name: str) -> list[ScriptStep]:
    return list(read_script((CHARTS / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("chart", "events"),
    [("combo_attack.yaml", "combo_attack.events"), ("platformer.yaml", "platformer.events")],
)
def test_a_machine_placed_in_anothers_situation_goes_on_exactly_as_it(
    chart: str, events: str
) -> None:
    steps = _script(events)
    for cut in range(len(steps) + 1):
        first = Recorder(_chart(chart))
        first.machine.start()
        for step in steps[:cut]:
            first.machine.play(step)
        second = Recorder(_chart(chart))
        place(second.machine, situation_of(first.machine))
        second.machine._runtime.clock = first.machine.clock
        place_timers(second.machine, running_timers(first.machine))

        assert second.actions() == []  # placing runs no hook and no action
        assert second.machine.active == first.machine.active
        assert _timers(second.machine) == _timers(first.machine)
        first.lines.clear()
        for step in steps[cut:]:
            first.machine.play(step)
            second.machine.play(step)
            assert second.lines == first.lines, f"after {cut} steps, then {step}"
            assert second.machine.active == first.machine.active


def test_the_runtime_timers_and_states_are_read_and_written_as_tools_do() -> None:
    machine = ChartMachine(example("combo_attack.yaml"), _quiet())
    machine.start()
    machine.send(Event("input", "ComboAttackButton"))
    runtime = machine._runtime
    compiled = machine.compiled
    assert runtime.compiled is compiled
    assert machine.machine.started and isinstance(machine.machine, st.StateMachine)

    pre = machine.state("Character.Alive.ComboAttack.ComboAttack1.Pre")
    assert isinstance(pre, ChartState)
    cls = type(pre)
    assert (cls._path, cls._id) == ("Character.Alive.ComboAttack.ComboAttack1.Pre", pre._id)
    assert runtime.live[cls._id] is pre and compiled.classes[cls._id] is cls
    parent = pre.parent
    assert parent is not None and parent.child is pre and cls._parent_id == type(parent)._id
    assert runtime.history[cls._parent_id] == cls._index
    assert cls._definition.name == "Pre" and cls._regions is None
    assert [performer.call.type for performer in cls._enter] == [
        "play_animation",
        "play_sound",
        "start_timer",
    ]
    assert cls._exit == () and len(type(parent)._inners) == 4

    (timer,) = pre.timers or ()
    assert isinstance(timer, Timer) and timer.alive and timer.owner == cls._path
    assert (timer.event, timer.due) == (Event("timer", "Pre"), 0.75)
    assert runtime.timers == [(0.75, runtime.sequence, timer)]
    assert (runtime.serial, runtime.base, runtime.processing) == (1, 0, False)
    assert (runtime.clock, runtime.held, runtime.levels) == (0.0, set(), [])

    # What placing a machine and the batch engine write.
    timer.due = 0.5
    timer.alive = False
    timer.event = Event("timer", "Other")
    timer.owner = "elsewhere"
    assert (timer.due, timer.alive, timer.event, timer.owner) == (
        0.5,
        False,
        Event("timer", "Other"),
        "elsewhere",
    )
    pre.entry = 7
    pre.child = None
    pre.timers = None
    pre.parent = None
    assert (pre.entry, pre.child, pre.timers, pre.parent) == (7, None, None, None)
    runtime.clock = 2.5
    runtime.serial = 9
    runtime.base = 4
    runtime.sequence = 11
    runtime.processing = False
    runtime.held = {Event("held", "H")}
    runtime.levels = []
    runtime.history = list(runtime.history)
    runtime.live = list(runtime.live)
    runtime.timers = []
    heapq.heappush(runtime.timers, (3.0, 12, Timer(Event("timer", "Pre"), 3.0, cls._path)))
    assert (runtime.clock, runtime.serial, runtime.base, runtime.sequence) == (2.5, 9, 4, 11)
    assert runtime.held == {Event("held", "H")} and len(runtime.timers) == 1


def test_a_state_changes_class_to_a_generated_sibling_and_the_machine_goes_on() -> None:
    recorder = Recorder(example("combo_attack.yaml"))
    machine = recorder.machine
    machine.start()
    idle = machine.state("Character.Alive.Idle")
    assert idle is not None
    twin = type("Idle", (type(idle),), {"__slots__": (), "__qualname__": "Character.Alive.Idle"})
    idle.__class__ = twin
    assert machine.state("Character.Alive.Idle") is idle and type(idle) is twin
    idle.__class__ = machine.compiled.classes[type(idle)._id]
    recorder.lines.clear()
    machine._process(Event("input", "ComboAttackButton"))
    assert machine.active[-2:] == (
        "Character.Alive.ComboAttack.ComboAttack1",
        "Character.Alive.ComboAttack.ComboAttack1.Pre",
    )
    assert "enter Character.Alive.ComboAttack.ComboAttack1: enable_damage_collision" in " ".join(
        recorder.lines
    )
    machine._process(None)  # nothing latched: nothing changes
    assert machine.active[-1] == "Character.Alive.ComboAttack.ComboAttack1.Pre"


def test_the_core_machine_is_driven_as_tools_drive_it() -> None:
    recorder = Recorder(_chart("platformer.yaml"))
    core = recorder.machine.machine
    steps: list[st.Step] = []
    core.add_listener(steps.append)
    initial = core.initial
    assert (
        isinstance(initial, Transition) and initial.target is recorder.machine.compiled.classes[0]
    )
    core.start()
    root = core.get_state(initial.target)
    assert root is not None and core.walk() == [root]
    assert [step.state for step in steps] == [initial.target]

    regions = type(root)._regions
    assert isinstance(regions, Transition) and regions.kind is CONCURRENT
    core.apply_transition(root, regions)
    assert [tuple(type(s) for s in region) for region in core.regions(root)] == [
        (target,) for target in regions.regions
    ]
    legs = core.regions(root)[0][0]
    core.exit(legs)
    assert [len(region) for region in core.regions(root)] == [0, 1]
    core.stop()
    core.initial = initial.target
    assert core.initial == initial and not core.started


def _timers(machine: ChartMachine) -> list[tuple[str, str, float]]:
    """The running timers of ``machine``, in firing order (their start numbers aside)."""
    return [(timer.name, timer.state, timer.due) for timer in running_timers(machine)]


def _quiet() -> dict[str, Any]:
    return dict.fromkeys(HOST_ACTIONS, lambda call: None)


def test_state_tells_an_inactive_state_from_one_the_chart_lacks() -> None:
    machine = Recorder(example("combo_attack.yaml")).machine
    machine.start()
    assert machine.state("Character.Dead") is None  # a state of the chart, not active
    for path in ("Character.Alive.Idel", ["Character"]):  # a typo; not a path at all
        with pytest.raises(UsageError, match=r"chart 'Combo' has no state .*; states: "):
            machine.state(path)  # type: ignore[arg-type]
