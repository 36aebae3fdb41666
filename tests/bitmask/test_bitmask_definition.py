"""Rule sets are validated and compiled when defined; every bad rule names its states."""

from __future__ import annotations

import re

import numpy as np
import pytest

from statetree.bitmask import (
    BitmaskDefinition,
    BitmaskMachine,
    BitState,
    DuplicateStateError,
    NoSuchStateError,
    RequirementCycleError,
    RuleConflictError,
    SelfReferenceError,
    StateDataError,
    StateRule,
    UnknownStateError,
)
from statetree.errors import DefinitionError, UsageError


class Alive(BitState[None]):
    pass


class Aiming(BitState[None]):
    requires = (Alive,)
    blocked_by = ("InDialogue",)


class Shooting(BitState[None]):
    requires = ("Aiming",)


class InDialogue(BitState[None]):
    requires = (Alive,)
    terminates = (Aiming,)


def data(**rules: dict) -> dict:
    return {name: rule for name, rule in rules.items()}


def test_classes_and_data_compile_to_the_same_masks() -> None:
    from_classes = BitmaskDefinition.from_classes([Alive, Aiming, Shooting, InDialogue])
    from_data = BitmaskDefinition.from_data(
        [
            {"name": "Alive"},
            {"name": "Aiming", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
            {"name": "Shooting", "requires": ["Aiming"]},
            {"name": "InDialogue", "requires": ["Alive"], "terminates": ["Aiming"]},
        ]
    )
    for definition in (from_classes, from_data):
        assert definition.names == ("Alive", "Aiming", "Shooting", "InDialogue")
        assert definition.requires == (0, 0b0001, 0b0010, 0b0001)
        assert definition.requires_all == (0, 0b0001, 0b0011, 0b0001)
        assert definition.dependents_all == (0b1110, 0b0100, 0, 0)
        assert definition.terminates_all == (0, 0, 0, 0b0110)
        assert definition.blocked_by == (0, 0b1000, 0, 0)
        assert definition.exclusive == (0, 0b1000, 0b1000, 0b0110)
        assert definition.teardown_order == (3, 2, 1, 0)
    assert from_classes.index_of(Shooting) == from_classes.index_of("Shooting") == 2


def test_teardown_order_puts_dependents_first_then_later_declared_first() -> None:
    definition = BitmaskDefinition.from_data(
        data(Top={"requires": ["Base"]}, Base={}, Other={}, Leaf={"requires": ["Top"]})
    )
    assert [definition.names[i] for i in definition.teardown_order] == [
        "Leaf",
        "Other",
        "Top",
        "Base",
    ]


def test_mapping_and_list_forms_and_byte_lengths() -> None:
    for count, length, words in ((1, 1, 1), (8, 1, 1), (9, 2, 1), (64, 8, 1), (65, 9, 2)):
        definition = BitmaskDefinition.from_data({f"S{i}": {} for i in range(count)})
        assert (definition.size, definition.byte_length, definition.word_count) == (
            count,
            length,
            words,
        )


def test_duplicate_names() -> None:
    with pytest.raises(DuplicateStateError) as caught:
        BitmaskDefinition.from_data([{"name": "A"}, {"name": "B"}, {"name": "A"}])
    assert str(caught.value) == (
        "state 'A' is defined twice (positions 0 and 2); state names must be unique"
    )
    assert isinstance(caught.value, DefinitionError)


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(UnknownStateError) as caught:
        BitmaskDefinition.from_data(data(Aiming={}, Shooting={"requires": ["Aimng"]}))
    assert str(caught.value) == (
        "Shooting.requires names 'Aimng', which is not a defined state; did you mean 'Aiming'?"
    )
    assert (caught.value.state, caught.value.rule, caught.value.missing) == (
        "Shooting",
        "requires",
        "Aimng",
    )


def test_class_outside_the_definition_is_unknown() -> None:
    with pytest.raises(UnknownStateError) as caught:
        BitmaskDefinition.from_classes([Aiming, InDialogue])
    assert str(caught.value) == "Aiming.requires names 'Alive', which is not a defined state"


def test_requires_and_terminates_the_same_state() -> None:
    with pytest.raises(RuleConflictError) as caught:
        BitmaskDefinition.from_data(data(A={}, B={"requires": ["A"], "terminates": ["A"]}))
    assert str(caught.value) == (
        "B requires A but also terminates it, so B could never stay active"
    )


def test_blocked_by_an_indirect_requirement_names_the_path() -> None:
    rules = data(A={}, B={"requires": ["A"]}, C={"requires": ["B"], "blocked_by": ["A"]})
    with pytest.raises(RuleConflictError) as caught:
        BitmaskDefinition.from_data(rules)
    assert str(caught.value) == (
        "C requires A (through C -> B -> A) but also is blocked by it, so C could never stay active"
    )
    assert caught.value.path == ("C", "B", "A")


def test_requirement_cycle_names_the_cycle() -> None:
    rules = data(
        Free={}, A={"requires": ["Free", "B"]}, B={"requires": ["C"]}, C={"requires": ["A"]}
    )
    with pytest.raises(RequirementCycleError) as caught:
        BitmaskDefinition.from_data(rules)
    assert str(caught.value) == (
        "requirement cycle: A -> B -> C -> A; a state cannot require itself"
    )


def test_a_state_requiring_itself_is_a_cycle() -> None:
    with pytest.raises(RequirementCycleError, match=re.escape("requirement cycle: A -> A;")):
        BitmaskDefinition.from_data(data(A={"requires": ["A"]}))


@pytest.mark.parametrize(
    ("rule", "advice"),
    [
        ("terminates", "to make activating it again restart it, declare retriggerable = True"),
        ("blocked_by", "an active state never activates again unless it is retriggerable"),
    ],
)
def test_self_reference(rule: str, advice: str) -> None:
    with pytest.raises(SelfReferenceError) as caught:
        BitmaskDefinition.from_data(data(A={rule: ["A"]}))
    assert str(caught.value) == f"A lists itself in {rule}; {advice}"


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ([], "a bitmask definition needs at least one state"),
        ("A", "state data must be a list or a mapping, not str"),
        ([{"requires": []}], "state #0: 'name' must be a non-empty string"),
        ([["A"]], "state #0: expected a mapping of rules, not ['A']"),
        (
            {"A": {"requries": []}},
            "state 'A': unknown key 'requries' (allowed: blocked_by, name, "
            "predictable, requires, retriggerable, terminates)",
        ),
        ({"A": {"requires": "B"}}, "A.requires must be a list of states, not str 'B'"),
        ({"A": {"requires": [1]}}, "A.requires contains 1; expected a state name"),
        ({"A": {"retriggerable": "yes"}}, "A.retriggerable must be true or false, not 'yes'"),
        ({"A": {"name": "B"}}, "state 'A': its 'name' field says 'B'"),
    ],
)
def test_malformed_data(bad: object, message: str) -> None:
    with pytest.raises(StateDataError) as caught:
        BitmaskDefinition.from_data(bad)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_malformed_classes() -> None:
    class Loose(BitState[None]):
        requires = "Alive"  # type: ignore[assignment]

    with pytest.raises(StateDataError, match=r"^Loose.requires must be a list of states, not str"):
        BitmaskDefinition.from_classes([Alive, Loose])
    with pytest.raises(StateDataError, match=r"^<class 'int'> is not a subclass of BitState$"):
        BitmaskDefinition.from_classes([Alive, int])  # type: ignore[list-item]


