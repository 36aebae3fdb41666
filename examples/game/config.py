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
LIVES = 3
"""Lives of each hero: the match is lost when every hero has lost its last one."""
PROTECTION_FRAMES = 180
"""After a respawn, nothing hurts the hero and no enemy hunts it for this long (3 s)."""
TALK_REACH = 60.0
FLINCH_DAMAGE = 5
"""A hit of this much or more makes the hero flinch (unless it stuns)."""
FLINCH_FRAMES = 12
STEADY_FRAMES = 45
"""After a stun wears off, no stun lands for as long as a stun lasts: a hero always gets
control back."""
BUFFER_FRAMES = 8
"""A press of attack or dodge at the keyboard counts for this many frames, held or not: one
pressed near the end of a move starts the next instead of being lost."""

ENEMIES = 60
"""The crowd: how many enemies the last wave brings (``--enemies``)."""
ENEMY_RADIUS = 6.0
SIGHT = 130.0
REACH = 24.0
ENEMY_HEALTH = 20
WOUNDED = 8
"""An enemy at this health or below is wounded (a slash does 12 of its 20): it flees until it
has healed to twice this."""
HEAL_PER_SECOND = 3.0

POISON_DAMAGE = 2
POISON_PERIOD = 30
"""Poison deals POISON_DAMAGE every POISON_PERIOD frames."""

WAVES = (0.15, 0.3, 0.5, 0.75, 1.0)
"""Each wave's share of the crowd (``--enemies``): the last wave brings every enemy."""
FIRST_INTRO_FRAMES = 180
"""Before the first wave: three seconds to look around."""
INTRO_FRAMES = 120
CLEARED_FRAMES = 120
SUMMON_EVERY = 8
"""A wave's enemies come in from the edge a few at a time, every this many frames."""
KILL_POINTS = 10
"""Points for a kill, times the wave's number."""
WAVE_POINTS = 100
"""Points for clearing a wave, times its number."""
LIFE_POINTS = 250
"""Points for each life left when the last wave is cleared."""

HELP = (
    "WASD / arrows move",
    "J / space attack",
    "K / shift dodge while moving (then attack: lunge)",
    "L / E talk at the shrine (a shield)",
    "F5 saves, F9 loads the save",
    "Esc quits",
)
