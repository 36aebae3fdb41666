"""Drawing a scene with pygame-ce: the arena on the left, a side panel on the right.

The panel (the match, each hero's states and effects, the crowd by chart state, the keys)
never covers the arena; only the match's own moments (a wave's banner, the result) are drawn
over it, and the result dims it.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import pygame

from game import config
from game.enemies import ANIMATIONS, DEAD, WAITING
from game.match import Result
from game.scene import HeroView, Scene
from game.world import plural

PANEL_WIDTH = 260
SIZE = (config.WIDTH + PANEL_WIDTH, config.HEIGHT)
"""The window: the arena, then the panel."""

BACKGROUND = (24, 26, 33)
GRID = (32, 35, 44)
PANEL = (14, 15, 20)
TEXT = (225, 228, 235)
DIM = (140, 146, 160)
GOLD = (250, 215, 110)
ENEMY_COLOURS = {
    "Wander": (110, 150, 110),
    "Rest": (80, 110, 85),
    "Chase": (235, 150, 60),
    "Windup": (250, 215, 80),
    "Strike": (240, 60, 50),
    "Stunned": (160, 205, 255),
    "Flee": (185, 125, 225),
    "Dead": (58, 58, 64),
    "Waiting": (90, 92, 104),
}
HERO_COLOURS = {
    "idle": (90, 170, 250),
    "walk": (90, 170, 250),
    "dodge": (170, 230, 255),
    "slash": (255, 255, 255),
    "lunge": (255, 255, 255),
    "stunned": (250, 230, 120),
    "talk": (160, 250, 200),
    "flinch": (255, 130, 120),
    "dead": (90, 90, 100),
}
HERO_ACCENTS = ((90, 170, 250), (250, 140, 190))
Colour = tuple[int, int, int]


class Renderer:
    """Draws scenes on a surface of ``SIZE`` (a window, or off screen for screenshots)."""

    def __init__(self, surface: pygame.Surface) -> None:
        pygame.font.init()
        self.surface = surface
        self.big = pygame.font.Font(None, 64)
        self.large = pygame.font.Font(None, 30)
        self.font = pygame.font.Font(None, 22)
        self.small = pygame.font.Font(None, 18)
        self._palette = [ENEMY_COLOURS[name] for name in ANIMATIONS]
        self._texts: dict[tuple[str, Colour, int], pygame.Surface] = {}
        self._background = pygame.Surface(SIZE)
        self._arena(self._background)

    def draw(self, scene: Scene) -> None:
        self.surface.blit(self._background, (0, 0))
        self._enemies(scene)
        for index, hero in enumerate(scene.heroes):
            self._hero(scene, hero, HERO_ACCENTS[index % len(HERO_ACCENTS)])
        self._moment(scene)
        _Panel(self, scene).draw()

    @staticmethod
    def _arena(surface: pygame.Surface) -> None:
        """The floor, the shrine and the panel's backdrop, drawn once."""
        surface.fill(BACKGROUND)
        for x in range(0, config.WIDTH, 40):
            pygame.draw.line(surface, GRID, (x, 0), (x, config.HEIGHT))
        for y in range(0, config.HEIGHT, 40):
            pygame.draw.line(surface, GRID, (0, y), (config.WIDTH, y))
        centre = (int(config.SHRINE[0]), int(config.SHRINE[1]))
        pygame.draw.circle(surface, (40, 60, 70), centre, int(config.TALK_REACH))
        pygame.draw.circle(surface, (70, 180, 170), centre, int(config.SHRINE_RADIUS), 3)
        pygame.draw.circle(surface, (120, 230, 210), centre, 8)
        surface.fill(PANEL, pygame.Rect(config.WIDTH, 0, PANEL_WIDTH, config.HEIGHT))
        pygame.draw.line(surface, (60, 64, 80), (config.WIDTH, 0), (config.WIDTH, config.HEIGHT))

    def _enemies(self, scene: Scene) -> None:
        surface, palette = self.surface, self._palette
        radius = int(config.ENEMY_RADIUS)
        anims = scene.enemy_anim.tolist()
        # The dead first, under the living; the waiting are not on the arena.
        order = sorted(
            (i for i, anim in enumerate(anims) if anim != WAITING), key=lambda i: anims[i] != DEAD
        )
        strike = ANIMATIONS.index("Strike")
        for i in order:
            anim = anims[i]
            centre = (int(scene.enemy_x[i]), int(scene.enemy_y[i]))
            pygame.draw.circle(surface, palette[anim], centre, radius + (anim == strike))

    def _hero(self, scene: Scene, hero: HeroView, accent: Colour) -> None:
        surface = self.surface
        x, y = int(hero.x), int(hero.y)
        r = int(config.HERO_RADIUS)
        fx, fy = hero.facing
        if "Shielded" in hero.status:
            pygame.draw.circle(surface, (90, 230, 250), (x, y), r + 7, 2)
        if "Protected" in hero.status and scene.frame // 6 % 2:  # a blinking halo
            pygame.draw.circle(surface, GOLD, (x, y), r + 5, 2)
        if hero.animation in ("slash", "lunge"):
            reach = 44 if hero.animation == "slash" else 62
            angle = math.atan2(-fy, fx)  # drawing only: the simulation never reads it
            box = pygame.Rect(x - reach, y - reach, 2 * reach, 2 * reach)
            pygame.draw.arc(surface, (255, 250, 220), box, angle - 1.2, angle + 1.2, 4)
        body = (150, 230, 120) if "Poisoned" in hero.status else HERO_COLOURS[hero.animation]
        pygame.draw.circle(surface, body, (x, y), r)
        pygame.draw.circle(surface, accent, (x, y), r, 3)
        pygame.draw.line(surface, (20, 20, 20), (x, y), (x + int(fx * r), y + int(fy * r)), 3)
        if hero.animation == "stunned":
            for k in range(3):
                a = k * 2.1
                centre = (x + int(14 * math.cos(a)), y - 16 + int(4 * math.sin(a)))
                pygame.draw.circle(surface, (255, 240, 90), centre, 3)
        if hero.animation == "talk":  # the dots come one by one, from the state's time
            self.text("." * (1 + int(hero.phase * 3) % 3), (x + 10, y - 30), TEXT)
        label = f"{hero.name} {hero.path[-1] if hero.path else ''}"
        self.text(label, (x - 30, y + r + 4), DIM, self.small)

    def _moment(self, scene: Scene) -> None:
        """The match's moments, over the arena: a wave's banner, a cleared wave, the end."""
        match = scene.match
        if match.result is not None:
            self._result(scene)
        elif match.phase == "Intro":
            left = math.ceil(match.seconds_left)
            lines = [f"the enemies come from the edges in {left} s"]
            if match.wave == 1:
                lines.append(f"clear all {match.waves} waves to win")
            self._banner(f"Wave {match.wave} of {match.waves}", lines)
        elif match.phase == "Cleared":
            bonus = config.WAVE_POINTS * match.wave
            self._banner(f"Wave {match.wave} cleared", [f"+{bonus} points"])

    def _banner(self, title: str, lines: list[str]) -> None:
        height = 70 + 24 * len(lines)
        band = pygame.Rect(0, 90, config.WIDTH, height)
        self._shade(band, 150)
        self.centred(title, band.top + 14, GOLD, self.big)
        for k, line in enumerate(lines):
            self.centred(line, band.top + 64 + 24 * k, TEXT, self.font)

    def _result(self, scene: Scene) -> None:
        match = scene.match
        self._shade(pygame.Rect(0, 0, config.WIDTH, config.HEIGHT), 170)
        won = match.result is Result.WON
        top = config.HEIGHT // 2 - 110
        self.centred(
            "VICTORY" if won else "DEFEATED", top, GOLD if won else (240, 90, 80), self.big
        )
        if match.score > 0 and match.score >= scene.best:
            best = "  (a new best)"
        else:
            best = f"  (best {scene.best})" if scene.best else ""
        minutes, seconds = divmod(scene.frame // config.FPS, 60)
        waves = f"all {match.waves} waves cleared" if won else f"fell in wave {match.wave}"
        lines = [
            (f"score {match.score}{best}", TEXT, self.large),
            (
                f"{waves}, {scene.kills} enemies defeated in {minutes}:{seconds:02d}",
                TEXT,
                self.font,
            ),
            (scene.prompt, GOLD, self.large),
        ]
        y = top + 70
        for text, colour, font in lines:
            self.centred(text, y, colour, font)
            y += 40 if font is self.large else 30

    def message(self, text: str) -> None:
        """An empty arena with ``text`` in the middle (before there is a scene to draw)."""
        self.surface.blit(self._background, (0, 0))
        self.centred(text, config.HEIGHT // 2 - 10, TEXT, self.large)

    def _shade(self, rect: pygame.Rect, alpha: int) -> None:
        veil = pygame.Surface(rect.size, pygame.SRCALPHA)
        veil.fill((8, 9, 12, alpha))
        self.surface.blit(veil, rect.topleft)

    def centred(self, text: str, top: int, colour: Colour, font: pygame.font.Font) -> None:
        """``text`` centred over the arena."""
        image = self.rendered(text, colour, font)
        self.surface.blit(image, ((config.WIDTH - image.get_width()) // 2, top))

    def text(
        self, text: str, at: tuple[int, int], colour: Colour, font: pygame.font.Font | None = None
    ) -> int:
        """Draw ``text`` at ``at``; returns its width."""
        image = self.rendered(text, colour, font or self.font)
        self.surface.blit(image, at)
        return image.get_width()

    def rendered(self, text: str, colour: Colour, font: pygame.font.Font) -> pygame.Surface:
        """``text`` as an image; the panel's lines change seldom, so they are kept."""
        key = (text, colour, id(font))
        image = self._texts.get(key)
        if image is None:
            if len(self._texts) > 1000:
                self._texts.clear()
            image = self._texts[key] = font.render(text, True, colour)
        return image


class _Panel:
    """The side panel, top to bottom: the match, the heroes, the crowd, the keys, notes."""

    LEFT = config.WIDTH + 14
    WIDTH = PANEL_WIDTH - 28

    def __init__(self, renderer: Renderer, scene: Scene) -> None:
        self.r, self.scene = renderer, scene
        self.y = 12

    def draw(self) -> None:
        self.match()
        for index, hero in enumerate(self.scene.heroes):
            self.hero(hero, HERO_ACCENTS[index % len(HERO_ACCENTS)])
        self.crowd()
        self.keys()

    def line(self, text: str, colour: Colour, font: pygame.font.Font, gap: int = 4) -> None:
        self.r.text(text, (self.LEFT, self.y), colour, font)
        self.y += font.get_linesize() + gap

    def right(self, text: str, y: int, colour: Colour) -> None:
        """Small text, flush with the panel's right edge."""
        image = self.r.rendered(text, colour, self.r.small)
        self.r.surface.blit(image, (self.LEFT + self.WIDTH - image.get_width(), y))

    def rule(self) -> None:
        self.y += 4
        left, right = self.LEFT, self.LEFT + self.WIDTH
        pygame.draw.line(self.r.surface, (50, 54, 68), (left, self.y), (right, self.y))
        self.y += 9

    def match(self) -> None:
        scene, r = self.scene, self.r
        match = scene.match
        self.line("SHRINE ARENA", GOLD, r.large, 6)
        self.line(f"Wave {match.wave} of {match.waves}", TEXT, r.large, 2)
        minutes, seconds = divmod(scene.frame // config.FPS, 60)
        self.line(f"score {match.score}     {minutes}:{seconds:02d}", TEXT, r.font)
        self.line(f"defeated {scene.kills}", DIM, r.font)
        self.rule()

    def hero(self, hero: HeroView, accent: Colour) -> None:
        r, surface = self.r, self.r.surface
        width = r.text(hero.name, (self.LEFT, self.y), accent, r.font)
        for k in range(max(hero.lives, 0)):  # one pip per life left
            centre = (self.LEFT + width + 14 + 14 * k, self.y + 7)
            pygame.draw.circle(surface, (230, 80, 90), centre, 5)
        lives = "out" if hero.lives <= 0 else plural(hero.kills, "kill")
        self.right(lives, self.y + 2, DIM)
        self.y += 20
        bar = pygame.Rect(self.LEFT, self.y, self.WIDTH, 7)
        pygame.draw.rect(surface, (70, 40, 40), bar)
        filled = bar.copy()
        filled.width = int(self.WIDTH * max(hero.health, 0) / config.HERO_HEALTH)
        pygame.draw.rect(surface, (220, 70, 70), filled)
        self.y += 12
        self.line(" > ".join(hero.path), TEXT, r.small, 2)
        effects = ", ".join(name for name in hero.status if name != "Alive") or "no effect"
        self.line(effects, DIM, r.small, 2)
        self.y += 6

    def crowd(self) -> None:
        r, surface = self.r, self.r.surface
        self.rule()
        self.line("enemies, by chart state", DIM, r.small)
        counts = self.scene.enemy_counts()
        for name in ANIMATIONS:
            pygame.draw.circle(surface, ENEMY_COLOURS[name], (self.LEFT + 5, self.y + 7), 5)
            label = "waiting for a wave" if name == "Waiting" else name
            r.text(label, (self.LEFT + 16, self.y), TEXT, r.small)
            self.right(str(counts[name]), self.y, TEXT)
            self.y += 16

    def keys(self) -> None:
        r = self.r
        self.rule()
        for text in config.HELP:
            for part in _wrapped(text, r.small, self.WIDTH):
                self.line(part, DIM, r.small, 1)
        for note in self.scene.notes:
            self.y += 4
            for part in _wrapped(note, r.small, self.WIDTH):
                self.line(part, GOLD, r.small, 1)


@functools.lru_cache(maxsize=64)
def _wrapped(text: str, font: pygame.font.Font, width: int) -> tuple[str, ...]:
    lines: list[str] = []
    for word in text.split(" "):
        if lines and font.size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return tuple(lines)


def save_frame(scene: Scene, path: Path) -> Path:
    """Draw ``scene`` off screen and save it as a PNG (works without a display)."""
    surface = pygame.Surface(SIZE)
    Renderer(surface).draw(scene)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
    return path
