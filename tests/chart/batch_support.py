"""Twins: a ChartBatch and one ChartMachine per agent, driven by the same calls, compared.

The batch steps its agents with the compiled pass (numba) or the NumPy one: both must match
the machines.

Both engines log every host action call per agent (``str`` of the action: type, params,
state, phase) and report transition loops; ``check`` compares active states, clocks, host
calls and counts agent by agent.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from batch_strategies import ECHO, EVENTS, LEVELS, Step

from statetree import TraceLevel
from statetree.chart import (
    ActionCall,
    BatchCall,
    BatchLoopError,
    Chart,
    ChartBatch,
    ChartMachine,
    CompiledChart,
    compile_chart,
)
from statetree.chart.batch import RunningTimer
from statetree.chart.rehearse import rehearse_reload
from statetree.errors import TransitionLoopError

BOUND = 40
Loop = tuple[tuple[str, ...], bool]
"""A transition loop as reported: its cycle, and whether a tick fired too many timers."""
NO_LOOP: Loop = ((), False)


def running_timers(machine: ChartMachine) -> tuple[RunningTimer, ...]:
    """The machine's running timers in firing order, as a batch's agent view lists them."""
    live = sorted(entry for entry in machine._runtime.timers if entry[2].alive)
    return tuple(RunningTimer(timer.event.name, timer.owner, timer.due) for _, _, timer in live)


TRACED = 8
"""The first agents are traced, by the batch and by their machines: the same lines."""


class Twins:
    """A batch of ``count`` agents and a machine per agent, fed the same steps."""

    def __init__(
        self,
        chart: Chart | CompiledChart,
        count: int,
        bound: int = BOUND,
        *,
        backend: str = "numpy",
    ) -> None:
        self.chart: Chart | CompiledChart = chart
        self.bound = bound
        self.batch_calls: dict[int, list[str]] = defaultdict(list)
        self.machine_calls: dict[int, list[str]] = defaultdict(list)
        handlers = {"host": self.batch_host, "echo": self.batch_echo}
        self.batch = ChartBatch(chart, count, handlers, max_transitions=bound, backend=backend)
        # Each agent traced by the batch, and its machine traced: the same lines.
        self.batch_lines: dict[int, list[str]] = defaultdict(list)
        self.machine_lines: dict[int, list[str]] = defaultdict(list)
        self.machines = {agent: self.machine(agent) for agent in range(count)}
        self.trace_batch()
        self.batch_failed: tuple[tuple[int, ...], Loop] = ((), NO_LOOP)
        self.machines_failed: dict[int, Loop] = {}
        self.quiet = False  # echo sends nothing (while states are set from outside)

    # -- the batch's side ------------------------------------------------------------------

    def batch_host(self, call: BatchCall) -> None:
        assert list(call.entities) == sorted(set(call.entities.tolist()))
        for agent in call.entities.tolist():
            self.batch_calls[agent].append(str(call.action))

    def batch_echo(self, call: BatchCall) -> None:
        self.batch_host(call)
        if call.phase == "enter" and not self.quiet:
            self.batch.send(ECHO, call.entities)

    # -- the machines' side ----------------------------------------------------------------

    def machine(self, agent: int) -> ChartMachine:
        calls = self.machine_calls[agent]

        def host(call: ActionCall) -> None:
            calls.append(str(call))

        def echo(call: ActionCall) -> None:
            calls.append(str(call))
            if call.phase == "enter" and not self.quiet:
                machine.send(ECHO)

        machine = ChartMachine(
            self.chart,
            {"host": host, "echo": echo},
            max_transitions=self.bound,
            name=f"{self.batch.name}[{agent}]",
            trace=TraceLevel.BASIC if agent < TRACED else TraceLevel.NONE,
            trace_sink=self.machine_lines[agent].append,
        )
        return machine

    # -- driving both ----------------------------------------------------------------------

    def live(self, agents: tuple[int, ...]) -> list[int]:
        return [agent for agent in agents if agent in self.machines]

    def play(self, step: Step) -> None:
        """Do ``step`` on both engines, recording the loops each reports."""
        self.machines_failed = {}
        self.batch_failed = ((), NO_LOOP)
        if step.kind == "spawn":
            self.spawn()
        elif step.kind == "despawn":
            self.despawn(self.live(step.agents))
        else:
            whole = step.kind in ("tick", "frame")
            agents = sorted(self.machines) if whole else self.live(step.agents)
            for agent in agents:
                self.on_machine(agent, step)
            self.on_batch(step, agents)

    def on_machine(self, agent: int, step: Step) -> None:
        machine = self.machines[agent]
        try:
            if step.kind == "tick":
                machine.tick(step.dt)
            elif step.kind == "frame":
                choice = step.choices[agent] if agent < len(step.choices) else -1
                if choice >= 0:
                    machine.send(EVENTS[choice])
                machine.tick(step.dt)
            elif step.kind == "start":
                machine.start()
            elif step.kind == "stop":
                machine.stop()
            elif step.kind == "send_each":
                choice = step.choices[step.agents.index(agent)]
                if choice >= 0:
                    machine.send(EVENTS[choice])
            elif step.kind == "levels":
                bits = step.choices[step.agents.index(agent)]
                machine.set_levels({e: bool(bits >> i & 1) for i, e in enumerate(LEVELS)})
            else:
                assert step.event is not None
                {"send": machine.send, "hold": machine.hold, "release": machine.release}[step.kind](
                    step.event
                )
        except TransitionLoopError as error:
            self.machines_failed[agent] = (error.cycle, error.timers)

    def on_batch(self, step: Step, agents: list[int]) -> None:
        try:
            play_on_batch(self.batch, step, agents)
        except BatchLoopError as error:
            self.batch_failed = (error.entities, (error.cycle, error.timers))

    def reload(self, chart: Chart) -> None:
        """Reload ``chart`` into every machine and the batch; their reports must agree.

        A reload that some agent's machine refuses (it would not settle) is refused by the
        batch as a whole, naming those agents: then nothing changes, in any engine.
        """
        self.machines_failed = {}
        self.batch_failed = ((), NO_LOOP)
        compiled = compile_chart(chart)
        refusing = []
        for agent, machine in self.machines.items():
            try:
                rehearse_reload(machine.machine, compiled)
            except TransitionLoopError:
                refusing.append(agent)
        if refusing:
            with pytest.raises(BatchLoopError) as failure:
                self.batch.reload(chart)
            assert failure.value.entities == tuple(sorted(refusing))
            return
        saved = {agent: machine.snapshot() for agent, machine in self.machines.items()}
        before = self.batch.snapshot()
        kept: set[str] = set()
        exited: set[str] = set()
        entered: set[str] = set()
        for agent, machine in self.machines.items():
            try:  # the rehearsal performs no host action: an echo can still loop now
                report = machine.reload(chart)
            except TransitionLoopError as error:  # that machine is back on the old chart
                self.machines_failed[agent] = (error.cycle, error.timers)
                continue
            kept.update(report.kept)
            exited.update(report.exited)
            entered.update(report.entered)
        try:
            report = self.batch.reload(chart)
        except BatchLoopError as error:
            # The batch runs one chart: every agent is back as it was, its calls made.
            self.batch_failed = (error.entities, (error.cycle, error.timers))
            assert self.batch.snapshot().to_bytes() == before.to_bytes()
            self.forget_lines()  # the machines traced a reload the batch undid
            for agent, snapshot in saved.items():
                self.machines[agent] = self.machine(agent)
                self.machines[agent].restore(snapshot)
            return
        assert not self.machines_failed, "the batch reloaded where a machine looped"
        self.chart = chart  # agents spawned from now on run it
        assert (set(report.kept), set(report.exited)) == (kept, exited)
        assert set(report.entered) == entered, (report, entered)

    def spawn(self) -> None:
        free = [slot for slot in range(self.batch.size) if slot not in self.machines]
        (agent,) = self.batch.spawn(1).tolist()
        assert agent == (free[0] if free else self.batch.size - 1)
        self.batch_calls[agent].clear()
        self.machine_calls[agent].clear()
        self.batch_lines[agent].clear()
        self.machine_lines[agent].clear()
        if agent < TRACED:
            self.batch.trace(agent, sink=self.batch_lines[agent].append)
        self.machines[agent] = self.machine(agent)

    def despawn(self, agents: list[int]) -> None:
        for agent in agents:
            self.machines.pop(agent).machine.stop()
        self.batch.despawn(agents)

    def trace_batch(self) -> None:
        """Trace the first agents by the batch (a batch restored traces none)."""
        for agent in sorted(self.machines):
            if agent < TRACED:
                self.batch.trace(agent, sink=self.batch_lines[agent].append)

    def forget_lines(self) -> None:
        for lines in (*self.batch_lines.values(), *self.machine_lines.values()):
            lines.clear()

    # -- comparing -------------------------------------------------------------------------

    def check(self, context: object = "") -> None:
        """Every agent as its machine: active states, clock, host calls; then loops, counts."""
        batch = self.batch
        assert batch.alive.tolist() == [slot in self.machines for slot in range(batch.size)]
        for agent, machine in self.machines.items():
            where = f"agent {agent} after {context}"
            assert batch.active(agent) == machine.active, where
            assert batch.agent(agent).clock == machine.clock, where
            assert batch.agent(agent).timers == running_timers(machine), where
            assert self.batch_calls[agent] == self.machine_calls[agent], where
            assert self.batch_lines[agent] == self.machine_lines[agent], where
        failed = tuple(sorted(self.machines_failed))
        assert self.batch_failed[0] == failed, f"loops after {context}"
        if failed:
            assert self.batch_failed[1] == self.machines_failed[failed[0]]
        expected = {path: 0 for path in batch.counts()}
        for machine in self.machines.values():
            for path in machine.active:
                expected[path] += 1
        assert batch.counts() == expected


def play_on_batch(batch: ChartBatch, step: Step, agents: list[int]) -> None:
    """Do ``step`` (not a spawn or despawn) on ``batch``, for the live ``agents`` it names
    (for a tick or a frame: every live agent).

    Raises:
        BatchLoopError: an agent did not settle.
    """
    if step.kind == "tick":
        batch.tick(step.dt)
    elif step.kind == "frame":
        live = set(agents)
        choices = [c if n in live else -1 for n, c in enumerate(step.choices)]
        batch.frame(step.dt, EVENTS, choices[: batch.size] + [-1] * (batch.size - len(choices)))
    elif step.kind == "start":
        batch.start(agents)
    elif step.kind == "stop":
        batch.stop(agents)
    elif step.kind == "send_each":
        choices = [step.choices[step.agents.index(agent)] for agent in agents]
        batch.send_each(EVENTS, choices, agents)
    elif step.kind == "levels":
        bits = np.array([step.choices[step.agents.index(a)] for a in agents], np.intp)
        levels = {e: (bits >> i & 1).astype(bool) for i, e in enumerate(LEVELS)}
        batch.set_levels(levels, agents)
    else:
        assert step.event is not None
        {"send": batch.send, "hold": batch.hold, "release": batch.release}[step.kind](
            step.event, agents
        )
