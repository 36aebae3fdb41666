"""A link conditioner: latency, jitter, loss, duplication and reordering on demand.

Every decision comes from a seeded ``random.Random`` and every delay from the event loop's
clock, so a test chooses exactly how bad its network is.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, fields

from statetree.errors import UsageError

__all__ = ["LinkConditioner", "LinkProfile", "LinkStats"]


@dataclass(frozen=True, slots=True)
class LinkProfile:
    """How a link misbehaves. Times are in seconds, chances between 0 and 1.

    Attributes:
        latency: the delay of every datagram.
        jitter: an extra delay drawn uniformly from 0 to ``jitter``.
        loss: the chance a datagram is dropped.
        duplicate: the chance a datagram is sent twice (each copy delayed on its own).
        reorder: the chance a datagram is held back by ``reorder_delay``, so later ones
            overtake it.
        reorder_delay: how long a held-back datagram waits.

    Raises:
        UsageError: a value that is no number, a time that is negative, infinite or NaN,
            or a chance outside 0..1.
    """

    latency: float = 0.0
    jitter: float = 0.0
    loss: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    reorder_delay: float = 0.01

    def __post_init__(self) -> None:
        for name in ("latency", "jitter", "loss", "duplicate", "reorder", "reorder_delay"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise UsageError(f"LinkProfile.{name} is a number, got {value!r}")
        for name in ("latency", "jitter", "reorder_delay"):
            if not 0 <= getattr(self, name) < math.inf:  # NaN too
                raise UsageError(f"LinkProfile.{name} is a time of 0 or more seconds")
        for name in ("loss", "duplicate", "reorder"):
            if not 0 <= getattr(self, name) <= 1:
                raise UsageError(f"LinkProfile.{name} is a chance: between 0 and 1")


@dataclass(frozen=True, slots=True)
class LinkStats:
    """What the conditioner did."""

    sent: int = 0
    dropped: int = 0
    duplicated: int = 0
    held_back: int = 0


Deliver = Callable[[bytes], None]


class LinkConditioner:
    """Delays, drops, duplicates and reorders what goes through :meth:`send`.

    Args:
        profile: how the link misbehaves.
        rng: the source of every decision (seed it for a repeatable run).
    """

    def __init__(self, profile: LinkProfile, rng: random.Random) -> None:
        if not isinstance(profile, LinkProfile):
            raise UsageError(f"a LinkConditioner needs a LinkProfile, got {profile!r}")
        if not callable(getattr(rng, "random", None)):
            raise UsageError(
                f"a LinkConditioner needs a random number generator, got {rng!r}: for a seed, "
                "give random.Random(seed)"
            )
        self.profile = profile
        self._rng = rng
        self._pending: dict[int, tuple[asyncio.TimerHandle, object]] = {}
        self._tokens = itertools.count()
        self._counts = dict.fromkeys((f.name for f in fields(LinkStats)), 0)

    @property
    def stats(self) -> LinkStats:
        """Counts of datagrams sent, dropped, duplicated and held back."""
        return LinkStats(**self._counts)

    def send(self, data: bytes, deliver: Deliver, *, owner: object = None) -> None:
        """Pass ``data`` to ``deliver`` later, twice, or never, as the profile says
        (``owner``: who sends it, for :meth:`cancel`)."""
        profile, rng = self.profile, self._rng
        self._counts["sent"] += 1
        if rng.random() < profile.loss:
            self._counts["dropped"] += 1
            return
        copies = 2 if rng.random() < profile.duplicate else 1
        self._counts["duplicated"] += copies - 1
        for _ in range(copies):
            self._later(self._delay(), data, deliver, owner)

    def _delay(self) -> float:
        profile, rng = self.profile, self._rng
        delay = profile.latency + rng.uniform(0.0, profile.jitter)
        if rng.random() < profile.reorder:
            self._counts["held_back"] += 1
            delay += profile.reorder_delay
        return delay

    def _later(self, delay: float, data: bytes, deliver: Deliver, owner: object) -> None:
        token = next(self._tokens)
        loop = asyncio.get_running_loop()
        handle = loop.call_later(delay, self._fire, token, data, deliver)
        self._pending[token] = (handle, owner)

    def _fire(self, token: int, data: bytes, deliver: Deliver) -> None:
        del self._pending[token]
        deliver(data)

    @property
    def waiting(self) -> int:
        """How many datagrams are delayed and not delivered yet."""
        return len(self._pending)

    def cancel(self, *, owner: object = None) -> None:
        """Drop every datagram still waiting (``owner``: only those it sent; one
        conditioner may serve several endpoints)."""
        for token, (handle, sender) in list(self._pending.items()):
            if owner is None or sender is owner:
                handle.cancel()
                del self._pending[token]
