"""The game's window: the keyboard in, scenes out (pygame-ce)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from game import bot, config
from game.inputs import IDLE, Input
from game.render import SIZE, Renderer
from game.scene import Scene, scene_of_player
from game.world import plural

if TYPE_CHECKING:
    from game.netplay import Host, InputSource, Player


KEYS = {"K_r": "restart", "K_F5": "save", "K_F9": "load"}
"""What each key asks for: a new match, a quick save, the quick save loaded."""
BUFFERED = {"attack": ("K_j", "K_SPACE"), "dodge": ("K_k", "K_LSHIFT", "K_RSHIFT")}
"""The buttons whose presses are buffered (see ``config.BUFFER_FRAMES``), and their keys."""


HEADLESS_DRIVERS = ("offscreen", "dummy")
"""SDL's video drivers that draw nowhere: SDL falls back to one when it finds no display."""


class NoWindow(Exception):
    """No window can be opened here: SDL found no display (its message says what it got)."""


def _open_display() -> None:
    """Start SDL's display (no sound: ``pygame.init()`` would open the audio device).

    Raises:
        NoWindow: it found no display (see :class:`Window`); SDL is shut down again, and
            gives SIGINT and SIGTERM back.
    """
    try:
        pygame.display.init()
    except pygame.error as error:
        pygame.quit()
        raise NoWindow(f"SDL found no display ({error})") from None
    driver = pygame.display.get_driver()
    if driver in HEADLESS_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != driver:
        pygame.quit()
        raise NoWindow(f"SDL found no display and fell back to its {driver} driver")


def check_display() -> None:
    """Check that a window could be opened, opening none.

    Raises:
        NoWindow: as :class:`Window` would.
    """
    _open_display()
    pygame.quit()


class Window:
    """A window showing scenes; closed by its close button or Escape (or a SIGTERM, which
    SDL turns into a close). R asks for a new match, F5 for a quick save, F9 for the quick
    save back (see ``take``).

    Raises:
        NoWindow: SDL found no display (``DISPLAY`` names an X server that is not there,
            say) and fell back to a driver that draws nowhere, which was not asked for with
            ``SDL_VIDEODRIVER``; SDL is shut down again.
    """

    def __init__(self, caption: str) -> None:
        _open_display()
        pygame.font.init()
        self.screen = pygame.display.set_mode(SIZE)
        pygame.display.set_caption(caption)
        self.renderer = Renderer(self.screen)
        self.open = True
        self.autoplay = False
        self._asked: set[str] = set()
        self._buffered = dict.fromkeys(BUFFERED, 0)  # frames each press still counts

    def keyboard(self) -> Input:
        """The first player's buttons, as held now: attack and dodge also as pressed in the
        last ``config.BUFFER_FRAMES`` frames (a tap during a move starts the next one)."""
        keys = pygame.key.get_pressed()

        def held(*names: str) -> bool:
            return any(keys[getattr(pygame, name)] for name in names)

        pressed: dict[str, bool] = {}
        for action, names in BUFFERED.items():
            pressed[action] = held(*names) or self._buffered[action] > 0
            self._buffered[action] = max(0, self._buffered[action] - 1)
        return Input(
            held("K_d", "K_RIGHT") - held("K_a", "K_LEFT"),
            held("K_s", "K_DOWN") - held("K_w", "K_UP"),
            pressed["attack"],
            pressed["dodge"],
            held("K_l", "K_e"),
        )

    def pressed(self, played: Input) -> Input:
        """The keyboard's buttons, or ``played`` (the bot's) while autoplay lasts: any key
        takes the controls back."""
        keys = self.keyboard()
        self.autoplay = self.autoplay and keys == IDLE
        return played if self.autoplay else keys

    def source(self, autoplay: bool) -> InputSource:
        """A networked player's input: this keyboard (the bot while autoplay lasts)."""
        self.autoplay = autoplay

        def read(player: Player) -> Input:
            seen = player.view.enemies if player.view else None
            played = bot.decide(player.hero, seen) if player.hero and seen else IDLE
            return self.pressed(played)

        return read

    def show(self, scene: Scene) -> bool:
        """Draw ``scene``; False once the player asked to quit."""
        self._events()
        self.renderer.draw(scene)
        pygame.display.flip()
        return self.open

    def _events(self) -> None:
        for event in pygame.event.get():
            key = event.key if event.type == pygame.KEYDOWN else None
            if event.type == pygame.QUIT or key == pygame.K_ESCAPE:
                self.open = False
            for name, request in KEYS.items():
                if key == getattr(pygame, name):
                    self._asked.add(request)
            for action, names in BUFFERED.items():
                if key in [getattr(pygame, name) for name in names]:
                    self._buffered[action] = config.BUFFER_FRAMES

    def waiting(self, message: str) -> bool:
        """Show ``message`` alone (while there is nothing to draw yet)."""
        self._events()
        self.renderer.message(message)
        pygame.display.flip()
        return self.open

    def take(self, request: str) -> bool:
        """Whether the key of ``request`` (one of ``KEYS``) was pressed since it was last
        taken."""
        asked = request in self._asked
        self._asked.discard(request)
        return asked

    def drawer(self, index: int) -> _Drawer:
        """A per-tick hook drawing what player ``index`` sees."""
        return _Drawer(self, index)

    def save(self, path: str) -> None:
        pygame.image.save(self.screen, path)

    def close(self) -> None:
        pygame.quit()


class _Drawer:
    def __init__(self, window: Window, index: int) -> None:
        self.window, self.index = window, index

    def __call__(self, host: Host | None, players: Sequence[Player]) -> bool:
        player = players[self.index]
        notes = (f"you are Hero{player.slot + 1}; network: {_stats(player)}",)
        scene = scene_of_player(player, notes)
        if scene is None:
            return self.window.waiting("waiting for the server...")
        return self.window.show(scene)


def _stats(player: Player) -> str:
    rollback = player.rollback
    if rollback is None:
        return "waiting for the server"
    stats = rollback.stats
    return (
        f"frame {rollback.frame}, confirmed {rollback.confirmed_frame}, "
        f"{plural(stats.mispredictions, 'rollback')}, "
        f"{plural(stats.resimulated, 'frame')} re-simulated"
    )
