"""Recording the edges a running machine takes, to compare them with its structure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.core.trace import Step, StepKind
from statetree.core.transition import TransitionKind
from statetree.errors import UsageError
from statetree.structure.model import Edge

__all__ = ["EdgeRecorder"]

Namer = Callable[[type[State[Any]]], str]

_PUSHES = {
    StepKind.SIBLING: TransitionKind.SIBLING,
    StepKind.INNER: TransitionKind.INNER,
    StepKind.ENTRY: TransitionKind.INNER_ENTRY,
    StepKind.REGION: TransitionKind.CONCURRENT,
}


def _qualname(cls: type[State[Any]]) -> str:
    return cls.__qualname__


class EdgeRecorder:
    """A machine listener that records each edge taken (source, target, kind) and how often.

    A sibling's source is the state it replaced; an inner's (or a region root's) source is
    the state just outside it. Attach with :meth:`attach`, run the machine, then compare:
    ``structure.unpredicted(recorder.edges)``.

    Args:
        namer: how a class is named in the recorded edges; pass ``structure.name_of`` to
            use the names of a structure (the default is the qualified name).
        machine: the machine listened to. With it, the outer of each pushed state is read
            from the machine, which is right for machines with concurrent regions too;
            without it, the recorder follows the steps' depths, which is right for machines
            without regions. :meth:`attach` passes it.

    Raises:
        UsageError: ``namer`` is not callable, or ``machine`` is not a ``StateMachine``.
    """

    __slots__ = ("_counts", "_known", "_machine", "_namer", "_popped", "_stack", "_visited")

    def __init__(
        self, namer: Namer | None = None, machine: StateMachine[Any] | None = None
    ) -> None:
        if namer is not None and not callable(namer):
            hint = ": attach to a machine with EdgeRecorder.attach(machine)"
            raise UsageError(
                f"an EdgeRecorder's namer names a state class, got {namer!r}"
                f"{hint if isinstance(namer, StateMachine) else ''}"
            )
        if machine is not None and not isinstance(machine, StateMachine):
            raise UsageError(f"an EdgeRecorder listens to a StateMachine, got {machine!r}")
        self._namer: Namer = namer or _qualname
        self._machine = machine
        self._known: list[State[Any]] = machine.walk() if machine is not None else []
        self._stack: list[type[State[Any]]] = [type(state) for state in self._known]
        self._popped: dict[int, type[State[Any]]] = {}
        self._counts: dict[Edge, int] = {}
        self._visited = dict.fromkeys(self._namer(cls) for cls in self._stack)

    @classmethod
    def attach(cls, machine: StateMachine[Any], namer: Namer | None = None) -> EdgeRecorder:
        """A recorder listening to ``machine``, which may already be running."""
        recorder = cls(namer, machine)
        machine.add_listener(recorder)
        return recorder

    def __call__(self, step: Step) -> None:
        """Take one step of the machine (called by the machine as a listener)."""
        outer = self._outer_in_machine(step)
        if step.kind is StepKind.POP:
            self._popped[step.depth] = step.state
            del self._stack[step.depth :]
            return
        source = self._source(step, outer)
        if source is not None:
            edge = Edge(self._namer(source), self._namer(step.state), _PUSHES[step.kind])
            self._counts[edge] = self._counts.get(edge, 0) + 1
        self._stack[step.depth :] = [step.state]
        self._visited[self._namer(step.state)] = None

    def _source(self, step: Step, outer: type[State[Any]] | None) -> type[State[Any]] | None:
        if step.kind is StepKind.INIT:
            return None
        if step.kind is StepKind.SIBLING:
            # The replaced state and its inners were popped innermost first: it was last.
            return self._popped.get(step.depth)
        if self._machine is not None:
            return outer
        depth = step.depth - 1
        return self._stack[depth] if 0 <= depth < len(self._stack) else None

    def _outer_in_machine(self, step: Step) -> type[State[Any]] | None:
        """The class of the state right outside the state ``step`` pushed, read from the
        machine (its active states, depth first: the outer is the nearest earlier state
        one level up)."""
        if self._machine is None:
            return None
        states = self._machine.walk()
        known = {id(state) for state in self._known}
        self._known = states  # holding them keeps their ids from being reused
        if step.kind is StepKind.POP:
            return None
        pushed = [s for s in states if id(s) not in known and type(s) is step.state]
        if not pushed:
            return None
        index = next(i for i, s in enumerate(states) if s is pushed[-1])
        for state in reversed(states[:index]):
            if state.depth == step.depth - 1:
                return type(state)
        return None

    @property
    def edges(self) -> tuple[Edge, ...]:
        """The distinct edges taken, in the order they were first taken."""
        return tuple(self._counts)

    @property
    def states(self) -> tuple[str, ...]:
        """The names of the states entered, in the order they were first entered."""
        return tuple(self._visited)

    def count(self, edge: Edge) -> int:
        """How many times ``edge`` was taken."""
        return self._counts.get(edge, 0)
