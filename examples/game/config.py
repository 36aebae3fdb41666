"""The numbers the game is tuned with: arena size, speeds, timings in frames."""

from __future__ import annotations

FPS = 60
DT = 1.0 / FPS
"""The simulation's fixed step: every run is the same, whatever the display's frame rate."""

WIDTH, HEIGHT = 960, 640
"""The arena, in world units (one unit is one pixel on screen)."""
SHRINE = (WIDTH / 2, HEIGHT / 2)
SHRINE_RADIUS = 36.0

WRAP = 1 << 16
"""Frame stamps in replicated payloads are 16-bit: frames are compared modulo WRAP."""

HERO_SPEED = 150.0
HERO_RADIUS = 11.0
HERO_HEALTH = 100
DODGE_FRAMES = 18
DODGE_COOLDOWN = 40
RESPAWN_FRAMES = 120
TALK_REACH = 60.0
FLINCH_DAMAGE = 5
"""A hit of this much or more makes the hero flinch (unless it stuns)."""
FLINCH_FRAMES = 12

ENEMY_RADIUS = 6.0
SIGHT = 130.0
REACH = 24.0
ENEMY_HEALTH = 20
WOUNDED = 6
"""An enemy at this health or below is wounded: it flees until it has healed."""
HEAL_PER_SECOND = 3.0

POISON_DAMAGE = 2
POISON_PERIOD = 30
"""Poison deals POISON_DAMAGE every POISON_PERIOD frames."""

HELP = "WASD / arrows move, J / space attack, K / shift dodge, L / E talk at the shrine, Esc quits"
