"""Scenario tests of the runtime: exact hook order and causes, failures that change nothing."""

from __future__ import annotations

import logging
import pickle
import sys
from collections.abc import Callable

import numpy as np
import pytest

from statetree import TraceLevel
from statetree.bitmask import (
    BitCause,
    BitmaskDefinition,
    BitmaskMachine,
    BitState,
    Change,
    NoSuchStateError,
    ReentrantRequestError,
)
from statetree.errors import UsageError

Log = list[tuple[str, str, str]]


class Logged(BitState[Log]):
    def on_activated(self, cause: BitCause) -> None:
        self.owner.append(("+", self.name, cause.name))

    def on_deactivated(self, cause: BitCause) -> None:
        self.owner.append(("-", self.name, cause.name))


class Base(Logged):
    pass


class Mid(Logged):
    requires = (Base,)


class Top(Logged):
    requires = (Mid,)


class Side(Logged):
    requires = (Base,)


class Combo(Logged):
    requires = (Top, Side)


class Strike(Logged):
    requires = (Base,)
    terminates = (Mid, Side)
    blocked_by = ("Guard",)
    retriggerable = True


class Follow(Logged):
    requires = (Strike,)


class Guard(Logged):
    requires = (Base,)


RULES = BitmaskDefinition.from_classes(
    [Base, Mid, Top, Side, Combo, Strike, Follow, Guard], name="Fighter"
)


def machine_with(*states: str) -> tuple[BitmaskMachine[Log], Log]:
    log: Log = []
    machine = BitmaskMachine(RULES, log)
    for state in states:
        assert machine.try_activate(state)
    log.clear()
    return machine, log


def test_activation_needs_every_requirement() -> None:
    machine, log = machine_with()
    assert not machine.try_activate(Mid)
    assert machine.try_activate(Base)
    assert machine.try_activate(Mid)
    assert not machine.try_activate(Combo)
    assert log == [("+", "Base", "REQUESTED"), ("+", "Mid", "REQUESTED")]
    assert machine.active_states == ("Base", "Mid")
    assert machine.mask == 0b11


def test_deactivation_cascades_dependents_first_in_teardown_order() -> None:
    machine, log = machine_with("Base", "Mid", "Top", "Side", "Combo", "Guard")
    assert machine.deactivate(Base)
    assert log == [
        ("-", "Guard", "LOST_REQUIREMENT"),
        ("-", "Combo", "LOST_REQUIREMENT"),
        ("-", "Side", "LOST_REQUIREMENT"),
        ("-", "Top", "LOST_REQUIREMENT"),
        ("-", "Mid", "LOST_REQUIREMENT"),
        ("-", "Base", "REQUESTED"),
    ]
    assert [(c.state, c.reason) for c in machine.history[-6:]] == [
        ("Guard", "lost requirement Base"),
        ("Combo", "lost requirement Top"),
        ("Side", "lost requirement Base"),
        ("Top", "lost requirement Mid"),
        ("Mid", "lost requirement Base"),
        ("Base", "requested"),
    ]
    assert machine.mask == 0


def test_termination_cascades_and_names_the_terminator() -> None:
    machine, log = machine_with("Base", "Mid", "Top", "Side", "Combo")
    assert machine.try_activate(Strike)
    assert log == [
        ("-", "Combo", "LOST_REQUIREMENT"),
        ("-", "Side", "TERMINATED"),
        ("-", "Top", "LOST_REQUIREMENT"),
        ("-", "Mid", "TERMINATED"),
        ("+", "Strike", "REQUESTED"),
    ]
    assert [str(c) for c in machine.history[-5:]] == [
        "#6 -Combo (lost requirement Top)",
        "#7 -Side (terminated by Strike)",
        "#8 -Top (lost requirement Mid)",
        "#9 -Mid (terminated by Strike)",
        "#10 +Strike (requested)",
    ]


