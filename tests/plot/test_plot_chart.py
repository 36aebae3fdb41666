"""Chart diagrams: transition labels in words, a start marker, one entry arrow per state."""

from __future__ import annotations

from pathlib import Path

from plot_samples import K

from statetree.chart import chart_structure, from_data
from statetree.chart.loading import load
from statetree.plot import build_diagram, to_dot, to_mermaid
from statetree.structure import Structure

CHARTS = Path(__file__).resolve().parents[2] / "examples" / "charts"
COMBO = "Character.Alive.ComboAttack"
WINDOW = f"{COMBO}.ComboAttack1.Window"


def combo() -> Structure:
    return chart_structure(load(CHARTS / "combo_attack.yaml", check_types=False))


def chart(transitions: list[dict[str, object]]) -> Structure:
    """A root whose first child A has ``transitions`` to its siblings B and C."""
    a: dict[str, object] = {"name": "A", "transitions": transitions}
    root = {"name": "R", "policy": "explicit", "states": [a, {"name": "B"}, {"name": "C"}]}
    return chart_structure(from_data({"version": 1, "name": "T", "root": root}))


def test_links_carry_their_trigger_in_words() -> None:
    labels = {(link.source, link.target): link.label for link in build_diagram(combo()).links}

    assert labels[("Character.Alive", "Character.Dead")] == "event: Died"
    assert labels[(WINDOW, f"{COMBO}.ComboAttack1.Post")] == "timer: Window"
    assert labels[(WINDOW, f"{COMBO}.ComboAttack1.Next")] == "input: ComboAttackButton"
    # A priority state chooses by pre-condition, its ground state otherwise.
    assert labels[("Character.Alive", COMBO)] == "input: ComboAttackButton"
    assert labels[("Character.Alive", "Character.Alive.Idle")] == "otherwise"
    # A sequence advances when the current child's post-condition holds.
    assert labels[(COMBO, f"{COMBO}.ComboAttack2")] == "event: Next"
    assert labels[("Character", "Character.Alive")] == ""


def test_labels_are_drawn_in_dot_and_mermaid() -> None:
    dot, mermaid = to_dot(combo()), to_mermaid(combo())

    assert (
        f'"{WINDOW}" -> "{COMBO}.ComboAttack1.Post" '
        '[style=dotted, constraint=false, label="timer: Window"];'
    ) in dot
    assert 's_Character_Alive -.->|"event: Died"| s_Character_Dead\n' in mermaid


def test_the_initial_state_has_a_start_marker() -> None:
    diagram = build_diagram(combo())
    dot, mermaid = to_dot(combo()), to_mermaid(combo())

    assert [node.key for node in diagram.nodes if node.initial] == ["Character"]
    assert '  "__start__" -> "Character" [arrowsize=0.7];\n' in dot
    assert dot.count('"__start__" ->') == 1
    assert "    start --> s_Character\n" in mermaid


def test_the_child_a_state_is_entered_at_has_an_entry_arrow() -> None:
    """The first child of an explicit or sequential state, and a priority state's ground
    (entered when no pre-condition holds, so a priority state always holds a child)."""
    entries = [(e.source, e.target) for e in combo().edges if e.kind is K.INNER_ENTRY]

    assert entries == [
        ("Character", "Character.Alive"),
        ("Character.Alive", "Character.Alive.Idle"),
        (COMBO, f"{COMBO}.ComboAttack1"),
        (f"{COMBO}.ComboAttack1", f"{COMBO}.ComboAttack1.Pre"),
        (f"{COMBO}.ComboAttack2", f"{COMBO}.ComboAttack2.Pre"),
    ]
    assert to_dot(combo()).count("style=bold") == len(entries)


def test_combined_conditions_read_as_words() -> None:
    structure = chart(
        [
            {"on": {"all": [{"input": "Jump"}, {"not": {"held": "Block"}}]}, "to": "B"},
            {"on": {"all": [{"any": [{"anim_finished": "Roll"}, {"event": "Go"}]}]}, "to": "C"},
            {
                "on": {"all": [{"any": [{"event": "Go"}, {"held": "Run"}]}, {"input": "X"}]},
                "to": "C",
            },
        ]
    )

    labels = {edge.target: edge.label for edge in structure.edges_from("R.A")}

    assert labels["R.B"] == "input: Jump and not held: Block"
    assert labels["R.C"] == (
        "anim_finished: Roll or event: Go or ((event: Go or held: Run) and input: X)"
    )


def test_two_transitions_to_one_state_make_one_arrow_with_both_labels() -> None:
    structure = chart(
        [{"on": {"input": "Dash"}, "to": "B"}, {"on": {"event": "Pushed"}, "to": "B"}]
    )

    (edge,) = structure.edges_from("R.A")
    assert edge.label == "input: Dash or event: Pushed"


def row(links: list[tuple[str, str]]) -> Structure:
    """A root whose children A, B, C, D (in that order) have the sibling ``links``."""
    states = [
        {
            "name": name,
            "transitions": [
                {"on": {"input": f"{source}{target}"}, "to": target}
                for source, target in links
                if source == name
            ],
        }
        for name in "ABCD"
    ]
    root = {"name": "R", "policy": "explicit", "states": states}
    return chart_structure(from_data({"version": 1, "name": "T", "root": root}))


def test_labels_of_links_both_ways_across_other_states_go_at_their_heads() -> None:
    """Graphviz draws A -> C and C -> A along one path over B, their labels on one spot:
    such pairs take head labels; a pair between neighbours, or a link alone, keeps its label."""
    structure = row([("A", "C"), ("C", "A"), ("A", "B"), ("B", "A"), ("B", "D")])
    apart = {
        (link.source[2:], link.target[2:]): link.apart for link in build_diagram(structure).links
    }
    dot = to_dot(structure)

    assert {pair for pair, far in apart.items() if far} == {("A", "C"), ("C", "A")}
    assert '"R.A" -> "R.C" [style=dotted, constraint=false, headlabel="input: AC"];' in dot
    assert '"R.C" -> "R.A" [style=dotted, constraint=false, headlabel="input: CA"];' in dot
    assert '"R.A" -> "R.B" [style=dotted, constraint=false, label="input: AB"];' in dot
    assert '"R.B" -> "R.D" [style=dotted, constraint=false, label="input: BD"];' in dot
