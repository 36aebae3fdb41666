"""The game in a window (SDL's dummy driver): its keys, the result screen, a new match."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from game import app, config
from game.app import Session, play_window
from game.match import Rules
from game.scene import Scene, scene_of
from game.window import Window
from game.world import World
from game_support import idle


def press(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))


class NoWait:
    """A clock that does not hold frames to 60 a second: the tests run as fast as they can."""

    def tick(self, framerate: int = 0) -> int:
        return 0


@pytest.fixture(autouse=True)
def no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pygame.time, "Clock", NoWait)


def test_r_asks_for_a_new_match_and_escape_closes_the_window() -> None:
    window = Window("test")
    try:
        scene = scene_of(idle(World(1, 5), 1))
        press(pygame.K_r)
        assert window.show(scene) and window.take("restart")
        assert not window.take("restart")  # asked once, taken once
        press(pygame.K_ESCAPE)
        assert not window.show(scene) and not window.open
    finally:
        window.close()


def test_a_lost_match_shows_its_result_until_r_starts_another(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    session = Session(lambda: World(1, 5, rules=Rules(lives=1)))
    first = session.world
    shown: list[Scene] = []

    class Player(Window):
        """Falls at frame 10, looks at the result for a second, plays again, then quits."""

        def show(self, scene: Scene) -> bool:
            shown.append(scene)
            if scene.frame == 10 and session.world is first:
                first.heroes[0].hurt(config.HERO_HEALTH)
            over = [s for s in shown if s.match.result is not None]
            if len(over) == config.FPS:
                press(pygame.K_r)
            if session.world is not first and scene.frame == 5:
                press(pygame.K_ESCAPE)
            return super().show(scene)

    monkeypatch.setattr("game.window.Window", Player)
    play_window(session, autoplay=False, inspect=False, screenshot=tmp_path / "last.png")
    results = [scene for scene in shown if scene.match.result is not None]
    assert len(results) == config.FPS  # the result stays on the screen, frozen
    assert {(scene.frame, scene.match.phase) for scene in results} == {(11, "Over")}
    assert session.world is not first and session.world.frame == 5
    assert shown[-1].match.phase == "Intro" and shown[-1].frame == 5
    assert (tmp_path / "last.png").exists()


def test_autoplay_starts_a_new_match_a_few_seconds_after_the_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = Session(lambda: World(1, 5, rules=Rules(lives=1)))
    first = session.world
    first.heroes[0].hurt(config.HERO_HEALTH)
    frames: list[int] = []

    class Watcher(Window):
        def show(self, scene: Scene) -> bool:
            frames.append(scene.frame)
            if session.world is not first:
                press(pygame.K_ESCAPE)
            return super().show(scene)

    monkeypatch.setattr("game.window.Window", Watcher)
    play_window(session, autoplay=True, inspect=False, screenshot=None)
    assert frames[: app.AUTOPLAY_RESTART] == [1] * app.AUTOPLAY_RESTART
    assert frames[app.AUTOPLAY_RESTART :] == [0]
