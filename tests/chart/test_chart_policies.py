"""The four policies and history, on small charts built with the builder."""

from __future__ import annotations

import pytest

import statetree as st
from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    Chart,
    ChartError,
    ChartMachine,
    Event,
    Param,
)
from statetree.chart import builder as b


def send(machine: ChartMachine, *events: str) -> tuple[str, ...]:
    machine.start()
    for text in events:
        kind, name = text.split()
        machine.send(Event(kind, name))
    return machine.active


def priority() -> Chart:
    """Stunned (pre, no post) over Attack (pre + post) over Idle (ground)."""
    return b.chart(
        "Fighter",
        b.state(
            "Top",
            b.state("Stunned", pre=b.held("Stun")),
            b.state("Attack", pre=b.input("Attack"), post=b.anim_finished("Attack")),
            b.state("Idle"),
            policy="priority",
        ),
    )


def test_priority_picks_the_first_child_whose_pre_condition_holds() -> None:
    machine = ChartMachine(priority())
    assert send(machine) == ("Top", "Top.Idle")
    assert send(machine, "input Attack") == ("Top", "Top.Attack")


def test_a_child_with_a_post_condition_stays_until_it_holds() -> None:
    machine = ChartMachine(priority())
    send(machine, "input Attack")
    assert send(machine, "input Other", "anim_finished Walk") == ("Top", "Top.Attack")
    assert send(machine, "anim_finished Attack") == ("Top", "Top.Idle")


def test_a_higher_priority_pre_condition_preempts() -> None:
    machine = ChartMachine(priority())
    send(machine, "input Attack")
    machine.hold(Event("held", "Stun"))
    assert machine.active == ("Top", "Top.Stunned")
    send(machine, "input Attack")
    assert machine.active == ("Top", "Top.Stunned")  # lower priority cannot take over
    machine.release(Event("held", "Stun"))
    assert machine.active == ("Top", "Top.Idle")  # no post: it leaves when its pre fails


def test_a_finished_child_is_chosen_again_only_on_a_later_pass() -> None:
    # Attack finishes while its level-held pre-condition still holds: the parent first
    # leaves it for the best other child, then, its pre holding, enters it again.
    chart = b.chart(
        "Auto",
        b.state(
            "Top",
            b.state("Attack", pre=b.held("Fire"), post=b.anim_finished("Attack")),
            b.state("Idle"),
            policy="priority",
        ),
    )
    lines: list[str] = []
    machine = ChartMachine(chart, trace=st.TraceLevel.BASIC, trace_sink=lines.append)
    machine.hold(Event("held", "Fire"))
    lines.clear()
    send(machine, "anim_finished Attack")
    assert lines == ["HSM_1_Auto:  Inner   : Top.Idle", "HSM_1_Auto:  Inner   : Top.Attack"]


def test_one_press_starts_one_attack_even_one_done_at_once() -> None:
    # The animation system reports a missing animation finished at once, from the handler
    # that plays it: the press that chose Attack was before Attack's entry, so it does not
    # choose Attack again once it is done (it looped for ever).
    chart = b.chart(
        "Fighter",
        b.state(
            "Top",
            b.state(
                "Attack",
                pre=b.input("Attack"),
                post=b.anim_finished("Swing"),
                enter=[b.action("play", name="Swing")],
            ),
            b.state("Idle", enter=[b.action("play", name="Rest")]),
            policy="priority",
        ),
        registry=DEFAULT_REGISTRY.with_actions(ActionType("play", (Param("name"),))),
    )
    played: list[str] = []

    def play(call: ActionCall) -> None:
        played.append(str(call.params["name"]))
        if call.params["name"] == "Swing":
            machine.send(Event("anim_finished", "Swing"))

    machine = ChartMachine(chart, {"play": play})
    assert send(machine, "input Attack") == ("Top", "Top.Idle")
    assert played == ["Rest", "Swing", "Rest"]
    assert send(machine, "input Attack") == ("Top", "Top.Idle")  # the next press: one more
    assert played == ["Rest", "Swing", "Rest", "Swing", "Rest"]


def steps() -> Chart:
    return b.chart(
        "Steps",
        b.state(
            "Top",
            b.state(
                "Job",
                b.state("First", post=b.input("Next")),
                b.state("Second", post=b.input("Next")),
                b.state("Third"),
                policy="sequential",
                transitions=[b.on(b.input("Pause"), "Paused")],
            ),
            b.state("Paused", transitions=[b.on(b.input("Resume"), "Job")]),
        ),
    )


