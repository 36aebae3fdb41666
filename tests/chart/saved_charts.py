"""Hosts of chart machines and batches that can be saved: their handlers, action listener
and trace sink are methods of objects pickle finds by name, as a game's are.

Each host records what its machine or batch did (actions performed, host calls, trace
lines, loops), so that a saved and continued run can be compared with one never saved.
"""

from __future__ import annotations

from typing import Any

from batch_strategies import ECHO, Step
from batch_support import play_on_batch

from statetree.chart import (
    ActionCall,
    BatchCall,
    BatchLoopError,
    Chart,
    ChartBatch,
    ChartMachine,
    CompiledChart,
    ScriptStep,
)
from statetree.chart.batch.actions import BatchHandler
from statetree.core.trace import TraceLevel
from statetree.errors import TransitionLoopError

BOUND = 40


class MachineHost:
    """The owner of a chart machine, whose listener and sink record everything it does."""

    def __init__(self, chart: Chart) -> None:
        self.actions: list[str] = []
        self.lines: list[str] = []
        self.machine = ChartMachine(
            chart,
            name="Random",
            trace=TraceLevel.DIAGNOSTIC,
            trace_sink=self.lines.append,
            on_action=self.performed,
            max_transitions=BOUND,
            owner=self,
        )

    def performed(self, call: ActionCall) -> None:
        assert call.owner is self
        self.actions.append(str(call))

    def play(self, step: ScriptStep) -> None:
        try:
            self.machine.play(step)
        except TransitionLoopError as error:
            self.actions.append(f"loop {error.cycle} {error.timers}")

    def outcome(self) -> tuple[Any, ...]:
        """The actions performed, the trace lines, the active states and the snapshot."""
        machine = self.machine
        return self.actions, self.lines, machine.active, machine.snapshot()


class BatchHost:
    """The owner of a batch, whose handlers record every host call (``echo`` sends the
    event ``E`` back into the processing, as the batch strategies' charts expect)."""

    def __init__(self, chart: Chart | CompiledChart, count: int, backend: str = "auto") -> None:
        self.calls: list[tuple[str, list[int]]] = []
        self.batch = ChartBatch(
            chart, count, self.handlers(), max_transitions=BOUND, backend=backend
        )

    def handlers(self) -> dict[str, BatchHandler]:
        return {"host": self.host, "echo": self.echo}

    def host(self, call: BatchCall) -> None:
        self.calls.append((str(call.action), call.entities.tolist()))

    def echo(self, call: BatchCall) -> None:
        self.host(call)
        if call.phase == "enter":
            self.batch.send(ECHO, call.entities)

    def play(self, step: Step) -> None:
        alive = self.batch.alive.tolist()
        agents = [agent for agent in step.agents if agent < len(alive) and alive[agent]]
        try:
            self._play(step, agents)
        except BatchLoopError as error:
            self.calls.append((f"loop {error.cycle} {error.timers}", list(error.entities)))

    def outcome(self) -> tuple[Any, ...]:
        """The host calls and loops, and every agent (the snapshot's bytes)."""
        return self.calls, self.batch.snapshot().to_bytes()

    def _play(self, step: Step, agents: list[int]) -> None:
        if step.kind == "spawn":
            self.batch.spawn(1)
        elif step.kind == "despawn":
            self.batch.despawn(agents)
        else:
            play_on_batch(self.batch, step, agents)