def test_retrigger_exits_with_dependents_then_enters() -> None:
    machine, log = machine_with("Base", "Strike", "Follow")
    assert machine.try_activate(Strike)
    assert log == [
        ("-", "Follow", "LOST_REQUIREMENT"),
        ("-", "Strike", "RETRIGGERED"),
        ("+", "Strike", "REQUESTED"),
    ]
    assert machine.active_states == ("Base", "Strike")


def test_a_retrigger_takes_its_dependents_first_even_those_it_terminates() -> None:
    # Combo requires Attack and Attack terminates it: on a retrigger Combo leaves for losing
    # Attack (step 1), before the states Attack terminates for their own sake (step 2).
    rules = BitmaskDefinition.from_data(
        {
            "Armed": {},
            "Guard": {"requires": ["Armed"]},
            "Attack": {
                "requires": ["Armed"],
                "terminates": ["Combo", "Guard"],
                "retriggerable": True,
            },
            "Combo": {"requires": ["Attack"]},
        },
        behaviours={name: Logged for name in ("Armed", "Guard", "Attack", "Combo")},
    )
    log: Log = []
    machine = BitmaskMachine(rules, log, history_size=8)
    for state in ("Armed", "Attack", "Combo", "Guard"):
        assert machine.try_activate(state)
    log.clear()
    assert machine.try_activate("Attack")
    assert log == [
        ("-", "Combo", "LOST_REQUIREMENT"),
        ("-", "Attack", "RETRIGGERED"),
        ("-", "Guard", "TERMINATED"),
        ("+", "Attack", "REQUESTED"),
    ]
    assert [str(change) for change in machine.history[-4:]] == [
        "#5 -Combo (lost requirement Attack)",
        "#6 -Attack (retriggered)",
        "#7 -Guard (terminated by Attack)",
        "#8 +Attack (requested)",
    ]
    assert machine.active_states == ("Armed", "Attack")


def test_blocked_and_non_retriggerable_requests_change_nothing() -> None:
    machine, log = machine_with("Base", "Guard", "Mid")
    before = (machine.mask, machine.history)
    assert not machine.try_activate(Strike)
    assert not machine.try_activate(Mid)
    assert not machine.deactivate(Top)
    assert log == []
    assert (machine.mask, machine.history) == before


def test_hooks_see_a_consistent_mask() -> None:
    seen: list[tuple[str, tuple[str, ...]]] = []

    class Watch(BitState[None]):
        def on_activated(self, cause: BitCause) -> None:
            seen.append((f"+{self.name}", self.machine.active_states))

        def on_deactivated(self, cause: BitCause) -> None:
            seen.append((f"-{self.name}", self.machine.active_states))

    rules = BitmaskDefinition.from_data(
        {"A": {}, "B": {"requires": ["A"]}, "C": {"requires": ["B"]}},
        behaviours={"A": Watch, "C": Watch},
    )
    machine = BitmaskMachine(rules)
    for state in "ABC":
        machine.try_activate(state)
    machine.deactivate("A")
    assert seen == [("+A", ("A",)), ("+C", ("A", "B", "C")), ("-C", ("A", "B")), ("-A", ())]


def test_custom_check_runs_after_the_rules_pass() -> None:
    calls: list[int] = []

    class Ammo(BitState["Gun"]):
        def can_activate(self) -> bool:
            calls.append(self.owner.rounds)
            return self.owner.rounds > 0

        def on_activated(self, cause: BitCause) -> None:
            self.owner.rounds -= 1

    class Gun:
        rounds = 1

    rules = BitmaskDefinition.from_data(
        {"Ready": {}, "Fire": {"requires": ["Ready"], "retriggerable": True}},
        behaviours={"Fire": Ammo},
    )
    gun = Gun()
    machine = BitmaskMachine(rules, gun)
    assert not machine.try_activate("Fire")
    assert calls == []
    machine.try_activate("Ready")
    assert machine.try_activate("Fire")
    assert not machine.try_activate("Fire")
    assert calls == [1, 0]
    assert machine.get_state("Fire").owner is gun


