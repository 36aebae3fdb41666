"""Bitmask machines drawn as their rules: requires, terminates, blocks."""

from __future__ import annotations

from pathlib import Path

import pytest
from plot_samples import needs_graphviz

import statetree as st
from statetree.bitmask import BitmaskDefinition, NoSuchStateError
from statetree.cli import EXIT_OK, main
from statetree.plot import RuleKind, build_rule_diagram, plot_bytes, plot_text, write_plot

ROOT = Path(__file__).resolve().parents[2]
PLAYER = str(ROOT / "examples" / "bitmask_player.py")

DOOR = BitmaskDefinition.from_data(
    [
        {"name": "Powered"},
        {"name": "Open", "requires": ["Powered"], "blocked_by": ["Locked"]},
        {"name": "Locked", "terminates": ["Open"], "blocked_by": ["Open"], "predictable": True},
        {"name": "Alarm", "requires": ["Powered", "Locked"], "retriggerable": True},
    ],
    name="Door",
)

DOOR_DOT = [
    'digraph "Door" {',
    '  graph [fontname="Helvetica", nodesep=0.35, ranksep=0.55];',
    '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=12, '
    'color="#3d3d3d"];',
    '  edge [fontname="Helvetica", fontsize=10, color="#3d3d3d"];',
    '  "Powered" [label="Powered", fillcolor="#1f6feb", fontcolor="#ffffff", '
    'color="#0b3d91", penwidth=2];',
    '  "Open" [label="Open", fillcolor="#7d6a52", fontcolor="#ffffff"];',
    '  "Locked" [label="Locked\\npredictable", fillcolor="#5c4d3c", fontcolor="#ffffff"];',
    '  "Alarm" [label="Alarm\\nretriggerable", fillcolor="#7d6a52", fontcolor="#ffffff"];',
    '  "Powered" -> "Open" [dir=back, label="requires"];',
    '  "Powered" -> "Alarm" [dir=back, label="requires"];',
    '  "Locked" -> "Alarm" [dir=back, label="requires"];',
    '  "Locked" -> "Open" [style=dashed, color="#b42318", fontcolor="#b42318", '
    'label="terminates, blocks"];',
    '  "Open" -> "Locked" [style=dotted, arrowhead=tee, label="blocks"];',
    "}",
]


def test_a_bitmask_definition_gives_exactly_this_dot() -> None:
    assert plot_text(DOOR, "dot", active=["Powered"]).splitlines() == DOOR_DOT


def test_a_bitmask_plot_refuses_what_is_no_state_or_no_style() -> None:
    for given in (None, "Powered"):
        with pytest.raises(st.UsageError, match=f"^active takes .*; got {given!r}"):
            plot_text(DOOR, "dot", active=given)  # type: ignore[arg-type]
    with pytest.raises(NoSuchStateError) as caught:
        plot_text(DOOR, "mmd", active=["Powerd"])
    assert caught.value.ref == "Powerd"
    with pytest.raises(st.UsageError, match=r"^style takes a PlotStyle, got 'dark'"):
        plot_text(DOOR, "dot", style="dark")  # type: ignore[arg-type]


def test_every_rule_between_two_states_is_one_link() -> None:
    links = {(link.source, link.target): link for link in build_rule_diagram(DOOR).links}

    assert links[("Locked", "Open")].kinds == (RuleKind.TERMINATES, RuleKind.BLOCKS)
    assert links[("Locked", "Open")].label == "terminates, blocks"
    assert links[("Alarm", "Locked")].kind is RuleKind.REQUIRES
    assert len(links) == 5


def test_depth_is_the_longest_chain_of_requirements() -> None:
    depths = {node.key: node.depth for node in build_rule_diagram(DOOR).nodes}

    assert depths == {"Powered": 0, "Open": 1, "Locked": 0, "Alarm": 1}


def test_mermaid_draws_requirements_above_their_dependents() -> None:
    mermaid = plot_text(DOOR, "mmd")

    assert mermaid.startswith('flowchart BT\n    s_Powered["Powered"]\n')
    assert '    s_Locked["Locked<br>predictable"]\n' in mermaid
    assert '    s_Open -->|"requires"| s_Powered\n' in mermaid
    assert '    s_Locked -.->|"terminates, blocks"| s_Open\n' in mermaid
    assert '    s_Open -.-x|"blocks"| s_Locked\n' in mermaid
    assert "    linkStyle 3 stroke:#b42318\n" in mermaid


@needs_graphviz
def test_a_bitmask_renders_like_any_plot(tmp_path: Path) -> None:
    assert write_plot(DOOR, tmp_path / "door.svg").read_bytes().startswith(b"<?xml")
    assert plot_bytes(DOOR, "png").startswith(b"\x89PNG")


def test_the_command_plots_a_module_s_bitmask_definition(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["plot", PLAYER, "--format", "dot"]) == EXIT_OK
    out = capsys.readouterr().out

    assert out.startswith('digraph "Player" {')
    assert '"Punching" [label="Punching\\nretriggerable · predictable · can_activate"' in out
    assert '"Shooting" -> "Punching" [style=dotted, arrowhead=tee, label="blocks"];' in out


def test_a_bitmask_state_is_not_a_definition(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plot", f"{PLAYER}:Moving"]) == 2
    assert capsys.readouterr().err == (
        f"statetree: error: '{PLAYER}:Moving' is a bitmask state; name its "
        f"BitmaskDefinition, e.g. {PLAYER}:PLAYER_STATES\n"
    )
