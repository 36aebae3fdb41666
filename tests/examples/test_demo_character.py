"""The demo's character controller: exact trace and driven values over the script."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import socket
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import demo
import pytest
from character import Character, CharacterStates, Inputs
from inspector_demo import hero_codec


def trace_of(frames: list[Inputs]) -> tuple[list[list[str]], Character]:
    """Trace lines per frame, for a character fed ``frames``."""
    lines: list[str] = []
    hero = Character("Hero", trace=lines.append)
    per_frame = []
    for inputs in frames:
        hero.inputs = inputs
        hero.tick(0.25)
        per_frame.append(lines.copy())
        lines.clear()
    return per_frame, hero


def test_jump_lands_through_a_transient_done_state() -> None:
    frames = [Inputs(move=True), Inputs(move=True, jump=True)] + [Inputs(move=True)] * 4
    trace, hero = trace_of(frames)
    assert trace[1] == [
        "HSM_1_Hero:  Sibling : CharacterStates.Jump",
        "HSM_1_Hero:   Entry   : CharacterStates.Jump_Rise",
    ]
    assert trace[2] == trace[3] == trace[4] == []
    # Landing: Jump_Done never survives the call, and Locomotion re-selects Move at once.
    assert trace[5] == [
        "HSM_1_Hero:   Sibling : CharacterStates.Jump_Done",
        "HSM_1_Hero:  Sibling : CharacterStates.Locomotion",
        "HSM_1_Hero:   Entry   : CharacterStates.Stand",
        "HSM_1_Hero:   Sibling : CharacterStates.Move",
        "HSM_1_Hero:    Entry   : CharacterStates.Move_Walk",
    ]
    assert [type(s) for s in hero.machine.stack] == [
        CharacterStates.Alive,
        CharacterStates.Locomotion,
        CharacterStates.Move,
        CharacterStates.Move_Walk,
    ]
    assert hero.speed == 6.0
    assert hero.height == 0.0


@pytest.mark.parametrize(
    ("inputs", "speed"),
    [(Inputs(), 0.0), (Inputs(move=True), 6.0), (Inputs(move=True, crawl=True), 3.0)],
)
def test_speed_follows_the_active_states(inputs: Inputs, speed: float) -> None:
    _, hero = trace_of([inputs, inputs])
    assert hero.speed == speed


def test_death_exits_everything_and_restores_values() -> None:
    lines: list[str] = []
    hero = Character("Hero", inputs=Inputs(move=True, crawl=True), trace=lines.append)
    hero.tick(0.25)
    assert hero.speed == 3.0
    lines.clear()
    hero.health = 0
    hero.tick(0.25)
    assert lines == ["HSM_1_Hero: Sibling : CharacterStates.Dead", ">>> Hero died"]
    assert [type(s) for s in hero.machine.stack] == [CharacterStates.Dead]
    assert hero.speed == 0.0


def test_the_replicated_character_takes_a_few_bits_per_update() -> None:
    codec = hero_codec()
    hero = Character("Hero", trace=lambda line: None)
    scripted = [Inputs(), Inputs(move=True), Inputs(move=True, crawl=True), Inputs(jump=True)]
    packets = []
    for inputs in scripted:
        hero.inputs = inputs
        hero.tick(0.25)
        packets.append(codec.encode(hero.machine))

    assert (codec.header_bits, codec.configurations) == (3, 6)
    assert [data.hex() for data in packets] == ["00", "20", "40", "6814000000"]
    assert [str(codec.decode(data)) for data in packets] == [
        "Alive/Locomotion/Stand",
        "Alive/Locomotion/Move/Move_Walk",
        "Alive/Locomotion/Move/Move_Crawl",
        "Alive/Jump/Jump_Rise(5.0)",
    ]


def test_demo_prints_the_whole_showcase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        demo.main(["--headless"])
    text = out.getvalue()
    assert "   wrote build/demo/character.svg\n" in text
    svg = ET.parse(tmp_path / "build" / "demo" / "character.svg").getroot()
    labels = "".join(svg.itertext())
    for state in ("Alive", "Dead", "Locomotion", "Move_Walk", "Move_Crawl", "Jump_Done"):
        assert state in labels
    assert text.startswith(
        "Headless (--headless): the inspector serves 240 frames and stops, the game plays a "
        "scripted match.\n\n== statetree demo: a character controller ==\n-- stand still\n"
    )
    assert "HSM_1_Hero:    Sibling : CharacterStates.Move_Crawl" in text
    assert ">>> Hero died" in text
    character, bitmask = text.split(
        "== a bitmask multi-state machine: many states active at once =="
    )
    assert "every state value was restored as its state exited" in character
    assert "-Aiming (terminated by Punching)" in bitmask
    assert "20,000 characters, 60 frames per simulated second" in bitmask
    inspector = bitmask.split("== the live inspector")[1]
    assert "statetree inspector: http://127.0.0.1:" in inspector
    assert "ran 240 frames of" in inspector
    game = text.split("== the game: Shrine Arena")[1]
    assert "victory, all 5 waves cleared" in game and "world fingerprint" in game


@pytest.mark.parametrize(
    ("asked", "ci", "terminal", "display", "mode"),
    [
        (False, False, True, True, demo.Mode(headless=False, window=True)),
        (True, False, True, True, demo.Mode(True, False, f"Headless (--headless): {demo.BRIEF}.")),
        (False, True, True, True, demo.Mode(True, False, f"Headless (CI is set): {demo.BRIEF}.")),
        (
            False,
            False,
            False,
            True,
            demo.Mode(True, False, f"Headless (standard input is not a terminal): {demo.BRIEF}."),
        ),
    ],
)
def test_the_demo_says_why_it_runs_headless(
    asked: bool, ci: bool, terminal: bool, display: bool, mode: demo.Mode
) -> None:
    assert demo.choose_mode(asked, ci, terminal, display) == mode


def test_without_a_display_the_demo_says_what_it_does_instead() -> None:
    mode = demo.choose_mode(asked=False, ci=False, terminal=True, display=False)

    assert (mode.headless, mode.window) == (False, False)
    assert mode.note.startswith(
        "No display (neither DISPLAY nor WAYLAND_DISPLAY is set): the game plays a scripted "
        "match and prints its result instead of opening a window"
    )


class Terminal(io.StringIO):
    """Standard input as a person running ``make demo`` has it: a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_taken_inspector_port_is_one_line_and_the_demo_goes_on_to_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(demo, "has_display", lambda: False)  # the game plays its match
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = int(taken.getsockname()[1])
        monkeypatch.setattr(demo, "INSPECTOR_PORT", port)

        assert demo.main([]) == 0

    out, err = capsys.readouterr()
    assert err == (
        f"demo.py: the live inspector is skipped: cannot listen on 127.0.0.1:{port}: "
        f"{os.strerror(errno.EADDRINUSE)} (python examples/inspector_demo.py --port 0 serves "
        "it on a free port)\n"
    )
    inspector, game = out.split("== the live inspector: ")[1].split("== the game: ")
    assert inspector == (
        "a demo world of class-based, chart and bitmask machines ==\n"
        "   open the address below in a browser; Enter ends this part of the demo\n\n"
    )
    assert game.startswith("Shrine Arena, every part of the library in one program ==\n")
    assert "victory, all 5 waves cleared" in game and "world fingerprint" in game


def test_enter_ends_the_inspectors_part_and_the_demo_goes_on_to_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(sys, "stdin", Terminal("\n"))  # Enter, pressed at once
    monkeypatch.setattr(demo, "has_display", lambda: False)
    monkeypatch.setattr(demo, "INSPECTOR_PORT", 0)

    assert demo.main([]) == 0

    inspector, game = (
        capsys.readouterr().out.split("== the live inspector: ")[1].split("== the game: ")
    )
    assert "Enter ends this part of the demo" in inspector
    assert re.search(r"\nran \d+ frames of \d+ machines; Hero: ", inspector)
    assert "victory, all 5 waves cleared" in game
