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
import reprlib
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Literal, NamedTuple

from statetree.chart.errors import ScriptError
from statetree.chart.registry import HELD, Registry
from statetree.chart.text import forbidden_character
from statetree.core.events import seconds
from statetree.errors import UsageError

__all__ = ["Event", "ScriptStep", "check_kind", "read_script", "time_step"]


class Event(NamedTuple):
    """An event: its kind (a trigger type) and its name, e.g. ``Event("input", "Jump")``.

    Events are plain tuples, so they hash fast and can be built once and sent often.
    """

    kind: str
    name: str

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"


def time_step(dt: object, call: str, clock: float = 0.0) -> float:
    """``dt`` as the float a clock advances by: a real number, at least 0 and finite, that
    keeps ``clock`` (the latest clock it advances) finite.

    Raises:
        UsageError: anything else, named in the message as ``call(dt)``.
    """
    elapsed = seconds(dt)
    if not 0 <= elapsed < math.inf:  # NaN fails every comparison
        finite = "dt must be a finite number of seconds"
        problem = "time cannot go backwards" if elapsed < 0 else finite
        raise UsageError(f"{call}({reprlib.repr(dt)}): {problem}")  # 400 digits shown short
    if clock + elapsed == math.inf:
        raise UsageError(
            f"{call}({reprlib.repr(dt)}): the clock ({clock!r}) would pass the largest float"
        )
    return elapsed


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


def _seconds(text: str, where: str) -> float:
    """The time of a ``tick`` line, or why it is not one."""
    try:
        dt = float(text)
    except ValueError:
        dt = math.nan
    if math.isfinite(dt) and dt >= 0:
        return dt
    if math.isnan(dt):
        why = f"{_shown(text)} is not a number"
    elif math.isinf(dt):
        why = f"{_shown(text)} is too large"
    else:
        why = f"time does not go back, got {_shown(text)}"
    raise ScriptError(f"{where}: tick needs a number of seconds, 0 or more (tick 0.5); {why}")


def _step(words: list[str], where: str, line: int) -> ScriptStep:
    first = words[0]
    if first == "tick" and len(words) == 2:
        return ScriptStep("tick", dt=_seconds(words[1], where), line=line)
    if first in ("hold", "release") and len(words) in (2, 3):
        kind, name = (HELD, words[1]) if len(words) == 2 else (words[1], words[2])
        return ScriptStep("hold" if first == "hold" else "release", Event(kind, name), line=line)
    if len(words) == 2:
        return ScriptStep("send", Event(first, words[1]), line=line)
    raise ScriptError(
        f"{where}: cannot read {_shown(' '.join(words))}; write KIND NAME (e.g. input Jump), "
        "tick SECONDS, hold NAME or release NAME"
    )


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut short: a line may be as long as a file."""
    return repr(text if len(text) <= 60 else text[:60] + "...")


def _unknown_kind(kind: str, registry: Registry, also: tuple[str, ...] = ()) -> str:
    """The message for an event of ``kind``, which ``registry`` has no trigger type of."""
    known = list(registry.triggers)
    close = get_close_matches(kind, [*known, *also], n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    more = f" (and {', '.join(also)})" if also else ""
    listed = ", ".join(known)
    return f"unknown event kind {_shown(kind)}{hint}; this chart's kinds are {listed}{more}"


def check_kind(event: Event, registry: Registry, *, level: bool) -> None:
    """Refuse ``event`` where it is held on or off (``level``) or sent to a chart of
    ``registry`` but cannot be: a kind the registry does not have (a typo would otherwise
    do nothing), or a level sent, or an edge held.

    Raises:
        UsageError: it cannot be.
    """
    trigger = registry.triggers.get(event.kind)
    if trigger is None:
        raise UsageError(f"{event}: {_unknown_kind(event.kind, registry)}")
    if trigger.level and not level:
        raise UsageError(f"{event} is a level trigger: use hold() and release()")
    if level and not trigger.level:
        raise UsageError(f"{event} is not a level trigger: send() it instead")


def _check_step_kind(step: ScriptStep, registry: Registry, where: str) -> None:
    """Refuse an event of a kind the chart does not know, or sent the wrong way."""
    event = step.event
    if event is None:
        return
    trigger = registry.triggers.get(event.kind)
    if trigger is None:
        also = ("tick", "hold", "release")
        raise ScriptError(f"{where}: {_unknown_kind(event.kind, registry, also)}")
    if step.kind == "send" and trigger.level:
        raise ScriptError(
            f"{where}: {event.kind} is a level trigger, held on and off: write "
            f"'hold {event.name}' or 'release {event.name}'"
        )
    if step.kind != "send" and not trigger.level:
        raise ScriptError(
            f"{where}: {event.kind} is not a level trigger, so it cannot be held: send it "
            f"with '{event.kind} {event.name}'"
        )


def read_script(
    text: str, file: str = "<script>", registry: Registry | None = None, *, first_line: int = 1
) -> tuple[ScriptStep, ...]:
    """The steps of an events script.

    Args:
        text: the script.
        file: its name, for messages.
        registry: the chart's registry (``chart.registry``): each event's kind must then be
            one of its trigger types, held or released only if it is a level trigger.
        first_line: the number of the text's first line (for text read line by line).

    Raises:
        ScriptError: a line cannot be read, or names a kind the registry does not know;
            the message names the file and line.
    """
    steps = []
    # Lines end at "\n" alone (a "\r" before it goes too), as editors count them: not at
    # the other breaks str.splitlines() knows (a form feed, U+2028).
    for number, ended in enumerate(text.split("\n"), start=first_line):
        line = ended.removesuffix("\r")
        words = line.split("#", 1)[0].split()
        if words:
            where = f"{file}:{number}"
            control = forbidden_character(line)
            if control is not None:
                raise ScriptError(f"{where}: the line holds the control character {control}")
            step = _step(words, where, number)
            if registry is not None:
                _check_step_kind(step, registry, where)
            steps.append(step)
    return tuple(steps)
