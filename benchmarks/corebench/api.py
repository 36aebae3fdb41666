"""What a contender provides: a switch (workload 1) and a character (workloads 2 to 4)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from corebench.script import Counters

__all__ = ["Character", "Contender", "Switch"]


class Switch(Protocol):
    """A flat two-state machine, Off and On."""

    def play(self, toggles: int) -> None:
        """Toggle ``toggles`` times, each time the contender's way (flip the input, or send)."""

    def is_on(self) -> bool:
        """Whether the machine is in On."""


class Character(Protocol):
    """The character controller of :mod:`corebench.script`, built and settled in Stand."""

    def play(self, cycles: int) -> None:
        """Run the whole script ``cycles`` times (it ends where it starts, in Stand)."""

    def idle(self, frames: int) -> None:
        """Run ``frames`` frames in which nothing changes (the nearest equivalent of a
        settled ``process_state_transitions()``)."""

    def active(self) -> tuple[str, ...]:
        """The active states, outermost first, by name."""


@dataclass(frozen=True)
class Contender:
    """One way of writing the benchmarks' machines.

    Attributes:
        name: shown in the tables.
        make_switch: builds a switch in Off.
        make_character: builds a character counting into the given counters, settled in its
            initial states (construction and first settle, as workload 4 times them).
    """

    name: str
    make_switch: Callable[[], Switch]
    make_character: Callable[[Counters], Character]