def test_can_activate_answers_as_try_activate_would_and_changes_nothing() -> None:
    machine, log = machine_with("Base", "Mid")
    before = (machine.mask, machine.history)
    answers = {name: machine.can_activate(name) for name in RULES.names}
    assert answers == {
        "Base": False,  # active, not retriggerable
        "Mid": False,
        "Top": True,
        "Side": True,
        "Combo": False,  # requires Top and Side
        "Strike": True,
        "Follow": False,  # requires Strike
        "Guard": True,
    }
    assert (machine.mask, machine.history, log) == (*before, [])
    assert machine.try_activate(Guard)
    assert not machine.can_activate(Strike)  # blocked by Guard
    with pytest.raises(NoSuchStateError, match=r"^'Jump' is not a state of definition"):
        machine.can_activate("Jump")


def test_can_activate_asks_the_custom_check_only_once_the_rules_pass() -> None:
    asked: list[str] = []

    class Ammo(BitState[list[int]]):
        def can_activate(self) -> bool:
            asked.append(self.name)
            return self.owner[0] > 0

    rules = BitmaskDefinition.from_data(
        {"Ready": {}, "Fire": {"requires": ["Ready"]}}, behaviours={"Fire": Ammo}
    )
    rounds = [0]
    machine = BitmaskMachine(rules, rounds)
    assert not machine.can_activate("Fire")
    assert asked == []
    machine.try_activate("Ready")
    assert not machine.can_activate("Fire")
    rounds[0] = 1
    assert machine.can_activate("Fire")
    assert asked == ["Fire", "Fire"]
    assert machine.active_states == ("Ready",)


def test_a_hook_may_ask_can_activate_and_still_may_not_request() -> None:
    answers: list[bool] = []

    class Asker(BitState[None]):
        def on_activated(self, cause: BitCause) -> None:
            answers.append(self.machine.can_activate("Checked"))
            self.machine.try_activate("Checked")

    class Checked(BitState[None]):
        def can_activate(self) -> bool:
            return True

    rules = BitmaskDefinition.from_data(
        {"Asker": {}, "Checked": {}}, behaviours={"Asker": Asker, "Checked": Checked}
    )
    machine = BitmaskMachine(rules)
    with pytest.raises(
        ReentrantRequestError,
        match=r"^try_activate\('Checked'\) was called "
        r"from Asker.on_activated",
    ):
        machine.try_activate("Asker")
    assert answers == [True]
    assert machine.active_states == ("Asker",)


def test_history_is_a_bounded_ring_of_frozen_records() -> None:
    machine = BitmaskMachine(RULES, [], history_size=3)
    for _ in range(3):
        machine.try_activate(Base)
        machine.deactivate(Base)
    assert [c.seq for c in machine.history] == [4, 5, 6]
    assert machine.history[-1] == Change(6, "Base", False, BitCause.REQUESTED, None, 0)
    assert machine.last_change == machine.history[-1]
    with pytest.raises(AttributeError):
        machine.history[0].state = "Mid"  # type: ignore[misc]
    quiet = BitmaskMachine(RULES, [], history_size=0)
    quiet.try_activate(Base)
    assert quiet.history == ()
    assert quiet.last_change is None


