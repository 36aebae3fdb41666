"""Events sent to chart machines, and scripts of them (one step per line).

A script line is one of::

    input ComboAttackButton      # any trigger type, then the name: send that event
    anim_finished ComboAttack1
    event Died                   # a named event
    tick 0.75                    # advance time by 0.75 (timers may expire)
    hold Jump                    # a level trigger on (held Jump); hold KIND NAME for others
    release Jump                 # and off again

Blank lines and ``#`` comments are ignored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, NamedTuple

from statetree.chart.errors import ScriptError
from statetree.chart.registry import HELD
from statetree.errors import UsageError

__all__ = ["Event", "ScriptStep", "read_script", "time_step"]


class Event(NamedTuple):
    """An event: its kind (a trigger type) and its name, e.g. ``Event("input", "Jump")``.

    Events are plain tuples, so they hash fast and can be built once and sent often.
    """

    kind: str
    name: str

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"


def time_step(dt: object, call: str) -> float:
    """``dt`` as the float a clock advances by: a real number, at least 0 and finite.

    Raises:
        UsageError: anything else, named in the message as ``call(dt)``.
    """
    value = math.nan
    if not isinstance(dt, (str, bytes)):
        try:
            value = float(dt)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError, ArithmeticError):
            pass
    if not 0 <= value < math.inf:  # NaN fails every comparison
        problem = "time cannot go backwards" if value < 0 else "dt must be a finite number"
        raise UsageError(f"{call}({dt!r}): {problem}")
    return value


StepKind = Literal["send", "tick", "hold", "release"]


@dataclass(frozen=True, slots=True)
class ScriptStep:
    """One line of a script: send an event, advance time, or hold / release a level."""

    kind: StepKind
    event: Event | None = None
    dt: float = 0.0
    line: int = 0

    def __str__(self) -> str:
        if self.kind == "tick":
            return f"tick {self.dt:g}"
        if self.kind == "send" or self.event is None:
            return str(self.event)
        shown = self.event.name if self.event.kind == HELD else str(self.event)
        return f"{self.kind} {shown}"


def _step(words: list[str], line: int, file: str) -> ScriptStep:
    first = words[0]
    if first == "tick" and len(words) == 2:
        try:
            dt = float(words[1])
        except ValueError:
            dt = math.nan
        if not (math.isfinite(dt) and dt >= 0):
            raise ScriptError(f"{file}:{line}: tick needs a time of at least 0, got {words[1]!r}")
        return ScriptStep("tick", dt=dt, line=line)
    if first in ("hold", "release") and len(words) in (2, 3):
        kind, name = (HELD, words[1]) if len(words) == 2 else (words[1], words[2])
        return ScriptStep("hold" if first == "hold" else "release", Event(kind, name), line=line)
    if len(words) == 2:
        return ScriptStep("send", Event(first, words[1]), line=line)
    raise ScriptError(
        f"{file}:{line}: cannot read {' '.join(words)!r}; write KIND NAME (e.g. input Jump), "
        "tick SECONDS, hold NAME or release NAME"
    )


def read_script(text: str, file: str = "<script>") -> tuple[ScriptStep, ...]:
    """The steps of an events script.

    Raises:
        ScriptError: a line cannot be read; the message names the file and line.
    """
    steps = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if words:
            steps.append(_step(words, number, file))
    return tuple(steps)
