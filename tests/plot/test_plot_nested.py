"""The nested layout: a statechart, each state's children inside it (exact text)."""

from __future__ import annotations

from pathlib import Path

from plot_samples import K

from statetree.chart import chart_structure, from_data
from statetree.plot import render
from statetree.plot.nested import nested_to_dot, nesting
from statetree.structure import Edge, StateInfo, Structure

DOOR = chart_structure(
    from_data(
        {
            "version": 1,
            "name": "Door",
            "root": {
                "name": "Door",
                "states": [
                    {
                        "name": "Closed",
                        "policy": "priority",
                        "transitions": [{"on": {"input": "Open"}, "to": "Open"}],
                        "states": [{"name": "Locked", "pre": {"held": "Key"}}, {"name": "Shut"}],
                    },
                    {
                        "name": "Open",
                        "policy": "sequential",
                        "states": [{"name": "Swing", "post": {"event": "Done"}}, {"name": "Still"}],
                    },
                ],
            },
        }
    )
)

# A dot enters an explicit or sequential state's first child, a diamond chooses a priority
# state's child; a sequence moves on from the child before; sibling transitions run between
# the boxes' borders; every state and drawn transition has its id.
DOOR_DOT = (Path(__file__).parent / "door_nested.dot").read_text()


def test_a_chart_gives_exactly_this_statechart() -> None:
    active = ["Door", "Door.Closed", "Door.Closed.Shut"]
    assert nested_to_dot(DOOR, active=active) == DOOR_DOT


def test_the_tree_follows_the_places_of_the_states() -> None:
    tree = nesting(DOOR)

    assert tree is not None
    assert tree.top == ("Door",)
    assert tree.inside == {
        "Door": ("Door.Closed", "Door.Open"),
        "Door.Closed": ("Door.Closed.Locked", "Door.Closed.Shut"),
        "Door.Open": ("Door.Open.Swing", "Door.Open.Still"),
    }
    assert tree.regions == frozenset()


def test_regions_are_dashed_boxes_and_their_entries_are_not_drawn() -> None:
    structure = Structure.from_names(
        "Lit",
        [
            ("Lit", "Flame", K.CONCURRENT),
            ("Lit", "Heat", K.CONCURRENT),
            ("Flame", "Steady", K.INNER_ENTRY),
            ("Steady", "Flicker", K.SIBLING),
        ],
    )
    dot = nested_to_dot(structure)

    assert dot is not None
    assert 'graph [id="state:Flame", label="Flame", style="rounded,filled,dashed"' in dot
    assert '"Heat" [id="state:Heat", label="Heat"' in dot
    assert "link:Lit->Flame" not in dot and "link:Lit->Heat" not in dot
    assert '"Steady" -> "Flicker" [id="link:Steady->Flicker", style=dotted];' in dot


def test_a_state_in_two_places_has_only_the_books_layout() -> None:
    shared = Structure.from_names(
        "A", [("A", "B", K.INNER_ENTRY), ("A", "C", K.SIBLING), ("C", "B", K.INNER_ENTRY)]
    )
    inside_itself = Structure.from_names("A", [("A", "A", K.INNER)])

    assert nesting(shared) is None
    assert nested_to_dot(shared) is None
    assert nested_to_dot(inside_itself) is None


def test_an_unreachable_state_is_drawn_dashed_outside_every_box() -> None:
    structure = Structure.from_names("A", [("A", "B", K.INNER_ENTRY)], states=["Lost"])
    tree = nesting(structure)

    assert tree is not None and tree.top == ("A", "Lost")
    dot = nested_to_dot(structure)
    assert dot is not None
    dashed = 'fillcolor="#ffffff", fontcolor="#1f1a14", style="rounded,filled,dashed"'
    assert f'"Lost" [id="state:Lost", label="Lost", {dashed}];' in dot


def test_graphviz_draws_it_with_the_ids_tools_look_for() -> None:
    svg = render(DOOR_DOT, "svg").decode()

    for found in ("state:Door", "state:Door.Closed.Shut", "link:Door.Open&#45;&gt;Door.Open.Still"):
        assert f'id="{found}"' in svg


def test_a_target_that_is_no_state_is_drawn_as_unknown() -> None:
    edges = (Edge("A", "B", K.INNER_ENTRY), Edge("B", "Typo", K.SIBLING))
    structure = Structure("A", (StateInfo("A"), StateInfo("B")), edges)

    dot = nested_to_dot(structure)

    assert (
        '"Typo" [id="state:Typo", label="Typo (unknown)", fillcolor="#ffffff", '
        'fontcolor="#b42318", style="rounded,filled,dashed", color="#b42318"];'
    ) in dot
    assert '"B" -> "Typo" [id="link:B->Typo", style=dotted];' in dot