def test_unknown_states_are_usage_errors_naming_the_state() -> None:
    machine, _ = machine_with()
    with pytest.raises(NoSuchStateError) as caught:
        machine.try_activate("Jump")
    assert str(caught.value) == (
        "'Jump' is not a state of definition 'Fighter' "
        "(states: Base, Mid, Top, Side, Combo, Strike, Follow, Guard)"
    )
    with pytest.raises(NoSuchStateError, match=r"^Logged is not a state"):
        machine.is_active(Logged)
    with pytest.raises(NoSuchStateError, match=r"^\[\] is not a state"):
        machine.deactivate([])  # type: ignore[arg-type]
    named = BitmaskMachine(RULES, name="Hero")  # every call names the definition
    for call in (named.try_activate, named.deactivate, named.is_active, named.explain):
        with pytest.raises(NoSuchStateError) as caught:
            call("Gaurd")
        assert str(caught.value) == (
            "'Gaurd' is not a state of definition 'Fighter' "
            "(states: Base, Mid, Top, Side, Combo, Strike, Follow, Guard); did you mean 'Guard'?"
        )


def test_requests_from_hooks_are_refused_and_leave_the_machine_usable() -> None:
    class Eager(BitState[None]):
        def on_activated(self, cause: BitCause) -> None:
            self.machine.try_activate("Other")

    rules = BitmaskDefinition.from_data(
        {"Eager": {}, "Other": {}}, behaviours={"Eager": Eager}, name="Loop"
    )
    machine = BitmaskMachine(rules)
    with pytest.raises(ReentrantRequestError) as caught:
        machine.try_activate("Eager")
    assert str(caught.value) == (
        "try_activate('Other') was called from Eager.on_activated; a machine applies one "
        "change at a time. Express the follow-up as a rule (requires / terminates) or make "
        "the request after the current call returns"
    )
    assert machine.active_states == ("Eager",)
    assert machine.try_activate("Other")


def test_a_check_asked_by_explain_may_not_request_either() -> None:
    class Sneaky(BitState[None]):
        def can_activate(self) -> bool:
            self.machine.try_activate("Other")
            return True

    rules = BitmaskDefinition.from_data(
        {"Sneaky": {}, "Other": {}}, behaviours={"Sneaky": Sneaky}, name="Checks"
    )
    machine = BitmaskMachine(rules)
    for ask in (machine.explain, machine.can_activate):
        with pytest.raises(ReentrantRequestError, match=r"called from Sneaky.can_activate"):
            ask("Sneaky")
        assert machine.active_states == ()


def test_states_know_their_machine_and_owner() -> None:
    log: Log = []
    machine = BitmaskMachine(RULES, log, name="P1")
    base = machine.get_state(Base)
    assert (base.owner, base.machine, base.name, base.index) == (log, machine, "Base", 0)
    assert not base.is_active
    machine.try_activate("Base")
    assert base.is_active
    assert repr(base) == "<Base Base>"
    assert repr(machine) == "<BitmaskMachine 'P1' active=['Base']>"
    assert [type(s).__name__ for s in machine.states][:2] == ["Base", "Mid"]


def test_a_raising_hook_stops_the_request_with_a_consistent_mask() -> None:
    class Fragile(BitState[Log]):
        def on_deactivated(self, cause: BitCause) -> None:
            self.owner.append(("-", self.name, cause.name))
            raise RuntimeError("cleanup failed")

    rules = BitmaskDefinition.from_data(
        {"A": {}, "B": {"requires": ["A"]}, "C": {"requires": ["B"]}},
        behaviours={"B": Fragile, "A": Logged, "C": Logged},
    )
    log: Log = []
    machine = BitmaskMachine(rules, log)
    for state in "ABC":
        machine.try_activate(state)
    log.clear()
    with pytest.raises(RuntimeError, match="cleanup failed"):
        machine.deactivate("A")
    assert log == [("-", "C", "LOST_REQUIREMENT"), ("-", "B", "LOST_REQUIREMENT")]
    assert machine.active_states == ("A",)
    assert machine.deactivate("A")
    assert machine.mask == 0


class Needs(Logged):
    requires = ("Later",)


class Later(Logged):
    pass


class Sooner(Logged):
    pass


class Ender(Logged):
    terminates = (Sooner, Later)


class Hub(Logged):
    pass


class Unused(Logged):
    requires = ("Last",)  # never active: its rule must not order the others


class First(Logged):
    requires = (Hub,)


