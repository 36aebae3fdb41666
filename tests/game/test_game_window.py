"""The game in a window (SDL's dummy driver): its keys, the result screen, a new match."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from game import app, config
from game.app import Session, play_window
from game.inputs import Input
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


def test_a_tap_of_attack_or_dodge_counts_for_a_few_frames() -> None:
    window = Window("test")
    try:
        scene = scene_of(idle(World(1, 5), 1))
        press(pygame.K_j)  # let go before the next frame reads the keys
        assert window.show(scene)
        seen = [window.keyboard() for _ in range(config.BUFFER_FRAMES + 1)]
        assert [keys.attack for keys in seen] == [True] * config.BUFFER_FRAMES + [False]
        assert not any(keys.dodge or keys.moving for keys in seen)
        press(pygame.K_LSHIFT)
        press(pygame.K_r)  # no buffered button: asked for once
        assert window.show(scene) and window.take("restart")
        assert window.keyboard() == Input(dodge=True)
    finally:
        window.close()


def test_a_lost_match_shows_its_result_until_r_starts_another(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    session = Session(lambda chart: World(1, 5, rules=Rules(lives=1), chart=chart))
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
    session = Session(lambda chart: World(1, 5, rules=Rules(lives=1), chart=chart))
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


def test_an_r_pressed_during_a_match_does_not_skip_its_result() -> None:
    session = Session(lambda chart: World(1, 5, rules=Rules(lives=1), chart=chart))
    window = Window("test")
    try:
        scene = scene_of(session.world)
        press(pygame.K_r)  # during the match: it asks for nothing
        assert window.show(scene)
        assert app._requests(session, window) == ""
        session.world.heroes[0].hurt(config.HERO_HEALTH)
        idle(session.world, 1)
        assert session.world.over
        first = session.world
        for _ in range(config.FPS):  # the result stays on the screen
            assert window.show(scene) and app._requests(session, window) == ""
        assert session.world is first
    finally:
        window.close()


def test_a_new_match_keeps_the_running_chart_when_the_file_does_not_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from game.enemies import CHART_PATH, load_chart

    broken = tmp_path / "enemy.yaml"
    broken.write_text(CHART_PATH.read_text().replace("style: chase,", "style: chse,"))
    session = Session(lambda chart: World(1, 5, chart=chart))
    running = session.world.crowd.chart
    monkeypatch.setattr(app, "load_chart", lambda: load_chart(broken))
    said = session.restart()
    assert said.startswith(f"enemy chart not loaded, the new match keeps the last: {broken}:")
    assert said.endswith("got 'chse'")
    assert session.world.crowd.chart is running and session.world.frame == 0
