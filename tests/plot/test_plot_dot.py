"""DOT output: the book's conventions, exact text, deterministic bytes."""

from __future__ import annotations

from collections.abc import Callable

import plot_samples
import pytest
from plot_samples import K

import statetree as st
from statetree.plot import PlotStyle, build_diagram, nested_to_dot, plot_text, to_dot, to_mermaid
from statetree.structure import Edge, StateInfo, Structure, derive

SMALL_DOT = """\
digraph "Root" {
  graph [fontname="Helvetica", nodesep=0.35, ranksep=0.55];
  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=12, color="#3d3d3d"];
  edge [fontname="Helvetica", fontsize=10, color="#3d3d3d"];
  "__root__" [shape=point, style=invis, width=0];
  "__start__" [shape=point, width=0.15, color="#3d3d3d", fillcolor="#3d3d3d"];
  "Root" [label="Root (0)", fillcolor="#5c4d3c", fontcolor="#ffffff"];
  "Other" [label="Other (0)", fillcolor="#5c4d3c", fontcolor="#ffffff"];
  "Anim" [label="Anim (2)", fillcolor="#9e876a", fontcolor="#ffffff"];
  subgraph "cluster_Loco" {
    label="Loco";
    style="rounded,dashed"; color="#3d3d3d";
    "Loco_Stand" [label="Loco_Stand (1)", fillcolor="#7d6a52", fontcolor="#ffffff"];
    "Loco_Move" [label="Loco_Move (1)", fillcolor="#7d6a52", fontcolor="#ffffff"];
  }
  "__start__" -> "Root" [arrowsize=0.7];
  "Root" -> "Other" [style=dotted, constraint=false];
  "Root" -> "Loco_Stand" [style=bold];
  "Loco_Stand" -> "Loco_Move" [style=dotted, constraint=false];
  "Loco_Move" -> "Anim" [style=solid];
  "__root__" -> "Root" [style=invis];
  "__root__" -> "Other" [style=invis];
  "Root" -> "Loco_Move" [style=invis];
}
"""


def test_small_machine_gives_exactly_this_dot() -> None:
    assert to_dot(plot_samples.small()) == SMALL_DOT


def test_one_root_needs_no_hidden_root() -> None:
    structure = Structure.from_names("A", [("A", "B", K.INNER_ENTRY)])

    assert "__root__" not in to_dot(structure)


def test_active_states_and_the_inner_links_between_them_are_highlighted() -> None:
    dot = to_dot(plot_samples.small(), active=["Root", "Loco_Move", "Anim"])

    active = 'fillcolor="#1f6feb", fontcolor="#ffffff", color="#0b3d91", penwidth=2'
    assert f'"Root" [label="Root (0)", {active}];' in dot
    assert f'"Anim" [label="Anim (2)", {active}];' in dot
    assert '"Loco_Move" -> "Anim" [style=solid, color="#1f6feb", penwidth=2];' in dot
    assert '"Root" -> "Loco_Stand" [style=bold];' in dot


def test_a_live_machine_stack_can_be_highlighted_directly() -> None:
    owner = plot_samples.Owner()
    machine = st.StateMachine(plot_samples.Hero.Alive, owner)
    owner.moving = True
    machine.process_state_transitions()

    dot = to_dot(derive(plot_samples.Hero.Alive), active=machine.stack)

    assert '"Hero.Move" [label="Move (1)", fillcolor="#1f6feb"' in dot
    assert '"Hero.Stand" [label="Stand (1)", fillcolor="#7d6a52"' in dot


def test_unreachable_and_unknown_states_are_dashed() -> None:
    structure = Structure(
        "A", (StateInfo("A"), StateInfo("Orphan")), (Edge("A", "Typo", K.SIBLING),)
    )

    dot = to_dot(structure)

    assert (
        '"Orphan" [label="Orphan (?)", fillcolor="#ffffff", fontcolor="#1f1a14", '
        'style="rounded,filled,dashed"];'
    ) in dot
    assert (
        '"Typo" [label="Typo (unknown)", fillcolor="#ffffff", fontcolor="#b42318", '
        'style="rounded,filled,dashed", color="#b42318"];'
    ) in dot


