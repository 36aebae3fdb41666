"""The game's tools: a saved frame, hot reload of the enemy chart, its checks, the CLI."""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest
from game import config
from game.enemies import CHART_PATH, load_chart
from game.reload import ChartReloader
from game.scene import scene_of
from game.world import World
from game_support import bring_in, play

from statetree.chart import ChartError


def test_a_saved_frame_shows_the_arena_the_crowd_and_the_panel(tmp_path: Path) -> None:
    import pygame
    from game.render import BACKGROUND, ENEMY_COLOURS, SIZE, TEXT, save_frame

    world = play(World(1, 300), 240)
    path = save_frame(scene_of(world, ("a note",)), tmp_path / "frame.png")
    image = pygame.image.load(str(path))
    assert image.get_size() == SIZE == (config.WIDTH + 260, config.HEIGHT)
    colours = {
        tuple(image.get_at((x, y)))[:3]
        for x in range(0, config.WIDTH, 4)
        for y in range(0, config.HEIGHT, 4)
    }
    assert len(colours) > 8  # not a blank or single-colour image
    assert BACKGROUND in colours and ENEMY_COLOURS["Wander"] in colours
    panel = {
        tuple(image.get_at((x, y)))[:3]
        for x in range(config.WIDTH, SIZE[0])
        for y in range(0, config.HEIGHT, 2)
    }
    assert TEXT in panel


def test_the_panel_never_covers_the_arena(tmp_path: Path) -> None:
    import pygame
    from game.render import BACKGROUND, GRID, HERO_COLOURS, save_frame

    world = World(2, 10)
    corners = ((20.0, 20.0), (config.WIDTH - 20.0, 20.0))  # under the panels of old
    for hero, (x, y) in zip(world.heroes, corners, strict=True):
        hero.x, hero.y = x, y
    image = pygame.image.load(str(save_frame(scene_of(world), tmp_path / "frame.png")))
    for x, y in corners:  # a hero's body, left of the line showing where it faces
        assert tuple(image.get_at((int(x) - 5, int(y))))[:3] == HERO_COLOURS["idle"]
    # Away from the heroes and the shrine, the arena's top rows are bare floor.
    top = {tuple(image.get_at((x, y)))[:3] for x in range(60, config.WIDTH - 60) for y in (2, 9)}
    assert top == {BACKGROUND, GRID}


def working_chart(tmp_path: Path) -> Path:
    path = tmp_path / "enemy.yaml"
    shutil.copy(CHART_PATH, path)
    return path


def save(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    stamp = path.stat().st_mtime_ns + 1_000_000  # a new modification time, however fast
    os.utime(path, ns=(stamp, stamp))


def test_saving_the_enemy_chart_reloads_the_running_crowd(tmp_path: Path) -> None:
    path = working_chart(tmp_path)
    world = play(World(1, 200, chart=load_chart(path)), 420)  # the first wave is in
    crowd = world.crowd
    reloader = ChartReloader(crowd, path, every=1)
    chasing = crowd.levels["SeesHero"] & (crowd.style == 2)
    assert chasing.any() and set(crowd.speed[chasing]) == {62.0}
    before = {i: crowd.brains.active(i) for i in range(crowd.count)}
    save(path, "style: chase, speed: 62.0", "style: chase, speed: 90.0")
    said = reloader.poll(world.frame)
    assert said is not None and said.startswith("enemy chart reloaded: ")
    assert "Enemy.Alive.Chase" in said
    assert set(crowd.speed[chasing]) == {90.0}  # re-entered with the new enter actions
    assert {i: crowd.brains.active(i) for i in range(crowd.count)} == before


def test_a_broken_save_keeps_the_running_chart(tmp_path: Path) -> None:
    path = working_chart(tmp_path)
    world = World(1, 20, chart=load_chart(path))
    reloader = ChartReloader(world.crowd, path, every=1)
    save(path, "style: chase, speed: 62.0", "style: chse, speed: 62.0")
    said = reloader.poll(1)
    assert said is not None
    assert said.startswith(f"enemy chart not reloaded: {path}:")
    assert said.endswith(
        "move.style: move: 'style' must be one of 'hold', 'wander', 'chase', 'flee', "
        "'knockback', got 'chse'"
    )
    save(path, "delay: 0.3}", "delay: [0.3}")
    assert reloader.poll(2) is not None and "not reloaded" in reloader.last
    play(world, 30)  # still running the chart it had


def test_an_unknown_value_in_the_chart_is_refused_with_its_line(tmp_path: Path) -> None:
    path = working_chart(tmp_path)
    save(path, "play_animation: Flee", "play_animation: Fleeing")
    with pytest.raises(ChartError) as caught:
        load_chart(path)
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "Fleeing" in text)
    assert (caught.value.file, caught.value.line) == (str(path), line)
    assert caught.value.path.endswith(".enter[0].play_animation.name")