class Last(Logged):
    requires = (Hub,)


def _logged(*states: type[Logged]) -> tuple[BitmaskMachine[Log], Log]:
    log: Log = []
    machine = BitmaskMachine(BitmaskDefinition.from_classes(list(states)), owner=log)
    return machine, log


def test_independent_states_terminated_together_leave_later_declared_first() -> None:
    # Needs requires Later, which orders every state globally; Sooner and Later are
    # independent of each other, so the later-declared Later leaves first.
    machine, log = _logged(Needs, Sooner, Later, Ender)
    assert machine.try_activate(Sooner) and machine.try_activate(Later)
    log.clear()
    assert machine.try_activate(Ender)
    assert log == [
        ("-", "Later", "TERMINATED"),
        ("-", "Sooner", "TERMINATED"),
        ("+", "Ender", "REQUESTED"),
    ]


def test_teardown_order_depends_only_on_the_states_that_leave() -> None:
    machine, log = _logged(Hub, Unused, First, Last)
    for state in (Hub, First, Last):
        assert machine.try_activate(state)
    log.clear()
    assert machine.deactivate(Hub)
    assert log == [
        ("-", "Last", "LOST_REQUIREMENT"),
        ("-", "First", "LOST_REQUIREMENT"),
        ("-", "Hub", "REQUESTED"),
    ]
    machine.apply_mask(0b1101)  # back up: requirements first, earlier-declared first
    assert machine.active_states == ("Hub", "First", "Last")
    assert log[3:] == [
        ("+", "Hub", "NETWORK"),
        ("+", "First", "NETWORK"),
        ("+", "Last", "NETWORK"),
    ]


@pytest.mark.parametrize(
    ("call", "make", "cause"),
    [
        ("try_activate(cause=...)", lambda m, c: m.try_activate(Mid, cause=c), "weird"),
        ("deactivate(cause=...)", lambda m, c: m.deactivate(Base, cause=c), 3),
        ("apply_mask(cause=...)", lambda m, c: m.apply_mask(0, cause=c), None),
        ("apply_encoded(cause=...)", lambda m, c: m.apply_encoded(b"\x00", cause=c), "net"),
        ("caused_by()", lambda m, c: m.caused_by(c).__enter__(), BitCause.NETWORK.value),
    ],
)
def test_a_cause_must_be_a_bit_cause_and_a_wrong_one_changes_nothing(
    call: str, make: Callable[[BitmaskMachine[Log], object], object], cause: object
) -> None:
    machine, log = machine_with("Base")
    history = machine.history
    with pytest.raises(UsageError) as caught:
        make(machine, cause)
    assert str(caught.value) == f"{call} takes a BitCause, got {cause!r}"
    assert (machine.active_states, machine.history, log) == (("Base",), history, [])
    assert machine.try_activate(Mid)
    assert [str(change) for change in machine.history] == [
        "#1 +Base (requested)",
        "#2 +Mid (requested)",
    ]


@pytest.mark.parametrize("size", [-1, 2.5, None, True, sys.maxsize + 1])
def test_history_size_is_a_whole_number_from_zero(size: object) -> None:
    with pytest.raises(UsageError) as caught:
        BitmaskMachine(RULES, [], history_size=size)  # type: ignore[call-overload]
    assert str(caught.value) == (
        f"history_size is a whole number of changes from 0 (keeps none) to sys.maxsize, "
        f"got {size!r}"
    )
    kept = BitmaskMachine(RULES, [], history_size=np.int64(2))  # NumPy's integers too
    kept.try_activate(Base)
    assert len(kept.history) == 1


TRACED: list[str] = []


def trace_to_list(line: str) -> None:
    """A trace sink a save can name."""
    TRACED.append(line)