def test_behaviour_classes_for_data_must_not_declare_rules() -> None:
    with pytest.raises(StateDataError) as caught:
        BitmaskDefinition.from_data(data(Alive={}, Aiming={}), behaviours={"Aiming": Aiming})
    assert str(caught.value) == (
        "behaviour class Aiming for Aiming declares 'requires'; "
        "the rules of a data-defined state come from the data alone"
    )
    with pytest.raises(UnknownStateError) as unknown:
        BitmaskDefinition.from_data(data(Alive={}), behaviours={"Ghost": BitState})
    assert str(unknown.value) == "a key of behaviours names 'Ghost', which is not a defined state"
    with pytest.raises(UnknownStateError) as close:
        BitmaskDefinition.from_data(data(Alive={}, Burnin={}), behaviours={"Burning": BitState})
    assert str(close.value) == (
        "a key of behaviours names 'Burning', which is not a defined state; did you mean 'Burnin'?"
    )


def test_shared_behaviour_class_is_looked_up_by_name_only() -> None:
    class Logged(BitState[None]):
        pass

    definition = BitmaskDefinition.from_data(
        data(A={}, B={}, C={}), behaviours={"A": Logged, "B": Logged}
    )
    assert definition.index_of("B") == 1
    with pytest.raises(NoSuchStateError) as caught:
        definition.index_of(Logged)
    assert str(caught.value).endswith("is not a state of this definition (states: A, B, C)")
    assert isinstance(caught.value, UsageError)


