"""Status effects: a bitmask machine, several states active at once, with rules between them.

Every effect requires Alive, so a hero's death clears them all in one cascade. Shielded
terminates Stunned and Poisoned and blocks them while it lasts; being stunned ends a dialogue
and blocks starting one, and so does the shield (the shrine blesses a hero once a shield).
Protected, a respawn's grace, blocks them too (and no hit lands meanwhile). A stun that wears
off leaves the hero Steady for a second, which blocks the next stun: enemies taking turns
cannot stun-lock a hero to death. Each effect lasts a number of frames, counted from its
activation; a stun or a poison that lands again restarts it (retriggerable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from game import config
from statetree.bitmask import BitCause, BitmaskDefinition, BitState

if TYPE_CHECKING:
    from game.hero import Hero


class Effect(BitState["Hero"]):
    """A status with a duration in frames (0: until deactivated)."""

    frames: ClassVar[int] = 0

    def on_activated(self, cause: BitCause) -> None:
        if self.frames and cause is not BitCause.NETWORK:
            self.owner.status_until[self.name] = self.owner.frame + self.frames

    def on_deactivated(self, cause: BitCause) -> None:
        self.owner.status_until.pop(self.name, None)


class Alive(Effect):
    pass


class Stunned(Effect):
    requires = (Alive,)
    blocked_by = ("Shielded", "Protected", "Steady")
    terminates = ("InDialogue",)
    retriggerable = True
    frames = 45


class Poisoned(Effect):
    requires = (Alive,)
    blocked_by = ("Shielded", "Protected")
    retriggerable = True
    frames = 240


class Shielded(Effect):
    requires = (Alive,)
    terminates = (Stunned, Poisoned)
    frames = 300


class Protected(Effect):
    """Just back from the dead: nothing hurts the hero and no enemy hunts it."""

    requires = (Alive,)
    frames = config.PROTECTION_FRAMES


class Steady(Effect):
    """Just out of a stun: back in control for a moment before another stun can land."""

    requires = (Alive,)
    frames = config.STEADY_FRAMES


class InDialogue(Effect):
    requires = (Alive,)
    blocked_by = (Stunned, Shielded)  # the shrine blesses once a shield: no endless talk
    frames = 90


STATUS = BitmaskDefinition.from_classes(
    [Alive, Stunned, Poisoned, Shielded, InDialogue, Protected, Steady], name="Status"
)
"""The status effects of a hero (``statetree plot examples/game/status.py`` draws the rules)."""


def expire(hero: Hero) -> None:
    """End the effects whose time is up, in the order they began (so runs repeat exactly)."""
    due = [name for name, until in hero.status_until.items() if until <= hero.frame]
    for name in due:
        hero.status.deactivate(name)
        if name == "InDialogue":  # a dialogue heard to the end blesses the hero
            hero.status.try_activate("Shielded")
        elif name == "Stunned":  # worn off (a shield's end to it needs no grace)
            hero.status.try_activate("Steady")