def test_a_traced_machine_writes_a_line_per_change_before_its_hook() -> None:
    lines: list[str] = []
    log: Log = []

    def sink(line: str) -> None:
        lines.append(line)
        log.append(("trace", line, ""))

    machine = BitmaskMachine(RULES, log, name="Hero", trace=TraceLevel.BASIC, trace_sink=sink)
    assert machine.try_activate(Base) and machine.try_activate(Mid) and machine.try_activate(Side)
    assert machine.try_activate(Strike)
    assert lines == [
        "BIT_1_Hero: +Base (requested)",
        "BIT_1_Hero: +Mid (requested)",
        "BIT_1_Hero: +Side (requested)",
        "BIT_1_Hero: -Side (terminated by Strike)",
        "BIT_1_Hero: -Mid (terminated by Strike)",
        "BIT_1_Hero: +Strike (requested)",
    ]
    assert log[:2] == [("trace", lines[0], ""), ("+", "Base", "REQUESTED")]  # line, then hook
    assert not machine.try_activate(Combo)  # refused: no change, no line
    quiet = BitmaskMachine(RULES, [], history_size=0, trace=TraceLevel.NONE, trace_sink=sink)
    quiet.try_activate(Base)
    assert len(lines) == 6


def test_a_trace_sink_that_raises_leaves_the_change_unmade() -> None:
    log: Log = []
    closed = [True]

    def sink(line: str) -> None:
        if closed[0]:
            raise OSError("the log file is closed")

    machine = BitmaskMachine(RULES, log, name="Hero", trace=TraceLevel.BASIC, trace_sink=sink)
    with pytest.raises(OSError, match="the log file is closed"):
        machine.try_activate(Base)
    assert (machine.mask, machine.history, log) == (0, (), [])  # as the core enters nothing
    closed[0] = False
    assert machine.try_activate(Base)
    assert log == [("+", "Base", "REQUESTED")]
    assert [change.seq for change in machine.history] == [1]


def test_without_a_sink_trace_lines_go_to_the_statetree_logger(
    caplog: pytest.LogCaptureFixture,
) -> None:
    machine = BitmaskMachine(RULES, [], trace=TraceLevel.DIAGNOSTIC)
    with caplog.at_level(logging.INFO, logger="statetree"):
        machine.try_activate(Base)
    assert [r.getMessage() for r in caplog.records] == ["BIT_2_Fighter: +Base (requested)"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"trace": 7}, "a trace level is one of TraceLevel.NONE"),
        ({"trace": "BASIC"}, "a trace level is one of TraceLevel.NONE"),
        ({"trace_sink": "print"}, "trace_sink must be callable"),
    ],
)
def test_wrong_trace_options_are_usage_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        BitmaskMachine(RULES, [], **options)  # type: ignore[arg-type]


def test_a_saved_machine_keeps_tracing_to_its_sink() -> None:
    machine = BitmaskMachine(
        RULES, [], name="Hero", trace=TraceLevel.BASIC, trace_sink=trace_to_list
    )
    machine.try_activate(Base)
    loaded = pickle.loads(pickle.dumps(machine))
    TRACED.clear()
    loaded.try_activate(Mid)
    assert TRACED == ["BIT_1_Hero: +Mid (requested)"]
    untraced = pickle.loads(pickle.dumps(BitmaskMachine(RULES, [])))
    untraced.try_activate(Base)
    assert TRACED == ["BIT_1_Hero: +Mid (requested)"]


def test_a_trace_sink_may_read_the_machine_but_not_change_it() -> None:
    seen: list[tuple[str, ...]] = []

    def meddling(line: str) -> None:
        seen.append(machine.active_states)
        machine.try_activate(Mid)

    machine = BitmaskMachine(RULES, [], trace=TraceLevel.BASIC, trace_sink=meddling)
    with pytest.raises(ReentrantRequestError, match="called from the trace sink"):
        machine.try_activate(Base)
    # The sink saw the change it traced; raising, it left the change unmade (as any sink).
    assert seen == [("Base",)] and machine.active_states == ()