def test_states_at_several_depths_show_the_smallest_with_a_plus() -> None:
    structure = Structure.from_names(
        "A", [("A", "Anim", K.INNER), ("A", "B", K.INNER_ENTRY), ("B", "Anim", K.INNER)]
    )

    assert 'label="Anim (1+)"' in to_dot(structure)


def test_shared_short_names_fall_back_to_full_names() -> None:
    structure = Structure.from_names(
        "Hero.Stand", [("Hero.Stand", "Hero.Attack", K.SIBLING)], states=["Enemy.Attack"]
    )

    dot = to_dot(structure)

    assert 'label="Stand (0)"' in dot
    assert 'label="Hero.Attack (0)"' in dot
    assert 'label="Enemy.Attack (?)"' in dot


def test_overridable_transitions_are_labelled() -> None:
    structure = Structure(
        "A",
        (StateInfo("A"), StateInfo("B")),
        (Edge("A", "B", K.INNER_ENTRY, overridable=True),),
    )

    assert '"A" -> "B" [style=bold, label="override"];' in to_dot(structure)


def test_names_are_escaped() -> None:
    structure = Structure.from_names('say "hi"', [('say "hi"', "back\\slash", K.SIBLING)])

    dot = to_dot(structure)

    assert '"say \\"hi\\"" -> "back\\\\slash"' in dot
    assert 'digraph "say \\"hi\\"" {' in dot


def test_clusters_can_be_turned_off() -> None:
    assert "subgraph" not in to_dot(plot_samples.small(), style=PlotStyle(clusters=False))


def test_a_lone_prefix_makes_no_cluster() -> None:
    structure = Structure.from_names("Play", [("Play", "Play_Done", K.SIBLING)])

    assert "subgraph" not in to_dot(structure)


def test_same_machine_same_bytes() -> None:
    first = to_dot(derive(plot_samples.Hero.Alive))

    assert to_dot(derive(plot_samples.Hero.Alive)) == first


def test_concurrent_regions_are_dashed_edges_to_each_root() -> None:
    structure = Structure.from_names(
        "Body", [("Body", "Legs", K.CONCURRENT), ("Body", "Arms", K.CONCURRENT)]
    )

    dot = to_dot(structure)

    assert '"Body" -> "Legs" [style=dashed];' in dot
    assert '"Body" -> "Arms" [style=dashed];' in dot
    assert 'label="Arms (1)"' in dot


def test_labels_use_the_shortest_unambiguous_ending() -> None:
    structure = Structure.from_names(
        "Root",
        [
            ("Root", "Root.A1", K.INNER_ENTRY),
            ("Root.A1", "Root.A1.Pre", K.INNER_ENTRY),
            ("Root.A1", "Root.A2", K.SIBLING),
            ("Root.A2", "Root.A2.Pre", K.INNER_ENTRY),
        ],
    )
    labels = {node.key: node.label for node in build_diagram(structure).nodes}
    assert labels == {
        "Root": "Root (0)",
        "Root.A1": "A1 (1)",
        "Root.A2": "A2 (1)",
        "Root.A1.Pre": "A1.Pre (2)",
        "Root.A2.Pre": "A2.Pre (2)",
    }


def test_every_active_region_link_is_highlighted() -> None:
    structure = Structure.from_names(
        "Lit",
        [
            ("Lit", "Flame", K.CONCURRENT),
            ("Lit", "Heat", K.CONCURRENT),
            ("Flame", "Steady", K.INNER_ENTRY),
            ("Heat", "Warm", K.INNER_ENTRY),
        ],
    )
    active = ("Lit", "Flame", "Steady", "Heat", "Warm")
    lit = {
        (link.source, link.target) for link in build_diagram(structure, active).links if link.active
    }
    assert lit == {("Lit", "Flame"), ("Lit", "Heat"), ("Flame", "Steady"), ("Heat", "Warm")}


