"""Quick save and load: F5 saves the whole match (every machine in it), F9 goes back to it,
and the match goes on from there exactly as it went on after the save."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from game import bot
from game.app import Session, play_window
from game.scene import Scene
from game.window import Window
from game.world import World


def played(world: World, frames: int) -> World:
    for _ in range(frames):
        world.step([bot.decide(hero, world.crowd) for hero in world.heroes])
    return world


@pytest.mark.parametrize("brains", ["batch", "machines"])
def test_a_loaded_match_goes_on_as_it_did_after_the_save(brains: str, tmp_path: Path) -> None:
    session = Session(
        lambda chart: World(2, 12, brains=brains, chart=chart), tmp_path / "quick.save"
    )
    played(session.world, 400)
    assert session.quick_save() == (
        f"saved frame 400 to {tmp_path / 'quick.save'} (F9 goes back to it)"
    )
    saved_then = session.world
    after = played(saved_then, 500).summary()
    session.best = 7
    assert session.quick_load() == f"loaded frame 400 from {tmp_path / 'quick.save'}"
    assert session.world is not saved_then
    assert session.world.frame == 400
    assert session.best == 7
    assert played(session.world, 500).summary() == after


def test_what_cannot_be_loaded_or_saved_is_said(tmp_path: Path) -> None:
    session = Session(lambda chart: World(1, 3, chart=chart), tmp_path / "quick.save")
    first = session.world
    assert session.quick_load() == (
        f"nothing saved in {tmp_path / 'quick.save'} yet: F5 saves the match"
    )
    (tmp_path / "quick.save").write_text("not a save")
    assert session.quick_load().startswith("not loaded: ")
    assert "is not a statetree save" in session.quick_load()
    session.save_file = tmp_path / "missing" / "quick.save"
    assert session.quick_save().startswith("not saved: ")
    assert session.world is first


def press(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))


class NoWait:
    def tick(self, framerate: int = 0) -> int:
        return 0


def test_f5_saves_and_f9_goes_back_in_the_window(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(pygame.time, "Clock", NoWait)
    session = Session(lambda chart: World(1, 5, chart=chart), tmp_path / "quick.save")
    shown: list[Scene] = []

    class Player(Window):
        """Saves at frame 10, loads at frame 30, quits at frame 12 of the loaded match."""

        def show(self, scene: Scene) -> bool:
            shown.append(scene)
            if len(shown) == 10:
                press(pygame.K_F5)
            if len(shown) == 30:
                press(pygame.K_F9)
            if len(shown) == 33:
                press(pygame.K_ESCAPE)
            return super().show(scene)

    monkeypatch.setattr("game.window.Window", Player)
    play_window(session, autoplay=True, inspect=False, screenshot=None)
    frames = [scene.frame for scene in shown]
    assert frames == [*range(1, 31), 11, 12, 13]
    assert shown[10].notes == (f"saved frame 10 to {tmp_path / 'quick.save'} (F9 goes back to it)",)
    assert shown[30].notes == (f"loaded frame 10 from {tmp_path / 'quick.save'}",)
    for before, after in zip(shown[10:13], shown[30:33], strict=True):  # the same frames again
        assert (after.match, after.heroes) == (before.match, before.heroes)
        assert after.enemy_x.tolist() == before.enemy_x.tolist()