@pytest.mark.parametrize("brains", ["batch", "machines"])
def test_the_inspector_is_offered_the_heroes_and_the_enemies(brains: str) -> None:
    from game.inspecting import watched

    from statetree.inspect import ChartAgentAdapter, adapt

    world = World(1, 30, brains=brains)
    shown = [adapt(machine) for machine in watched(world)]
    assert [adapter.name for adapter in shown[:3]] == ["Match", "Hero", "Hero.status"]
    assert [adapter.kind for adapter in shown[:3]] == ["state-machine", "state-machine", "bitmask"]
    enemy = shown[3]
    assert enemy.name == "Enemy[0]" and enemy.active()[0] == "Enemy"
    assert isinstance(enemy, ChartAgentAdapter) == (brains == "batch")


def test_a_watched_batch_agent_reports_its_changes() -> None:
    from statetree.inspect import adapt

    world = World(1, 1)
    hero = world.heroes[0]
    bring_in(world, 0, hero.x + 100, hero.y)
    adapter = adapt(world.crowd.brains.batch.agent(0))  # type: ignore[attr-defined]
    notes: list[object] = []
    adapter.attach(notes.append)
    play(world, 1)
    adapter.poll()
    lines = [adapter.describe(raw) for raw in notes]
    assert [(line.category, line.state, line.depth) for line in lines] == [
        ("exit", "Enemy.Alive.Roam.Wander", 3),
        ("exit", "Enemy.Alive.Roam", 2),
        ("enter", "Enemy.Alive.Chase", 2),
    ]
    adapter.detach()
    play(world, 80)
    adapter.poll()
    assert len(notes) == 3


@pytest.mark.parametrize(
    ("target", "first_line"),
    [
        ("examples/game/hero.py:HeroStates.Alive", "HeroStates.Alive: 10 states, 17 transitions"),
        ("examples/game/status.py", "Status (bitmask): 7 states, 16 rules"),
    ],
)
def test_the_command_line_checks_and_plots_the_game_s_machines(
    target: str, first_line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from statetree.cli import main

    root = Path(__file__).resolve().parents[2]
    assert main(["check", str(root / target)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == first_line
    assert main(["plot", str(root / target), "-o", str(tmp_path / "plot.mmd")]) == 0
    assert "flowchart" in (tmp_path / "plot.mmd").read_text()


def test_the_enemy_chart_checks_with_the_game_s_registry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from statetree.cli import main

    registry = str(Path(__file__).resolve().parents[2] / "examples/game/enemies.py")
    assert main(["check", str(CHART_PATH), "--registry", registry]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Enemy: 25 states, 26 transitions",
        "  0 errors, 0 warnings",
    ]


def test_a_match_loaded_from_a_save_catches_up_with_the_chart_file(tmp_path: Path) -> None:
    path = working_chart(tmp_path)
    world = play(World(1, 200, chart=load_chart(path)), 420)
    loaded = pickle.loads(pickle.dumps(world))  # as F9 loads it: the chart it was saved with
    save(path, "style: chase, speed: 62.0", "style: chase, speed: 90.0")
    reloader = ChartReloader(loaded.crowd, path, every=1)
    said = reloader.catch_up()
    assert said is not None and said.startswith("enemy chart of the file applied: ")
    assert loaded.crowd.chart.chart == load_chart(path).chart
    assert reloader.catch_up() is None  # caught up: nothing more to do
    assert reloader.poll(1) is None  # and the watcher starts from the file as it is


def test_the_inspector_watches_no_more_agents_than_the_batch_has() -> None:
    from game.inspecting import WATCHED_AGENTS, watched

    world = World(1, 5)
    assert WATCHED_AGENTS > 5
    assert len(watched(world)) == 3 + 5  # the match, the hero and its effects, 5 agents
