"""Drawing a scene with pygame-ce: the arena, the shrine, the crowd, the heroes and a HUD."""

from __future__ import annotations

import math
from pathlib import Path

import pygame

from game import config
from game.enemies import ANIMATIONS
from game.scene import HeroView, Scene

BACKGROUND = (24, 26, 33)
GRID = (32, 35, 44)
TEXT = (225, 228, 235)
DIM = (140, 146, 160)
ENEMY_COLOURS = {
    "Wander": (110, 150, 110),
    "Rest": (80, 110, 85),
    "Chase": (235, 150, 60),
    "Windup": (250, 215, 80),
    "Strike": (240, 60, 50),
    "Stunned": (160, 205, 255),
    "Flee": (185, 125, 225),
    "Dead": (58, 58, 64),
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


class Renderer:
    """Draws scenes on a surface (a window, or an off-screen surface for screenshots)."""

    def __init__(self, surface: pygame.Surface) -> None:
        pygame.font.init()
        self.surface = surface
        self.font = pygame.font.Font(None, 20)
        self.small = pygame.font.Font(None, 16)
        self._palette = [ENEMY_COLOURS[name] for name in ANIMATIONS]
        self._background = pygame.Surface(surface.get_size())
        self._arena(self._background)

    def draw(self, scene: Scene) -> None:
        self.surface.blit(self._background, (0, 0))
        self._enemies(scene)
        for index, hero in enumerate(scene.heroes):
            self._hero(hero, HERO_ACCENTS[index % len(HERO_ACCENTS)])
        self._hud(scene)

    @staticmethod
    def _arena(surface: pygame.Surface) -> None:
        """The floor and the shrine, drawn once."""
        surface.fill(BACKGROUND)
        for x in range(0, config.WIDTH, 40):
            pygame.draw.line(surface, GRID, (x, 0), (x, config.HEIGHT))
        for y in range(0, config.HEIGHT, 40):
            pygame.draw.line(surface, GRID, (0, y), (config.WIDTH, y))
        centre = (int(config.SHRINE[0]), int(config.SHRINE[1]))
        pygame.draw.circle(surface, (40, 60, 70), centre, int(config.TALK_REACH))
        pygame.draw.circle(surface, (70, 180, 170), centre, int(config.SHRINE_RADIUS), 3)
        pygame.draw.circle(surface, (120, 230, 210), centre, 8)

    def _enemies(self, scene: Scene) -> None:
        surface, palette = self.surface, self._palette
        radius = int(config.ENEMY_RADIUS)
        order = sorted(range(len(scene.enemy_x)), key=lambda i: scene.enemy_anim[i] != 7)
        for i in order:
            anim = int(scene.enemy_anim[i])
            centre = (int(scene.enemy_x[i]), int(scene.enemy_y[i]))
            pygame.draw.circle(surface, palette[anim], centre, radius + (anim == 4))

    def _hero(self, hero: HeroView, accent: tuple[int, int, int]) -> None:
        surface = self.surface
        x, y = int(hero.x), int(hero.y)
        r = int(config.HERO_RADIUS)
        fx, fy = hero.facing
        if "Shielded" in hero.status:
            pygame.draw.circle(surface, (90, 230, 250), (x, y), r + 7, 2)
        if hero.animation in ("slash", "lunge"):
            reach = 44 if hero.animation == "slash" else 62
            angle = math.atan2(-fy, fx)
            box = pygame.Rect(x - reach, y - reach, 2 * reach, 2 * reach)
            pygame.draw.arc(surface, (255, 250, 220), box, angle - 1.2, angle + 1.2, 4)
        body = (150, 230, 120) if "Poisoned" in hero.status else HERO_COLOURS[hero.animation]
        pygame.draw.circle(surface, body, (x, y), r)
        pygame.draw.circle(surface, accent, (x, y), r, 3)
        pygame.draw.line(surface, (20, 20, 20), (x, y), (x + int(fx * r), y + int(fy * r)), 3)
        if hero.animation == "stunned":
            for k in range(3):
                a = k * 2.1
                pygame.draw.circle(
                    surface,
                    (255, 240, 90),
                    (x + int(14 * math.cos(a)), y - 16 + int(4 * math.sin(a))),
                    3,
                )
        if hero.animation == "talk":  # the dots come one by one, from the state's time
            self._text("." * (1 + int(hero.phase * 3) % 3), (x + 10, y - 30), TEXT)
        label = f"{hero.name} {hero.path[-1] if hero.path else ''}"
        self._text(label, (x - 30, y + r + 4), DIM, self.small)

    def _hud(self, scene: Scene) -> None:
        self._panel(pygame.Rect(4, 4, 330, 46 * len(scene.heroes) + 2))
        self._panel(pygame.Rect(config.WIDTH - 158, 4, 154, 17 * (len(ANIMATIONS) + 1) + 8))
        for index, hero in enumerate(scene.heroes):
            top = 8 + index * 46
            accent = HERO_ACCENTS[index % len(HERO_ACCENTS)]
            self._text(f"{hero.name}  {' > '.join(hero.path)}", (10, top), accent)
            bar = pygame.Rect(10, top + 18, 160, 8)
            pygame.draw.rect(self.surface, (70, 40, 40), bar)
            filled = bar.copy()
            filled.width = int(160 * max(hero.health, 0) / config.HERO_HEALTH)
            pygame.draw.rect(self.surface, (220, 70, 70), filled)
            flags = ", ".join(name for name in hero.status if name != "Alive") or "-"
            self._text(f"status: {flags}   kills {hero.kills}", (178, top + 15), DIM, self.small)
        counts = scene.enemy_counts()
        lines = [f"{scene.frame / config.FPS:6.1f} s   defeated {scene.kills}"]
        lines += [f"{name:<8}{counts[name]:>4}" for name in ANIMATIONS]
        for k, line in enumerate(lines):
            colour = ENEMY_COLOURS.get(line.split()[0], TEXT)
            self._text(line, (config.WIDTH - 150, 8 + 17 * k), colour)
        for k, note in enumerate(scene.notes):
            self._text(note, (10, config.HEIGHT - 20 - 17 * k), DIM)

    def _panel(self, rect: pygame.Rect) -> None:
        """A dark, half-transparent backdrop that keeps the HUD readable over the crowd."""
        panel = pygame.Surface(rect.size, pygame.SRCALPHA)
        panel.fill((12, 13, 18, 200))
        self.surface.blit(panel, rect.topleft)

    def _text(
        self,
        text: str,
        at: tuple[int, int],
        colour: tuple[int, int, int],
        font: pygame.font.Font | None = None,
    ) -> None:
        self.surface.blit((font or self.font).render(text, True, colour), at)


def save_frame(scene: Scene, path: Path) -> Path:
    """Draw ``scene`` off screen and save it as a PNG (works without a display)."""
    surface = pygame.Surface((config.WIDTH, config.HEIGHT))
    Renderer(surface).draw(scene)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
    return path
