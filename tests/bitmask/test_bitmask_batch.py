"""The batch form over NumPy arrays agrees with single machines, beyond 64 states too."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest
from bitmask_strategies import definition_data, requests
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from statetree.bitmask import BitmaskBatch, BitmaskDefinition, BitmaskMachine, BitState
from statetree.errors import DecodeError, UsageError


def check_agreement(rules: list[dict], stream: list, entities: int) -> None:
    definition = BitmaskDefinition.from_data(rules)
    machines = [BitmaskMachine(definition) for _ in range(entities)]
    expected = [
        machines[e].try_activate(name) if on else machines[e].deactivate(name)
        for e, name, on in stream
    ]
    batch = BitmaskBatch(definition, entities)
    done = batch.apply(
        [e for e, _, _ in stream],
        [definition.index_of(name) for _, name, _ in stream],
        [on for _, _, on in stream],
    )
    assert done.tolist() == expected
    assert [batch.mask_of(e) for e in range(entities)] == [m.mask for m in machines]


@settings(max_examples=examples(150), deadline=None)
@given(st.data())
def test_batch_agrees_with_single_machines(data: st.DataObject) -> None:
    rules = data.draw(definition_data())
    entities = data.draw(st.integers(1, 6))
    stream = data.draw(requests([r["name"] for r in rules], entities, max_size=60))
    check_agreement(rules, stream, entities)


@settings(max_examples=examples(25), deadline=None)
@given(st.data())
def test_batch_agrees_beyond_64_states(data: st.DataObject) -> None:
    rules = data.draw(definition_data(min_states=65, max_states=150))
    entities = data.draw(st.integers(1, 4))
    stream = data.draw(requests([r["name"] for r in rules], entities, max_size=80))
    check_agreement(rules, stream, entities)


def wide_chain(count: int) -> BitmaskDefinition:
    return BitmaskDefinition.from_data(
        [{"name": "S0"}]
        + [{"name": f"S{i}", "requires": [f"S{i - 1}"]} for i in range(1, count)]
        + [{"name": "Reset", "terminates": ["S0"]}]
    )


def test_a_chain_across_three_words_activates_and_collapses() -> None:
    definition = wide_chain(150)
    batch = BitmaskBatch(definition, 3)
    assert batch.masks.shape == (3, 3)
    for i in range(150):
        batch.try_activate(f"S{i}", [0, 2])
    assert batch.mask_of(0) == batch.mask_of(2) == (1 << 150) - 1
    assert batch.is_active("S149").tolist() == [True, False, True]
    assert batch.try_activate("Reset", [2]).tolist() == [True]
    assert batch.mask_of(2) == 1 << 150
    assert batch.deactivate("S70").tolist() == [True, False, False]
    assert batch.mask_of(0) == (1 << 70) - 1


def test_custom_checks_need_their_outcome_passed_in() -> None:
    class Cooldown(BitState[None]):
        def can_activate(self) -> bool:
            return False

    definition = BitmaskDefinition.from_data(
        {"Alive": {}, "Punch": {"requires": ["Alive"]}}, behaviours={"Punch": Cooldown}
    )
    batch = BitmaskBatch(definition, 4)
    batch.try_activate("Alive")
    with pytest.raises(UsageError) as caught:
        batch.try_activate("Punch")
    assert str(caught.value) == (
        "Punch has a custom can_activate() check that the batch cannot run; "
        "pass its outcome per request as allowed="
    )
    assert batch.is_active("Punch").tolist() == [False] * 4
    done = batch.try_activate("Punch", allowed=[True, False, True, False])
    assert done.tolist() == [True, False, True, False]
    assert batch.deactivate("Punch").tolist() == [True, False, True, False]


def test_requests_for_one_entity_apply_in_stream_order() -> None:
    definition = BitmaskDefinition.from_data(
        {"A": {}, "B": {"requires": ["A"]}, "C": {"terminates": ["A"]}}
    )
    batch = BitmaskBatch(definition, 2)
    done = batch.apply([1, 0, 1, 1, 0, 1], [0, 1, 1, 2, 0, 1], True)
    assert done.tolist() == [True, False, True, True, True, False]
    assert [batch.mask_of(0), batch.mask_of(1)] == [0b001, 0b100]


def test_bad_requests_are_refused_before_anything_changes() -> None:
    definition = wide_chain(3)
    batch = BitmaskBatch(definition, 2)
    batch.try_activate("S0")
    before = batch.masks.copy()
    with pytest.raises(UsageError, match=r"^entity 2 is out of range \(the batch has 2\)$"):
        batch.apply([0, 2], 1, True)
    with pytest.raises(UsageError, match=r"^state index 9 is out of range \(4 states"):
        batch.apply([0], [9], True)
    with pytest.raises(DecodeError, match=r"S2 is active but requires S1, which is not active"):
        batch.set_mask(0, 0b101)
    with pytest.raises(UsageError, match=r"^entity -1 is out of range"):
        batch.mask_of(-1)
    with pytest.raises(UsageError, match=r"^a batch holds a whole number of entities from 0 to"):
        BitmaskBatch(definition, -1)
    assert np.array_equal(batch.masks, before)
    with pytest.raises(ValueError, match="read-only"):
        batch.masks[0, 0] = 1
    with pytest.raises(DecodeError, match=r"a mask is an integer, got 3\.0$"):
        batch.set_mask(1, 3.0)  # type: ignore[arg-type]
    assert np.array_equal(batch.masks, before)
    batch.set_mask(1, 0b11)
    assert batch.mask_of(1) == 0b11
    batch.set_mask(0, batch.masks[1, 0])  # a NumPy integer read from the batch itself
    assert batch.mask_of(0) == 0b11
    assert repr(batch) == "<BitmaskBatch '' entities=2>"


def test_a_boolean_mask_names_entities_and_floats_are_refused() -> None:
    definition = BitmaskDefinition.from_data({"Alive": {}})
    batch = BitmaskBatch(definition, 4)

    done = batch.try_activate("Alive", np.array([False, False, False, True]))

    assert done.tolist() == [True]
    assert [batch.mask_of(i) for i in range(4)] == [0, 0, 0, 1]
    before = batch.masks.copy()
    for wrong, message in (
        ([1.9], "entities must be entity indexes (integers) or, for one state, a boolean mask; "
         "got float64 values"),
        (np.array([True, False]), "a mask of entities needs one entry per entity (4), got "
         "shape (2,)"),
    ):  # fmt: skip
        with pytest.raises(UsageError) as refused:
            batch.try_activate("Alive", wrong)
        assert str(refused.value) == message
    with pytest.raises(UsageError, match="got bool values"):
        batch.apply([True, False], 0, True)
    assert np.array_equal(batch.masks, before)


def test_importing_the_package_does_not_need_numpy() -> None:
    script = textwrap.dedent(
        """
        import sys
        sys.modules["numpy"] = None
        import statetree
        import statetree.bitmask
        from statetree.bitmask import *
        assert "numpy" not in [m for m, v in sys.modules.items() if v is not None]
        try:
            statetree.bitmask.BitmaskBatch
        except ImportError as error:
            print(error)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == (
        "statetree.bitmask.batch needs NumPy: install it with pip install 'statetree[batch]'"
    )


