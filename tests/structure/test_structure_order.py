"""Declared child order: the decorators, the places of a structure in that order, what
validate() says about orders that do not match (or are not declared for networked machines),
and plots following it."""

from __future__ import annotations

from typing import Any

import pytest

import statetree as st
from statetree import net
from statetree.chart import chart_structure, from_data
from statetree.errors import DefinitionError
from statetree.plot import build_diagram
from statetree.structure import Place, Structure, children, derive, outermost


class Owner:
    flag = False


class Written:
    """Alive's transitions name Jump before Locomotion; the declaration says otherwise."""

    @outermost("Alive", "Dead")
    @children("Locomotion", "Jump")
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner.flag:
                return st.inner(Written.Jump)
            if self.owner.flag:
                return st.sibling(Written.Dead)
            return st.inner_entry(Written.Locomotion)

    class Dead(st.State[Owner]):
        pass

    class Jump(st.State[Owner]):
        pass

    class Locomotion(st.State[Owner]):
        pass


class Derived:
    """The same machine with nothing declared."""

    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner.flag:
                return st.inner(Derived.Jump)
            if self.owner.flag:
                return st.sibling(Derived.Dead)
            return st.inner_entry(Derived.Locomotion)

    class Dead(st.State[Owner]):
        pass

    class Jump(st.State[Owner]):
        net_fields = (net.UInt(4),)

        def on_enter(self, height: int) -> None:
            self.height = height

        def net_payload(self) -> tuple[int]:
            return (self.height,)

    class Locomotion(st.State[Owner]):
        pass


def test_a_declared_order_wins_over_the_order_the_code_is_written_in() -> None:
    declared, derived = derive(Written.Alive), derive(Derived.Alive)
    assert declared.children == {"Written.Alive": ("Written.Locomotion", "Written.Jump")}
    assert declared.outermost == ("Written.Alive", "Written.Dead")
    assert declared.places.inside["Written.Alive"] == Place(
        "Written.Alive", None, ("Written.Locomotion", "Written.Jump"), True
    )
    assert derived.places.inside["Derived.Alive"] == Place(
        "Derived.Alive", None, ("Derived.Jump", "Derived.Locomotion"), False
    )
    assert str(declared.places.top) == "the top"
    assert str(declared.places.inside["Written.Alive"]) == "inside Written.Alive"


def test_the_states_follow_the_declared_order_and_so_do_plots() -> None:
    declared, derived = derive(Written.Alive), derive(Derived.Alive)
    assert derived.names == ("Derived.Alive", "Derived.Jump", "Derived.Dead", "Derived.Locomotion")
    assert declared.names == (
        "Written.Alive",
        "Written.Locomotion",
        "Written.Dead",
        "Written.Jump",
    )
    nodes = [node.key for node in build_diagram(declared).nodes]
    assert nodes.index("Written.Locomotion") < nodes.index("Written.Jump")


def test_region_places_follow_their_hosts_order() -> None:
    bare = Structure.from_names(
        "Host",
        [
            ("Host", "Top", st.TransitionKind.CONCURRENT),
            ("Host", "Low", st.TransitionKind.CONCURRENT),
            ("Top", "Other", st.TransitionKind.SIBLING),
        ],
    )
    declared = Structure(
        "Host", bare.states, bare.edges, (), {"Host": ("Low", "Other", "Top")}, ("Host",)
    )
    assert [(str(p), p.states) for p in declared.places.all()] == [
        ("the top", ("Host",)),
        ("region 0 of Host", ("Other", "Top")),
        ("region 1 of Host", ("Low",)),
    ]


def test_decorators_refuse_what_cannot_be_an_order() -> None:
    cases: list[tuple[Any, str]] = [
        (children, r"^@children\(\) needs the states in order, e.g. @children\(A, B\)$"),
        (lambda: children("A", "A"), r"^@children\(\.\.\.\) lists A more than once$"),
        (lambda: outermost(3), r"^@outermost\(\.\.\.\): 3 is neither a State subclass nor a"),
        (lambda: children("A")(int), r"^@children\(\.\.\.\) decorates State subclasses; int is"),
    ]
    for make, message in cases:
        with pytest.raises(DefinitionError, match=message):
            make()


def issues(structure: Structure) -> list[str]:
    return [f"{i.severity.value} {i.code}: {i.message}" for i in structure.validate().issues]


def test_a_declared_order_that_does_not_match_is_an_error() -> None:
    bare = Structure.from_names(
        "A", [("A", "B", st.TransitionKind.INNER), ("B", "C", st.TransitionKind.SIBLING)]
    )
    wrong = Structure("A", bare.states, bare.edges, (), {"A": ("B", "Typo")}, ("A", "Z"))
    assert issues(wrong) == [
        "error child-order: the outermost states are declared as (A, Z): Z is not a state of "
        "this machine",
        "error child-order: the children of A are declared as (B, Typo): C can be there too, "
        "so list it; Typo is not a state of this machine",
    ]


def test_a_declared_state_no_transition_puts_there_is_a_warning() -> None:
    bare = Structure.from_names(
        "A",
        [("A", "B", st.TransitionKind.INNER), ("A", "D", st.TransitionKind.SIBLING)],
        states=["Lost"],
    )
    declared = {"A": ("B", "D", "Lost")}
    loose = Structure("A", bare.states, bare.edges, (), declared, ("A", "D"))
    assert issues(loose) == [
        "warning unreachable: Lost is not reachable from the initial state A",
        "warning child-order-unused: the children of A are declared as (B, D, Lost), but no "
        "transition puts D there: it takes no index",
    ]
    assert loose.places.inside["A"].states == ("B",)
    assert loose.places.problem("A") is None  # nothing a codec cannot number


def test_a_networked_machine_relying_on_the_derived_order_gets_a_warning() -> None:
    networked = (
        "follows the order the code is written in; this machine is networked (Derived.Jump "
        "declares net_fields), so a refactor would change its packets: declare it with"
    )
    assert issues(derive(Derived.Alive)) == [
        f"warning derived-order: the order of Derived.Alive, Derived.Dead at the top {networked} "
        '@outermost("Alive", "Dead") on the initial state Derived.Alive',
        "warning derived-order: the order of Derived.Jump, Derived.Locomotion inside "
        f'Derived.Alive {networked} @children("Jump", "Locomotion") on Derived.Alive',
    ]
    assert issues(derive(Written.Alive)) == []  # declared (and not networked anyway)


def test_a_chart_declares_the_order_it_lists_its_states_in() -> None:
    chart = from_data(
        {
            "name": "Duo",
            "root": {
                "name": "Hero",
                "states": [
                    {"name": "Walk", "transitions": [{"on": {"input": "Stop"}, "to": "Idle"}]},
                    {"name": "Idle"},
                ],
            },
        }
    )
    structure = chart_structure(chart)
    assert structure.children == {"Hero": ("Hero.Walk", "Hero.Idle")}
    assert structure.outermost == ("Hero",)
    assert all(place.declared for place in structure.places.all())
