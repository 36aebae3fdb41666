"""What a player does in one frame, one byte on the wire, and scripted players."""

from __future__ import annotations

import random
from dataclasses import dataclass

from statetree import net


@dataclass(frozen=True, slots=True)
class Input:
    """The buttons held during one frame: a direction (-1, 0 or 1 per axis) and three actions."""

    dx: int = 0
    dy: int = 0
    attack: bool = False
    dodge: bool = False
    talk: bool = False

    @property
    def moving(self) -> bool:
        return bool(self.dx or self.dy)

    def pack(self) -> bytes:
        """Two bits per axis, then one bit per action."""
        bits = (self.dx + 1) | (self.dy + 1) << 2
        bits |= self.attack << 4 | self.dodge << 5 | self.talk << 6
        return bytes([bits])

    @classmethod
    def unpack(cls, data: bytes) -> Input:
        """Raises ``PacketError`` for anything but one valid input byte."""
        if len(data) != 1 or data[0] >> 7 or data[0] & 3 == 3 or data[0] >> 2 & 3 == 3:
            raise net.PacketError(f"{data!r} is not one input byte", bit=0)
        bits = data[0]
        return cls(
            (bits & 3) - 1,
            (bits >> 2 & 3) - 1,
            bool(bits & 16),
            bool(bits & 32),
            bool(bits & 64),
        )


IDLE = Input()


def script(seed: int, frames: int) -> list[Input]:
    """A player who holds a direction and the buttons for a few frames at a time."""
    rng = random.Random(seed)
    inputs: list[Input] = []
    while len(inputs) < frames:
        held = Input(
            rng.choice((-1, 0, 1)),
            rng.choice((-1, 0, 1)),
            rng.random() < 0.25,
            rng.random() < 0.08,
            rng.random() < 0.04,
        )
        inputs += [held] * rng.randint(3, 12)
    return inputs[:frames]
