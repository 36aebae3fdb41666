"""statetree check and plot on charts written with patterns."""

from __future__ import annotations

from pathlib import Path

import pytest

from statetree.cli import EXIT_FAILED, EXIT_OK, main

ROOT = Path(__file__).resolve().parents[2]
COMBO = str(ROOT / "examples" / "charts" / "combo_attack.yaml")
GAME = str(ROOT / "examples" / "charts" / "game.py")

LIBRARY = """\
patterns:
  Flash:
    params: {colour: string, speed: number}
    enter: [{raise: $colour}]
"""
HERO = """\
name: Hero
imports: [lib/looks.yaml, lib/extra.yaml]
patterns:
  Step:
    params:
      delay: number
      label: {type: string, default: step}
    enter: [{start_timer: {name: T, delay: $delay}}]
  Spare:
    enter: [clear_history]
root:
  name: Top
  policy: concurrent
  states:
    - {name: A, use: Step, with: {delay: 1}}
    - {name: B, use: Flash, with: {colour: Red, speed: 2}}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().out


@pytest.fixture
def hero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("lib").mkdir()
    Path("lib/looks.yaml").write_text(LIBRARY)
    Path("lib/extra.yaml").write_text("patterns: {Other: {enter: [clear_history]}}\n")
    Path("hero.yaml").write_text(HERO)
    return tmp_path / "hero.yaml"


def test_check_warns_of_patterns_parameters_and_imports_never_used(
    capsys: pytest.CaptureFixture[str], hero: Path
) -> None:
    status, out = run(capsys, "check", "hero.yaml")
    assert status == EXIT_OK
    assert out.splitlines() == [
        "Top: 3 states, 2 transitions",
        "  warning: hero.yaml:2: no pattern of 'lib/extra.yaml' is used here: remove the "
        "import [unused-import]",
        "  warning: hero.yaml:7: the pattern 'Step' never uses its parameter 'label' "
        "[unused-parameter]",
        "  warning: hero.yaml:9: the pattern 'Spare' is never used [unused-pattern]",
        "  warning: lib/looks.yaml:4: Top.B raises event 'Red', which no trigger of the chart "
        "hears: only a host's event listener would [unheard-event]",  # where the pattern is
        "  0 errors, 4 warnings",
    ]
    assert run(capsys, "check", "hero.yaml", "--strict")[0] == EXIT_FAILED


def test_check_of_a_pattern_library_checks_its_declarations(
    capsys: pytest.CaptureFixture[str], hero: Path
) -> None:
    assert run(capsys, "check", "lib/looks.yaml") == (
        EXIT_OK,
        "lib/looks.yaml: pattern library (Flash)\n"
        "  warning: lib/looks.yaml:3: the pattern 'Flash' never uses its parameter 'speed' "
        "[unused-parameter]\n"
        "  0 errors, 1 warning\n",
    )
    Path("lib/looks.yaml").write_text(LIBRARY.replace("$colour", "$color"))
    status, out = run(capsys, "check", "lib/looks.yaml")
    assert status == EXIT_FAILED
    assert (
        "error: lib/looks.yaml:4: no parameter 'color' (parameters: colour, speed) [chart]" in out
    )


def test_check_names_the_pattern_line_and_the_use_of_a_wrong_expanded_value(
    capsys: pytest.CaptureFixture[str], hero: Path
) -> None:
    flashing = "    states:\n      - {name: On, transitions: [{on: {timer: $colour}, to: Off}]}\n"
    Path("lib/looks.yaml").write_text(LIBRARY + flashing + "      - {name: Off}\n")
    status, out = run(capsys, "check", "hero.yaml")
    assert status == EXIT_FAILED
    assert out.splitlines()[1] == (
        "  error: lib/looks.yaml:6: no start_timer action starts a timer named 'Red' (timers "
        "started: T) (in Flash, used at hero.yaml:16) [chart]"
    )


def test_check_of_the_combo_with_its_registry_is_clean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run(capsys, "check", COMBO, "--registry", GAME, "--strict")
    assert (status, out.splitlines()[-1]) == (EXIT_OK, "  0 errors, 0 warnings")


def test_plot_draws_a_use_collapsed_or_expanded(capsys: pytest.CaptureFixture[str]) -> None:
    status, collapsed = run(capsys, "plot", COMBO, "-f", "mmd", "--collapse-patterns")
    assert status == EXIT_OK
    expanded = run(capsys, "plot", COMBO, "-f", "mmd")[1]
    box = 's_Character_Alive_ComboAttack_ComboAttack1["ComboAttack1 (3)<br>«ComboStep»"]'
    assert box in collapsed and box in expanded
    assert "ComboAttack1_Window" not in collapsed
    assert "ComboAttack1_Window" in expanded


def test_run_takes_the_types_a_pattern_uses_as_check_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("lights.yaml").write_text(
        "name: G\n"
        "patterns:\n"
        "  Blink:\n"
        "    params: {light: string}\n"
        "    enter: [{flash: {color: $light}}]\n"  # a host action used in a pattern only
        "    transitions: [{on: {switch: Off}, to: Dark}]\n"  # and a host trigger
        "root: {name: G, states: [{name: Red, use: Blink, with: {light: Red}}, {name: Dark}]}\n"
    )
    Path("steps.events").write_text("switch Off\n")
    assert run(capsys, "check", "lights.yaml")[0] == EXIT_OK
    status, out = run(capsys, "run", "lights.yaml", "--events", "steps.events")
    assert status == EXIT_OK
    assert "enter G.Red: flash(color='Red')" in out
    assert out.splitlines()[-1] == "active: G, G.Dark"


REGIONS = """\
name: Body
root:
  name: Top
  policy: concurrent
  states:
    - name: Legs
      enter: [{start_timer: {name: Slow, delay: 9}}]
      states:
        - name: Kick
          enter: [{start_timer: {name: T, delay: 1}}]
          transitions: [{on: {timer: T}, to: Rest}]
        - name: Rest
          enter: [{start_timer: {name: T, delay: 2}}]
    - name: Arms
      states:
        - name: Guard
          enter: [{start_timer: {name: T, delay: 5}}, {start_timer: {name: Slow, delay: 1}}]
          transitions: [{on: {timer: T}, to: Drop}]
        - name: Drop
