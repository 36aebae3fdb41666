"""xstate-statemachine: the machines as XState JSON configs run by a ``SyncInterpreter``."""

from __future__ import annotations

from typing import Any

from xstate_statemachine import MachineLogic, SyncInterpreter, create_machine

from corebench.api import Contender
from corebench.script import EVENTS, STATE_NAMES, Counters

__all__ = ["CONTENDER", "Character", "Switch"]

SWITCH = create_machine(
    {
        "id": "switch",
        "initial": "Off",
        "states": {"Off": {"on": {"toggle": "On"}}, "On": {"on": {"toggle": "Off"}}},
    }
)


def _counted(name: str, on: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A state that counts its enters and exits in the context."""
    counted = {"params": {"name": name}}
    return {
        "entry": [{"type": "entered", **counted}],
        "exit": [{"type": "exited", **counted}],
        "on": on,
        **more,
    }


def _guarded(target: str, guard: str) -> dict[str, str]:
    """The guarded ``tick`` transition of an idle frame (it fails while nothing changes)."""
    return {"target": target, "guard": guard}


def _count(direction: str) -> Any:
    def action(_interpreter: Any, context: dict[str, Any], _event: Any, definition: Any) -> None:
        context[direction][definition.params["name"]] += 1

    return action


def _holds(key: str) -> Any:
    def guard(context: dict[str, Any], _event: Any) -> bool:
        return bool(context[key])

    return guard


CHARACTER = create_machine(
    {
        "id": "character",
        "initial": "Alive",
        "context": {
            "entered": dict.fromkeys(STATE_NAMES, 0),
            "exited": dict.fromkeys(STATE_NAMES, 0),
            "move": False,
            "jump": False,
            "dead": False,
        },
        "states": {
            "Alive": _counted(
                "Alive",
                {"die": "Dead", "tick": _guarded("Dead", "dead")},
                initial="Locomotion",
                states={
                    "Locomotion": _counted(
                        "Locomotion",
                        {"jump": "Jump", "tick": _guarded("Jump", "jump")},
                        initial="Stand",
                        states={
                            "Stand": _counted(
                                "Stand", {"move": "Move", "tick": _guarded("Move", "move")}
                            ),
                            "Move": _counted("Move", {"stop": "Stand"}),
                        },
                    ),
                    "Jump": _counted("Jump", {"land": "Locomotion"}),
                },
            ),
            "Dead": _counted("Dead", {"revive": "Alive"}),
        },
    },
    logic=MachineLogic(
        actions={"entered": _count("entered"), "exited": _count("exited")},
        guards={name: _holds(name) for name in ("move", "jump", "dead")},
    ),
)


class Switch:
    """Owns an interpreter of the Off/On machine."""

    def __init__(self) -> None:
        self.interpreter = SyncInterpreter(SWITCH).start()

    def play(self, toggles: int) -> None:
        """Send ``toggle``, ``toggles`` times."""
        send = self.interpreter.send
        for _ in range(toggles):
            send("toggle")

    def is_on(self) -> bool:
        """Whether the machine is in On."""
        return self.interpreter.current_state_ids == {"switch.On"}


class Character:
    """Owns an interpreter of the character; the counters live in its context."""

    def __init__(self, counters: Counters) -> None:
        self.interpreter = SyncInterpreter(CHARACTER).start()
        # The initial entries are not counted (as for every contender): count from here.
        self.interpreter.context["entered"] = counters.entered
        self.interpreter.context["exited"] = counters.exited

    def play(self, cycles: int) -> None:
        """Send each of the script's events, ``cycles`` times."""
        send = self.interpreter.send
        for _ in range(cycles):
            for event in EVENTS:
                send(event)

    def idle(self, frames: int) -> None:
        """Send ``tick``, ``frames`` times; every guard fails."""
        send = self.interpreter.send
        for _ in range(frames):
            send("tick")

    def active(self) -> tuple[str, ...]:
        """The active states, outermost first (without the machine's root)."""
        (leaf,) = self.interpreter.current_state_ids
        return tuple(leaf.split(".")[1:])


CONTENDER = Contender("xstate-statemachine", Switch, Character)