def test_sequential_advances_on_each_post_condition_and_stays_on_the_last() -> None:
    machine = ChartMachine(steps())
    assert send(machine)[-1] == "Top.Job.First"
    assert send(machine, "input Next")[-1] == "Top.Job.Second"
    assert send(machine, "input Next", "input Next")[-1] == "Top.Job.Third"


def test_history_resumes_the_last_active_child() -> None:
    machine = ChartMachine(steps())
    send(machine, "input Next", "input Pause")
    assert machine.active == ("Top", "Top.Paused")
    assert send(machine, "input Resume") == ("Top", "Top.Job", "Top.Job.Second")


def test_clear_history_restarts_at_the_first_child() -> None:
    chart = steps()
    job = chart.root.states[0]
    cleared = b.state(
        "Job", *job.states, policy="sequential", transitions=job.transitions,
        exit=[b.clear_history()],
    )  # fmt: skip
    chart = b.chart("Steps", b.state("Top", cleared, chart.root.states[1]))
    machine = ChartMachine(chart)
    send(machine, "input Next", "input Pause", "input Resume")
    assert machine.active[-1] == "Top.Job.First"


def test_concurrent_children_are_regions_processed_in_order() -> None:
    chart = b.chart(
        "Body",
        b.state(
            "Top",
            b.state("Legs", b.state("Walk", transitions=[b.on(b.input("Go"), "Run")]),
                    b.state("Run")),
            b.state("Arms", b.state("Rest", transitions=[b.on(b.input("Go"), "Wave")]),
                    b.state("Wave")),
            policy="concurrent",
        ),
    )  # fmt: skip
    machine = ChartMachine(chart)
    assert send(machine, "input Go") == ("Top", "Top.Legs", "Top.Legs.Run", "Top.Arms",
                                         "Top.Arms.Wave")  # fmt: skip
    top = machine.machine.stack[0]
    assert len(machine.machine.regions(top)) == 2


@pytest.mark.parametrize(
    ("root", "message"),
    [
        (
            b.state("Top", b.state("A", pre=b.input("X")), b.state("B"), b.state("G"),
                    policy="priority"),
            "Top.B has no pre-condition, so the children after it could never be chosen",
        ),
        (
            b.state("Top", b.state("A", post=b.input("X")), b.state("G", post=b.input("Y")),
                    policy="priority"),
            "the ground state Top.G cannot have a post-condition",
        ),
        (
            b.state("Top", b.state("A"), b.state("B"), policy="sequential"),
            "Top.A has no post-condition, so the sequence Top would never advance past it",
        ),
        (
            b.state("Top", b.state("A", post=b.input("X")), b.state("B", post=b.input("Y")),
                    policy="sequential"),
            "the post-condition of Top.B would never be read: the last child of sequence Top "
            "stays; give Top itself a post-condition to end the sequence",
        ),
        (
            b.state("Top", pre=b.input("X")),
            "the root Top has no parent to read its pre",
        ),
    ],
)  # fmt: skip
def test_policy_rules_are_checked_when_the_chart_is_built(root: object, message: str) -> None:
    with pytest.raises(ChartError, match=message) as failure:
        b.chart("Bad", root)  # type: ignore[arg-type]
    assert failure.value.file == "<data>"


def test_a_chart_that_cannot_settle_is_told_in_a_chart_s_words() -> None:
    # Held, the button chooses Attack again each time it is done, and it is done at once.
    chart = b.chart(
        "Fighter",
        b.state(
            "Top",
            b.state(
                "Attack", pre=b.held("Fire"), post=b.event("Done"), enter=[b.raise_event("Done")]
            ),
            b.state("Idle"),
            policy="priority",
        ),
    )
    machine = ChartMachine(chart, max_transitions=20)
    machine.start()
    with pytest.raises(st.TransitionLoopError) as caught:
        machine.hold(Event("held", "Fire"))
    assert caught.value.chart and caught.value.cycle == ("Top.Idle", "Top.Attack")
    assert str(caught.value) == (
        "machine 'Fighter' changed its active states 20 times in one processing without "
        "settling; the repeating cycle is Top.Idle -> Top.Attack -> Top.Idle. A condition "
        "stays true after its target is entered (an event the target's enter actions raise, "
        "a level still held, a post-condition that holds at once): change the chart, or raise "
        "max_transitions if it really needs more."
    )