"""


NO_EFFECT = """\
name: N
root:
  name: Top
  states:
    - name: A
      exit: [{start_timer: {name: T, delay: 1}}, clear_history]
      transitions: [{on: {input: Go}, to: P}, {on: {input: Seq}, to: S}]
    - name: P
      policy: priority
      enter: [clear_history]
      states:
        - {name: X, pre: {input: Up}}
        - {name: G}
    - name: S
      policy: sequential
      enter: [clear_history]
      states: [{name: One, post: {input: Next}}, {name: Two}]
"""


UNHEARD = """\
name: U
root:
  name: Top
  states:
    - name: A
      enter: [raise: Redy]
      transitions: [{on: Ready, to: B}, {on: Jump, to: B}, {on: Done, to: C}]
    - name: B
      enter: [raise: Done]
      transitions: [{on: {input: Jump}, to: A}, {on: Don, to: C}, {on: Host, to: A}]
    - name: C
"""


WARNED = {
    # Kick and Rest (siblings) never run at once; Guard runs with either, and with Legs.
    "body.yaml": (
        REGIONS,
        [
            "Top: 7 states, 6 transitions",
            "  warning: body.yaml:17: Top.Arms.Guard starts timer 'Slow' as Top.Legs does, "
            "and both can be active at once: each one's triggers hear the other's expiry; "
            "give them different names [shared-timer]",
            "  warning: body.yaml:17: Top.Arms.Guard starts timer 'T' as Top.Legs.Kick does, "
            "and both can be active at once: each one's triggers hear the other's expiry; "
            "give them different names [shared-timer]",
            "  0 errors, 2 warnings",
        ],
    ),
    # Top.S's clear_history does something: a sequence resumes its history.
    "n.yaml": (
        NO_EFFECT,
        [
            "Top: 8 states, 7 transitions",
            "  warning: n.yaml:6: Top.A starts a timer as it exits: the timer stops with its "
            "state, so it never fires; start it on enter, or in the state entered next "
            "[no-effect]",
            "  warning: n.yaml:6: Top.A clears its history, but it has no children: it "
            "resumes no child, so there is none to clear [no-effect]",
            "  warning: n.yaml:10: Top.P clears its history, but it is priority: it resumes "
            "no child, so there is none to clear [no-effect]",
            "  0 errors, 3 warnings",
        ],
    ),
    # Host is an event only the host sends: not warned.
    "u.yaml": (
        UNHEARD,
        [
            "Top: 4 states, 5 transitions",
            "  warning: u.yaml:6: Top.A raises event 'Redy', which no trigger of the chart "
            "hears (did you mean 'Ready'?): only a host's event listener would [unheard-event]",
            "  warning: u.yaml:7: the condition hears the event 'Jump', which no action "
            "raises, while another hears the input 'Jump': a bare name is an event; write "
            "{input: Jump} for the input [unheard-event]",
            "  warning: u.yaml:10: the condition hears the event 'Don', which no action "
            "raises: did you mean 'Done', which one raises? [unheard-event]",
            "  0 errors, 3 warnings",
        ],
    ),
}


@pytest.mark.parametrize("name", list(WARNED))
def test_check_warns_of_timers_heard_twice_and_actions_that_change_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    text, report = WARNED[name]
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(text)
    assert run(capsys, "check", name) == (EXIT_OK, "\n".join(report) + "\n")
