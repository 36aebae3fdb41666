"""Shared pieces for the core tests: an owner that records every hook call."""

from __future__ import annotations

from typing import Any

import statetree as st


class Recorder:
    """Owner of test machines: flags the states read, and a log of hook calls."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.flags: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        return self.flags.get(key)


class Logged(st.State[Recorder]):
    """A state that logs enter/exit/update as ``Name.enter`` etc."""

    def on_enter(self, *args: Any, **kwargs: Any) -> None:
        suffix = f"{args}{kwargs}" if args or kwargs else ""
        self.owner.log.append(f"{type(self).__name__}.enter{suffix}")

    def on_exit(self) -> None:
        self.owner.log.append(f"{type(self).__name__}.exit")

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.owner.log.append(f"{type(self).__name__}.update")


def names(machine: st.StateMachine[Any]) -> list[str]:
    """The stack as class names, outermost first."""
    return [type(state).__name__ for state in machine.stack]