def test_from_rules_and_pure_activation_results() -> None:
    definition = BitmaskDefinition.from_rules(
        [
            StateRule("Alive"),
            StateRule("Punching", requires=("Alive",), retriggerable=True),
            StateRule("Guard", requires=("Alive",), terminates=("Punching",)),
        ],
        name="Fighter",
    )
    assert repr(definition) == "BitmaskDefinition('Fighter', 3 states)"
    assert definition.activation_result(0, 1) is None
    assert definition.activation_result(0b001, 1) == 0b011
    assert definition.activation_result(0b011, 1) == 0b011
    assert definition.activation_result(0b011, 2) == 0b101
    assert definition.deactivation_result(0b011, 0) == 0
    assert definition.deactivation_result(0b001, 2) is None
    assert definition.mask_of(["Alive", "Guard"]) == 0b101
    assert definition.names_in(0b110) == ("Punching", "Guard")
    assert definition.names_in(np.uint64(0b101)) == ("Alive", "Guard")
    for wrong in (-1, 0b1000, 0.5, True, "3"):
        with pytest.raises(UsageError) as refused:
            definition.names_in(wrong)  # type: ignore[arg-type]
        assert str(refused.value) == (
            f"names_in() of bitmask 'Fighter' takes a mask of its 3 state bits (0 to 7), "
            f"got {wrong!r}"
        )


def test_from_rules_reads_any_iterable_of_names_once() -> None:
    rules = (
        StateRule(name, requires=iter(needs))  # type: ignore[arg-type]
        for name, needs in (("Alive", ()), ("Aiming", ["Alive"]), ("Shooting", {"Aiming"}))
    )
    definition = BitmaskDefinition.from_rules(rules)
    assert definition.names == ("Alive", "Aiming", "Shooting")
    assert [rule.requires for rule in definition.rules] == [(), ("Alive",), ("Aiming",)]
    assert definition.requires_all == (0, 0b001, 0b011)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (
            [StateRule("Punch", retriggerable="no")],  # type: ignore[arg-type]
            "Punch.retriggerable must be true or false, not 'no'",
        ),
        (
            [StateRule("Alive"), StateRule("Aim", requires="Alive")],  # type: ignore[arg-type]
            "Aim.requires must be a list of states, not str 'Alive'",
        ),
        (
            [StateRule("Alive"), StateRule("Aim", terminates=[Alive])],  # type: ignore[list-item]
            f"Aim.terminates contains {Alive!r}; expected a state name",
        ),
        (
            [StateRule("Aim", blocked_by=None)],  # type: ignore[arg-type]
            "Aim.blocked_by must be a list of states, not NoneType None",
        ),
        ([StateRule("Alive"), StateRule(3)], "rule #1: name must be a non-empty string, not 3"),  # type: ignore[arg-type]
        ([StateRule("")], "rule #0: name must be a non-empty string, not ''"),
        ([{"name": "Alive"}], "rule #0: expected a StateRule, not {'name': 'Alive'}"),
        (
            [StateRule("Alive", behaviour=int)],  # type: ignore[arg-type]
            "behaviour for Alive must be a BitState subclass, not <class 'int'>",
        ),
        (
            "Alive",
            "BitmaskDefinition.from_rules: rules must be a list of StateRule, not str 'Alive'",
        ),
        (
            None,
            "BitmaskDefinition.from_rules: rules must be a list of StateRule, not NoneType None",
        ),
    ],
)
def test_from_rules_refuses_what_the_readers_refuse(rules: object, message: str) -> None:
    with pytest.raises(StateDataError) as caught:
        BitmaskDefinition.from_rules(rules)  # type: ignore[arg-type]
    assert str(caught.value) == message


class Stunned(BitState):
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


class Calm(BitState):
    def __init__(self, mood: str = "calm") -> None:
        self.mood = mood


def test_a_behaviour_whose_init_takes_arguments_is_refused_by_every_reader() -> None:
    message = (
        "Stunned.__init__ (the behaviour of Stunned) takes arguments, but a machine makes its "
        "states without any: set what a state needs in on_activated, or on the machine's owner"
    )
    readers = [
        lambda: BitmaskDefinition.from_classes([Stunned]),
        lambda: BitmaskDefinition.from_rules([StateRule("Stunned", behaviour=Stunned)]),
        lambda: BitmaskDefinition.from_data([{"name": "Stunned"}], behaviours={"Stunned": Stunned}),
    ]
    for read in readers:
        with pytest.raises(StateDataError) as caught:
            read()
        assert str(caught.value) == message
    calm = BitmaskDefinition.from_classes([Calm])  # arguments with defaults are fine
    assert BitmaskMachine(calm).states[0].mood == "calm"  # type: ignore[attr-defined]


def test_from_classes_reads_any_iterable_of_classes_once() -> None:
    definition = BitmaskDefinition.from_classes(cls for cls in (Alive, Aiming, InDialogue))
    assert definition.names == ("Alive", "Aiming", "InDialogue")
    assert definition.index_of(InDialogue) == 2
    for wrong, shown in ((None, "NoneType None"), ("AB", "str 'AB'"), (Alive, f"type {Alive!r}")):
        with pytest.raises(StateDataError) as caught:
            BitmaskDefinition.from_classes(wrong)  # type: ignore[arg-type]
        assert str(caught.value) == (
            f"BitmaskDefinition.from_classes: states must be a list of BitState subclasses, "
            f"not {shown}"
        )
