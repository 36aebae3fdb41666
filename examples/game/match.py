"""The match: waves of enemies, a score, lives and a result, as a class-based machine.

``Running`` holds ``Intro`` (the wave's banner: a few seconds to get ready), ``Fight`` (the
wave's enemies come in from the edge a few at a time; it is cleared when the last one falls)
and ``Cleared`` (its bonus, and a breath); ``Over`` is the sibling of ``Running``, won or
lost. ``Running`` decides first, so the last life lost ends the match whatever the wave is
doing. Each state's arguments (the wave, the frame it began) are its network payload: a
client mirrors the match from the snapshots and shows the same banners and result.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

import statetree as st
from game import config
from game.enemies import WAITING, Crowd
from game.hero import Hero, since
from statetree import net
from statetree.structure import children, derive, outermost


class Result(enum.Enum):
    """How a match ended."""

    WON = 0
    LOST = 1


@dataclass(frozen=True)
class Rules:
    """What a match is made of: each wave's share of the crowd, and each hero's lives."""

    waves: tuple[float, ...] = config.WAVES
    lives: int = config.LIVES

    def __post_init__(self) -> None:
        # A wave's number travels in 4 bits, lives in 4 bits (see the snapshot).
        if not 1 <= len(self.waves) <= 15 or not 1 <= self.lives <= 15:
            raise ValueError(f"a match has 1 to 15 waves and lives, not {self}")


DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class MatchView:
    """The match as the screen shows it (from a match, or one mirrored from a snapshot)."""

    phase: str
    """``Intro``, ``Fight``, ``Cleared`` or ``Over``."""
    wave: int
    waves: int
    score: int
    seconds_left: float
    """Until the wave starts (``Intro``) or the next one is announced (``Cleared``)."""
    result: Result | None = None

    def headline(self) -> str:
        """Where the match stands, in a few words."""
        wave = f"wave {self.wave} of {self.waves}"
        if self.result is Result.WON:
            return f"victory, all {self.waves} waves cleared"
        if self.result is Result.LOST:
            return f"defeated in {wave}"
        return {"Intro": f"{wave} coming", "Cleared": f"{wave} cleared"}.get(self.phase, wave)


class Match:
    """The owner of the match's machine: the heroes and crowd it referees, and the score.

    Args:
        heroes: the heroes; the match is lost when every one is out of lives.
        crowd: the enemies the waves summon (``None`` for a mirror: a client's copy that
            only receives the match's states).
        rules: the waves and lives.
        trace, trace_sink: the machine's tracing.
    """

    def __init__(
        self,
        heroes: Sequence[Hero],
        crowd: Crowd | None,
        rules: Rules,
        *,
        trace: st.TraceLevel = st.TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
    ) -> None:
        self.heroes = heroes
        self.crowd = crowd
        count = crowd.count if crowd is not None else 0
        self.sizes = tuple(max(1, math.ceil(count * share)) for share in rules.waves)
        """How many enemies each wave summons."""
        self.frame = 0
        self.wave = 1
        self.summoned = 0
        self.score = 0
        self.machine = st.StateMachine(
            MatchStates.Running, self, name="Match", trace=trace, trace_sink=trace_sink
        )

    @classmethod
    def mirror(cls, waves: int) -> Match:
        """A client's copy of a match of ``waves`` waves, to apply received states to."""
        return cls((), None, Rules(waves=(1.0,) * waves))

    @property
    def waves(self) -> int:
        return len(self.sizes)

    @property
    def over(self) -> bool:
        return self.machine.is_in_state(MatchStates.Over)

    def step(self, frame: int) -> None:
        self.frame = frame
        self.machine.process_state_transitions()
        self.machine.update_states(config.DT)

    def scored(self, kills: int) -> None:
        """Kills count more in later waves."""
        self.score += kills * config.KILL_POINTS * self.wave

    def wave_done(self) -> bool:
        """Every enemy of the wave came in, and none is left standing."""
        crowd = self.crowd
        return (
            crowd is not None
            and self.summoned >= self.sizes[self.wave - 1]
            and not crowd.in_play.any()
        )

    def summon(self) -> None:
        """Bring in the wave's next few enemies (from those waiting off the arena)."""
        crowd = self.crowd
        size = self.sizes[self.wave - 1]
        if crowd is None or self.summoned >= size:
            return
        group = max(1, size // 8)
        waiting = np.flatnonzero(crowd.anim == WAITING)[: min(group, size - self.summoned)]
        crowd.summon(waiting)
        self.summoned += len(waiting)

    def view(self) -> MatchView:
        state = self.machine.stack[-1]
        left = 0
        if isinstance(state, MatchStates.Intro | MatchStates.Cleared):
            left = state.frames - since(self.frame, state.started)
        result = state.result if isinstance(state, MatchStates.Over) else None
        name = type(state).__name__
        return MatchView(name, self.wave, self.waves, self.score, left / config.FPS, result)


def _stamp(match: Match) -> int:
    return match.frame % config.WRAP


class MatchStates:
    """The states, nested so their names read ``MatchStates.Fight`` in traces and plots."""

    @outermost("Running", "Over")
    @children("Intro", "Fight", "Cleared")
    class Running(st.State[Match]):
        def transition(self) -> st.Transition | None:
            match = self.owner
            if match.heroes and all(hero.out for hero in match.heroes):
                return st.sibling(MatchStates.Over, Result.LOST, _stamp(match))
            if match.wave == match.waves and match.wave_done():
                return st.sibling(MatchStates.Over, Result.WON, _stamp(match))
            return st.inner_entry(MatchStates.Intro, 1, _stamp(match))

    class Intro(st.State[Match]):
        """The wave's banner: nothing comes in yet."""

        net_fields = (net.UInt(4), net.UInt(16))

        def on_enter(self, wave: int, started: int) -> None:
            self.wave, self.started = wave, started
            self.frames = config.FIRST_INTRO_FRAMES if wave == 1 else config.INTRO_FRAMES
            self.owner.wave = wave

        def net_payload(self) -> tuple[int, int]:
            return (self.wave, self.started)

        def transition(self) -> st.Transition | None:
            match = self.owner
            if since(match.frame, self.started) >= self.frames:
                return st.sibling(MatchStates.Fight, self.wave, _stamp(match))
            return None

    class Fight(st.State[Match]):
        """The wave's enemies come in, a few every ``SUMMON_EVERY`` frames."""

        net_fields = (net.UInt(4), net.UInt(16))

        def on_enter(self, wave: int, started: int) -> None:
            self.wave, self.started = wave, started
            self.owner.wave = wave
            if self.cause is not st.Cause.DESERIALIZATION:
                self.owner.summoned = 0

        def net_payload(self) -> tuple[int, int]:
            return (self.wave, self.started)

        def transition(self) -> st.Transition | None:
            match = self.owner
            if match.wave_done():  # the last wave's end is Running's to decide: it is won
                return st.sibling(MatchStates.Cleared, self.wave, _stamp(match))
            return None

        def update(self, dt: float) -> None:
            match = self.owner
            if since(match.frame, self.started) % config.SUMMON_EVERY == 0:
                match.summon()

    class Cleared(st.State[Match]):
        """The wave's bonus, and a breath before the next one."""

        net_fields = (net.UInt(4), net.UInt(16))
        frames = config.CLEARED_FRAMES

        def on_enter(self, wave: int, started: int) -> None:
            self.wave, self.started = wave, started
            self.owner.wave = wave
            if self.cause is not st.Cause.DESERIALIZATION:
                self.owner.score += config.WAVE_POINTS * wave

        def net_payload(self) -> tuple[int, int]:
            return (self.wave, self.started)

        def transition(self) -> st.Transition | None:
            match = self.owner
            if since(match.frame, self.started) >= self.frames:
                return st.sibling(MatchStates.Intro, self.wave + 1, _stamp(match))
            return None

    class Over(st.State[Match]):
        """Won (every wave cleared: its bonus, and one for each life left) or lost."""

        net_fields = (net.Enum(Result), net.UInt(16))

        def on_enter(self, result: Result, ended: int) -> None:
            self.result, self.ended = result, ended
            match = self.owner
            if result is Result.WON and self.cause is not st.Cause.DESERIALIZATION:
                lives = sum(hero.lives for hero in match.heroes)
                match.score += config.WAVE_POINTS * match.wave + config.LIFE_POINTS * lives

        def net_payload(self) -> tuple[Result, int]:
            return (self.result, self.ended)


MATCH_STRUCTURE = derive(MatchStates.Running)
MATCH_CODEC = net.Codec.auto(MATCH_STRUCTURE)
"""The match's wire format, sent in every snapshot."""
