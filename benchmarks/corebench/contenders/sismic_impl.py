"""sismic: the machines as YAML statecharts run by an ``Interpreter`` per object."""

from __future__ import annotations

from functools import cache
from typing import Any

from sismic.interpreter import Interpreter
from sismic.io import import_from_yaml

from corebench.api import Contender
from corebench.script import EVENTS, Counters

__all__ = ["CONTENDER", "Character", "Switch"]

SWITCH_YAML = """
statechart:
  name: Switch
  root state:
    name: root
    initial: Off
    states:
    - name: Off
      transitions:
      - {target: On, event: toggle}
    - name: On
      transitions:
      - {target: Off, event: toggle}
"""


# The guarded ``tick`` transitions all fail in an idle frame.
CHARACTER_YAML = """
statechart:
  name: Character
  root state:
    name: root
    initial: Alive
    states:
    - name: Alive
      initial: Locomotion
      on entry: entered['Alive'] += 1
      on exit: exited['Alive'] += 1
      transitions:
      - {target: Dead, event: die}
      - {target: Dead, event: tick, guard: input_dead}
      states:
      - name: Locomotion
        initial: Stand
        on entry: entered['Locomotion'] += 1
        on exit: exited['Locomotion'] += 1
        transitions:
        - {target: Jump, event: jump}
        - {target: Jump, event: tick, guard: input_jump}
        states:
        - name: Stand
          on entry: entered['Stand'] += 1
          on exit: exited['Stand'] += 1
          transitions:
          - {target: Move, event: move}
          - {target: Move, event: tick, guard: input_move}
        - name: Move
          on entry: entered['Move'] += 1
          on exit: exited['Move'] += 1
          transitions:
          - {target: Stand, event: stop}
      - name: Jump
        on entry: entered['Jump'] += 1
        on exit: exited['Jump'] += 1
        transitions:
        - {target: Locomotion, event: land}
    - name: Dead
      on entry: entered['Dead'] += 1
      on exit: exited['Dead'] += 1
      transitions:
      - {target: Alive, event: revive}
"""


@cache
def _chart(text: str) -> Any:
    """Parse a chart once; every interpreter shares the parsed (immutable) statechart."""
    return import_from_yaml(text)


def _start(text: str, context: dict[str, Any]) -> Interpreter:
    # The charts have no contracts, so skipping their checks changes nothing but speed.
    interpreter = Interpreter(_chart(text), initial_context=context, ignore_contract=True)
    interpreter.execute_once()
    return interpreter


class Switch:
    """Owns an interpreter of the Off/On chart."""

    def __init__(self) -> None:
        self.interpreter = _start(SWITCH_YAML, {})

    def play(self, toggles: int) -> None:
        """Queue ``toggle`` and run one step, ``toggles`` times."""
        interpreter = self.interpreter
        for _ in range(toggles):
            interpreter.queue("toggle")
            interpreter.execute_once()

    def is_on(self) -> bool:
        """Whether the chart is in On."""
        return "On" in self.interpreter.configuration


class Character:
    """Owns an interpreter of the character chart; the counters live in its context."""

    def __init__(self, counters: Counters) -> None:
        context = {
            "entered": counters.entered,
            "exited": counters.exited,
            "input_move": False,
            "input_jump": False,
            "input_dead": False,
        }
        self.interpreter = _start(CHARACTER_YAML, context)

    def play(self, cycles: int) -> None:
        """Queue each of the script's events and run one step, ``cycles`` times."""
        interpreter = self.interpreter
        for _ in range(cycles):
            for event in EVENTS:
                interpreter.queue(event)
                interpreter.execute_once()

    def idle(self, frames: int) -> None:
        """Queue ``tick`` and run one step, ``frames`` times; every guard fails."""
        interpreter = self.interpreter
        for _ in range(frames):
            interpreter.queue("tick")
            interpreter.execute_once()

    def active(self) -> tuple[str, ...]:
        """The active states, outermost first (without the chart's root)."""
        return tuple(self.interpreter.configuration[1:])


CONTENDER = Contender("sismic", Switch, Character)