class Armed(BitState[None]):
    def can_activate(self) -> bool:
        return False


def test_allowed_is_read_for_states_with_a_check_only() -> None:
    definition = BitmaskDefinition.from_data(
        {"Alive": {}, "Shooting": {"requires": ["Alive"]}}, behaviours={"Shooting": Armed}
    )
    machine = BitmaskMachine(definition)
    batch = BitmaskBatch(definition, 2)
    # One allowed array for a mixed stream: Alive has no check, so False does not stop it.
    done = batch.apply([0, 1, 0, 1], [0, 0, 1, 1], True, allowed=[False, True, True, False])
    assert done.tolist() == [True, True, True, False]
    assert machine.try_activate("Alive")  # as the machine: Alive is not checked
    assert [batch.mask_of(0), batch.mask_of(1)] == [0b11, 0b01]


WRONG_CALLS = [
    ("states=1.5", lambda b: b.apply([0], 1.5, True), "states must be state indexes (integers)"),
    ("states='A'", lambda b: b.apply([0], "A", True), "states must be state indexes (integers)"),
    ("states=2**70", lambda b: b.apply([0], 2**70, True), "states must be state indexes"),
    ("activate=0.5", lambda b: b.apply([0], 0, 0.5), "activate must be booleans, got float64"),
    ("activate='False'", lambda b: b.apply([0], 0, "False"), "activate must be booleans"),
    ("allowed='x'", lambda b: b.apply([0], 0, True, allowed="x"), "allowed must be booleans"),
    (
        "states of 3 for 2",
        lambda b: b.apply([0, 1], [0, 0, 0], True),
        "states needs one value per request (2) or one for all, got shape (3,)",
    ),
    ("set_mask(True, 1)", lambda b: b.set_mask(True, 1), "an entity index is a whole number"),
    ("mask_of(1.5)", lambda b: b.mask_of(1.5), "an entity index is a whole number, got 1.5"),
    ("mask_of('1')", lambda b: b.mask_of("1"), "an entity index is a whole number, got '1'"),
    ("count 2.5", lambda b: BitmaskBatch(b.definition, 2.5), "a whole number of entities"),
    ("count 2**70", lambda b: BitmaskBatch(b.definition, 2**70), "a whole number of entities"),
    ("no definition", lambda b: BitmaskBatch(None, 3), "is built from a BitmaskDefinition"),
]


@pytest.mark.parametrize(("_", "call", "message"), WRONG_CALLS, ids=[c[0] for c in WRONG_CALLS])
def test_wrong_arguments_are_library_errors_and_change_nothing(
    _: str, call: Any, message: str
) -> None:
    batch = BitmaskBatch(wide_chain(3), 2)
    batch.try_activate("S0", [0])
    before = batch.masks.copy()
    with pytest.raises(UsageError) as refused:
        call(batch)
    assert message in str(refused.value)
    assert np.array_equal(batch.masks, before)
