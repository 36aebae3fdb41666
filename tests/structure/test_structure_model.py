"""The Structure model: plain data any producer can build, with depths computed from edges."""

from __future__ import annotations

import dataclasses

import pytest

import statetree as st
from statetree.structure import Edge, Location, StateInfo, Structure

SIBLING = st.TransitionKind.SIBLING
INNER = st.TransitionKind.INNER
ENTRY = st.TransitionKind.INNER_ENTRY


def chart() -> Structure:
    """A declared (not derived) machine: Alive{Locomotion{Stand, Move}, Jump}, Dead."""
    return Structure.from_names(
        "Alive",
        [
            ("Alive", "Dead", SIBLING),
            ("Alive", "Locomotion", ENTRY),
            ("Locomotion", "Jump", SIBLING),
            ("Jump", "Locomotion", SIBLING),
            ("Locomotion", "Stand", ENTRY),
            ("Stand", "Move", SIBLING),
            ("Move", "Stand", SIBLING),
        ],
    )


def test_from_names_lists_states_in_order_of_appearance() -> None:
    assert chart().names == ("Alive", "Dead", "Locomotion", "Jump", "Stand", "Move")


def test_depths_follow_inner_edges_and_siblings_keep_them() -> None:
    structure = chart()

    assert {name: structure.depth(name) for name in structure.names} == {
        "Alive": 0,
        "Dead": 0,
        "Locomotion": 1,
        "Jump": 1,
        "Stand": 2,
        "Move": 2,
    }


def test_a_state_pushed_at_two_depths_has_both() -> None:
    structure = Structure.from_names(
        "A", [("A", "Anim", INNER), ("A", "B", ENTRY), ("B", "Anim", ENTRY)]
    )

    assert structure.depths("Anim") == {1, 2}
    assert structure.depth("Anim") == 1


def test_unreachable_states_have_no_depth() -> None:
    structure = Structure.from_names("A", [], states=["Orphan"])

    assert structure.depth("Orphan") is None
    assert structure.depths("Orphan") == frozenset()


def test_a_cycle_through_inner_edges_has_no_depth_bound() -> None:
    structure = Structure.from_names("A", [("A", "B", INNER), ("B", "A", SIBLING)])

    assert structure.nesting_cycles == {"A", "B"}
    assert structure.depths("A") == {0, 1}  # listed up to the number of states


def test_repeated_edges_are_kept_once_and_stay_overridable() -> None:
    structure = Structure(
        "A",
        (StateInfo("A"), StateInfo("B")),
        (Edge("A", "B", SIBLING), Edge("A", "B", SIBLING, overridable=True)),
    )

    assert structure.edges == (Edge("A", "B", SIBLING),)
    assert structure.edges[0].overridable


def test_edges_compare_by_source_target_and_kind_only() -> None:
    here = Edge("A", "B", SIBLING, location=Location("a.py", 3))

    assert here == Edge("A", "B", SIBLING)
    assert here != Edge("A", "B", INNER)
    assert str(here) == "A -> B (sibling)"


def test_structures_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        chart().initial = "Dead"  # type: ignore[misc]


def test_two_states_with_one_name_are_rejected() -> None:
    with pytest.raises(st.DefinitionError, match="two states named 'A'"):
        Structure("A", (StateInfo("A"), StateInfo("A")), ())


def test_an_initial_state_that_is_not_a_state_is_rejected() -> None:
    with pytest.raises(st.DefinitionError, match="initial state 'X' is not one of"):
        Structure("X", (StateInfo("A"),), ())


def test_asking_for_an_unknown_state_names_it() -> None:
    with pytest.raises(st.UsageError, match="no state named 'Nope'"):
        chart().state("Nope")


def test_queries_by_endpoint() -> None:
    structure = chart()

    assert [str(e) for e in structure.edges_from("Locomotion")] == [
        "Locomotion -> Jump (sibling)",
        "Locomotion -> Stand (inner_entry)",
    ]
    assert [e.source for e in structure.edges_to("Locomotion")] == ["Alive", "Jump"]
    assert "Move" in structure
    assert "Run" not in structure
    assert structure.state("Move").short_name == "Move"


def test_observed_edges_are_compared_with_the_prediction() -> None:
    structure = chart()
    observed = [
        Edge("Alive", "Locomotion", ENTRY),
        Edge("Stand", "Crouch", SIBLING),
        Edge("Stand", "Crouch", SIBLING),
    ]

    assert structure.unpredicted(observed) == (Edge("Stand", "Crouch", SIBLING),)
    assert Edge("Alive", "Dead", SIBLING) in structure.unobserved(observed)
    assert Edge("Alive", "Locomotion", ENTRY) not in structure.unobserved(observed)
