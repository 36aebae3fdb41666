"""The adapter of class-based machines (:class:`~statetree.StateMachine`)."""

from __future__ import annotations

import threading
from typing import Any

from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.core.trace import Step, StepKind
from statetree.inspect.adapters import Category, DiagramView, Event, Note, Value
from statetree.inspect.values import owner_values
from statetree.structure import Structure, derive

__all__ = ["StateMachineAdapter"]


_DERIVED: dict[type[State[Any]], Structure] = {}
_DERIVING = threading.Lock()


def _derived(initial: type[State[Any]]) -> Structure:
    # Hundreds of NPCs share a few machine classes: derive each structure once. The
    # server's threads may ask at the same time, and derivation parses source code, which
    # Python 3.11 cannot do on two threads at once (``ast.parse`` fails with
    # "AST constructor recursion depth mismatch"): one derivation at a time.
    found = _DERIVED.get(initial)
    if found is None:
        with _DERIVING:
            found = _DERIVED.get(initial)
            if found is None:
                found = _DERIVED[initial] = derive(initial)
    return found


class StateMachineAdapter:
    """Watch a :class:`~statetree.StateMachine` through its step listeners.

    Args:
        machine: the machine.
        structure: its structure; derived from the initial state's code when not given.
        name: the label on the page (default: the machine's name).
    """

    kind = "state-machine"

    def __init__(
        self,
        machine: StateMachine[Any],
        *,
        structure: Structure | None = None,
        name: str | None = None,
    ) -> None:
        self.machine = machine
        self.name = name if name is not None else machine.name
        self._structure = structure
        self._listener: Note | None = None

    @property
    def structure(self) -> Structure:
        """The structure drawn for this machine."""
        if self._structure is None:
            self._structure = _derived(self.machine.initial.target)
        return self._structure

    def view(self) -> DiagramView:
        """The machine's diagram."""
        return DiagramView(self.structure)

    def active(self) -> tuple[str, ...]:
        """The active states' names, outermost first, regions after their host."""
        name_of = self.structure.name_of
        return tuple(name_of(type(state)) for state in self.machine.walk())

    def attach(self, note: Note) -> None:
        """Add ``note`` as a listener of the machine (it receives :class:`Step` records)."""
        self.detach()
        self.machine.add_listener(note)
        self._listener = note

    def detach(self) -> None:
        """Remove the listener added by :meth:`attach`, if any."""
        if self._listener is not None:
            self.machine.remove_listener(self._listener)
            self._listener = None

    @property
    def attached(self) -> bool:
        """Whether a listener is attached."""
        return self._listener is not None

    def poll(self) -> None:
        """Nothing to poll: steps arrive through the listener."""

    def values(self) -> tuple[Value, ...]:
        """The owner's state values and public fields, as text."""
        return owner_values(self.machine.owner)

    def describe(self, raw: Any) -> Event:
        """The timeline line of a :class:`Step`."""
        step: Step = raw
        category: Category = "exit" if step.kind is StepKind.POP else "enter"
        return Event(category, step.kind.label, self.structure.name_of(step.state), step.depth)
