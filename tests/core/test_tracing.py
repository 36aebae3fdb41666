"""Trace lines in the book's format, through a sink, the logger, or Step listeners."""

from __future__ import annotations

import logging

import pytest

import statetree as st


class Owner:
    dead = False


class States:
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner.dead:
                return st.sibling(States.Dead)
            return st.inner_entry(States.Locomotion)

    class Dead(st.State[Owner]):
        pass

    class Locomotion(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner(States.Stand)

    class Stand(st.State[Owner]):
        pass


def run(level: st.TraceLevel) -> list[str]:
    lines: list[str] = []
    owner = Owner()
    machine = st.StateMachine(
        States.Alive, owner, name="TestHsm", trace=level, trace_sink=lines.append
    )
    machine.process_state_transitions()
    owner.dead = True
    machine.process_state_transitions()
    return lines


def test_basic_trace() -> None:
    assert run(st.TraceLevel.BASIC) == [
        "HSM_1_TestHsm: Init    : States.Alive",
        "HSM_1_TestHsm:  Entry   : States.Locomotion",
        "HSM_1_TestHsm:   Inner   : States.Stand",
        "HSM_1_TestHsm: Sibling : States.Dead",
    ]


def test_diagnostic_trace_adds_pops() -> None:
    assert run(st.TraceLevel.DIAGNOSTIC) == [
        "HSM_1_TestHsm: Init    : States.Alive",
        "HSM_1_TestHsm:  Entry   : States.Locomotion",
        "HSM_1_TestHsm:   Inner   : States.Stand",
        "HSM_2_TestHsm:   Pop     : States.Stand",
        "HSM_2_TestHsm:  Pop     : States.Locomotion",
        "HSM_2_TestHsm: Pop     : States.Alive",
        "HSM_1_TestHsm: Sibling : States.Dead",
    ]


def test_no_trace_by_default() -> None:
    assert run(st.TraceLevel.NONE) == []


def test_without_sink_lines_go_to_the_statetree_logger(caplog: pytest.LogCaptureFixture) -> None:
    machine = st.StateMachine(States.Alive, Owner())
    machine.set_debug_info("Hero", st.TraceLevel.BASIC)
    assert machine.trace_level is st.TraceLevel.BASIC
    with caplog.at_level(logging.INFO, logger="statetree"):
        machine.process_state_transitions()
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("statetree", logging.INFO, "HSM_1_Hero: Init    : States.Alive"),
        ("statetree", logging.INFO, "HSM_1_Hero:  Entry   : States.Locomotion"),
        ("statetree", logging.INFO, "HSM_1_Hero:   Inner   : States.Stand"),
    ]


def test_listeners_receive_step_records() -> None:
    steps: list[st.Step] = []
    owner = Owner()
    machine = st.StateMachine(States.Alive, owner, name="m")
    machine.add_listener(steps.append)
    machine.process_state_transitions()
    owner.dead = True
    machine.process_state_transitions()
    kinds = st.StepKind
    assert steps == [
        st.Step("m", kinds.INIT, States.Alive, 0),
        st.Step("m", kinds.ENTRY, States.Locomotion, 1),
        st.Step("m", kinds.INNER, States.Stand, 2),
        st.Step("m", kinds.POP, States.Stand, 2),
        st.Step("m", kinds.POP, States.Locomotion, 1),
        st.Step("m", kinds.POP, States.Alive, 0),
        st.Step("m", kinds.SIBLING, States.Dead, 0),
    ]
    assert st.format_step(steps[1]) == "HSM_1_m:  Entry   : States.Locomotion"
    machine.remove_listener(steps.append)
    machine.stop()
    assert len(steps) == 7
    with pytest.raises(st.UsageError, match="is not a listener of machine 'm'"):
        machine.remove_listener(steps.append)


def test_sink_given_at_construction_survives_level_changes() -> None:
    lines: list[str] = []
    machine = st.StateMachine(States.Alive, Owner(), trace_sink=lines.append)
    machine.set_debug_info("TestHsm", st.TraceLevel.BASIC)
    machine.set_debug_info("TestHsm", st.TraceLevel.NONE)
    machine.set_debug_info("TestHsm", st.TraceLevel.BASIC)
    machine.process_state_transitions()
    assert lines[0] == "HSM_1_TestHsm: Init    : States.Alive"