def test_a_plot_given_a_class_or_a_machine_says_to_derive_its_structure() -> None:
    class Lone(st.State):
        pass

    machine = st.StateMachine(Lone)
    plots = (to_dot, to_mermaid, nested_to_dot, lambda given: plot_text(given, "dot"))
    for draw in plots:
        for given in (Lone, machine):
            with pytest.raises(st.UsageError) as caught:
                draw(given)
            assert str(caught.value) == (
                f"a plot takes a Structure, got {given!r} ({type(given).__name__}): pass "
                "statetree.structure.derive(...) of a state class or a machine"
            )
        assert "Lone" in (draw(derive(machine)) or "")


def test_states_named_like_the_plots_own_points_are_drawn_as_states() -> None:
    structure = Structure.from_names(
        "Boot", [("Boot", "__start__", K.SIBLING), ("Boot", "__root__", K.SIBLING)]
    )

    for dot in (to_dot(structure), nested_to_dot(structure)):
        assert '"__start__" [label=' in dot or '"__start__" [id="state:__start__"' in dot
        assert '"__start___" [shape=point' in dot
        assert '"__start___" -> "Boot"' in dot
        assert '"__start__" [shape=point' not in dot
    flat = to_dot(structure)
    assert '"__root__" [label="__root__ (0)"' in flat
    assert '"__root___" [shape=point, style=invis' in flat


def mermaid_text(structure: object, **given: object) -> str:
    return plot_text(structure, "mmd", **given)  # type: ignore[arg-type]


PLOTS: tuple[Callable[..., object], ...] = (to_dot, to_mermaid, nested_to_dot, mermaid_text)


def test_active_states_must_be_a_collection_of_states() -> None:
    machine = st.StateMachine(plot_samples.Hero.Alive, plot_samples.Owner())
    structure = derive(plot_samples.Hero.Alive)
    for draw in PLOTS:
        for given in (None, machine, "Hero.Alive", plot_samples.Hero.Alive):
            with pytest.raises(st.UsageError) as caught:
                draw(structure, active=given)
            assert str(caught.value) == (
                "active takes the states to highlight: names, state classes, machine.stack or "
                f"a bitmask machine's active_states; got {given!r} ({type(given).__name__})"
            )


def test_an_active_state_must_be_one_of_the_structure() -> None:
    class Elsewhere(st.State[plot_samples.Owner]):
        pass

    other = st.StateMachine(Elsewhere, plot_samples.Owner())
    other.process_state_transitions()
    cases = [
        (
            ["Root", "Loco_Mov"],
            "'Loco_Mov', which is no state of the structure of 'Root'; did you mean 'Loco_Move'?",
        ),
        (["Nope"], "'Nope', which is no state of the structure of 'Root'"),
        ([Elsewhere], f"{Elsewhere.__qualname__}, which is no state of the structure of 'Root'"),
        (
            other.stack,
            f"a {Elsewhere.__qualname__} state, which is no state of the structure of 'Root'",
        ),
        (["Root", 3], "3 (int); it takes state names, state classes or states"),
    ]
    for draw in PLOTS:
        for given, said in cases:
            with pytest.raises(st.UsageError) as caught:
                draw(plot_samples.small(), active=given)
            assert str(caught.value) == f"active holds {said}"


def test_the_style_must_be_a_plot_style() -> None:
    for draw in PLOTS:
        with pytest.raises(st.UsageError) as caught:
            draw(plot_samples.small(), style="dark")
        assert str(caught.value) == (
            "style takes a PlotStyle, got 'dark' (str), e.g. PlotStyle(clusters=False)"
        )


@pytest.mark.parametrize(
    ("format", "said"), [("svg", "; plot_bytes() makes SVG, PNG and PDF"), ("junk", ""), (None, "")]
)
def test_plot_text_makes_only_text(format: object, said: str) -> None:
    with pytest.raises(st.UsageError) as caught:
        plot_text(plot_samples.small(), format)  # type: ignore[arg-type]

    assert str(caught.value) == f"plot_text() takes format 'dot' or 'mmd', got {format!r}{said}"
