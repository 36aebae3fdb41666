"""Mermaid output: exact text for a small machine, safe identifiers."""

from __future__ import annotations

import plot_samples
from plot_samples import K

from statetree.plot import to_mermaid
from statetree.structure import Edge, StateInfo, Structure

SMALL_ACTIVE_MERMAID = """\
flowchart TD
    s_Root["Root (0)"]
    s_Other["Other (0)"]
    s_Anim["Anim (2)"]
    subgraph cluster0 ["Loco"]
        s_Loco_Stand["Loco_Stand (1)"]
        s_Loco_Move["Loco_Move (1)"]
    end
    start((" "))
    start --> s_Root
    style start fill:#3d3d3d,stroke:#3d3d3d
    s_Root -.-> s_Other
    s_Root ==> s_Loco_Stand
    s_Loco_Stand -.-> s_Loco_Move
    s_Loco_Move --> s_Anim
    s_Root ~~~ s_Loco_Move
    classDef active fill:#1f6feb,color:#ffffff,stroke:#0b3d91,stroke-width:2px
    class s_Root,s_Loco_Move,s_Anim active
    classDef depth0 fill:#5c4d3c,color:#ffffff,stroke:#3d3d3d
    class s_Other depth0
    classDef depth1 fill:#7d6a52,color:#ffffff,stroke:#3d3d3d
    class s_Loco_Stand depth1
    linkStyle 4 stroke:#1f6feb,stroke-width:2px
"""


def test_small_machine_with_active_states_gives_exactly_this_mermaid() -> None:
    mermaid = to_mermaid(plot_samples.small(), active=["Root", "Loco_Move", "Anim"])

    assert mermaid == SMALL_ACTIVE_MERMAID


def test_identifiers_are_safe_and_unique() -> None:
    structure = Structure.from_names("A.b", [("A.b", "A_b", K.SIBLING), ("A_b", "end", K.INNER)])

    mermaid = to_mermaid(structure)

    assert "    s_A_b -.-> s_A_b_2\n" in mermaid
    assert "    s_A_b_2 --> s_end\n" in mermaid


def test_quotes_in_labels_are_escaped() -> None:
    mermaid = to_mermaid(Structure.from_names('say "hi"', []))

    assert 's_say__hi_["say #quot;hi#quot; (0)"]' in mermaid


def test_unreachable_states_get_their_own_class() -> None:
    structure = Structure.from_names("A", [("A", "B", K.INNER_ENTRY)], states=["Lost"])

    mermaid = to_mermaid(structure)

    assert "classDef unreachable fill:#ffffff,color:#1f1a14,stroke:#3d3d3d," in mermaid
    assert "class s_Lost unreachable" in mermaid


def test_overridable_transitions_are_labelled() -> None:
    structure = Structure(
        "A", (StateInfo("A"), StateInfo("B")), (Edge("A", "B", K.SIBLING, overridable=True),)
    )

    assert '    s_A -.->|"override"| s_B\n' in to_mermaid(structure)


def test_concurrent_regions_end_in_a_circle() -> None:
    structure = Structure.from_names("Body", [("Body", "Legs", K.CONCURRENT)])

    assert "    s_Body --o s_Legs\n" in to_mermaid(structure)
