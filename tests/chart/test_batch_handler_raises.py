"""A handler that raises aborts the batch's call: every agent with host calls left (the
raising call's included) keeps what it had before the call, also an agent a handler sent
to, which finishes the call as a ChartMachine; the others keep what the call did."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionType,
    BatchCall,
    BatchLoopError,
    Chart,
    ChartBatch,
    ChartMachine,
    Event,
    Param,
)
from statetree.chart import builder as b
from statetree.errors import TransitionLoopError, UsageError

CHART = b.chart(
    "C",
    b.state(
        "Top",
        b.state("A", transitions=[b.on(b.input("Go"), "B")]),
        b.state(
            "B",
            enter=[b.action("echo"), b.action("host", tag=1), b.action("host", tag=2)],
            transitions=[b.on(b.input("Go"), "A")],
        ),
    ),
    registry=DEFAULT_REGISTRY.with_actions(
        ActionType("echo"), ActionType("host", (Param("tag", int),))
    ),
)
GO, NOTHING = Event("input", "Go"), Event("event", "Nothing")
NO_NUMBA = find_spec("numba") is None
BACKENDS = [
    pytest.param("numba", marks=pytest.mark.skipif(NO_NUMBA, reason="the numba pass needs numba")),
    "numpy",
]


class Refused(Exception):
    pass


class Host:
    """The handlers: echo may send Nothing back to its agents; host(tag=1) raises for the
    agents in ``refuse``."""

    def __init__(self, *, echo_sends: bool, refuse: set[int]) -> None:
        self.echo_sends, self.refuse = echo_sends, refuse
        self.calls: list[tuple[str, list[int]]] = []
        self.batch: ChartBatch | None = None

    def echo(self, call: BatchCall) -> None:
        self.calls.append(("echo", call.entities.tolist()))
        if self.echo_sends and self.batch is not None:
            self.batch.send(NOTHING, call.entities)

    def host(self, call: BatchCall) -> None:
        self.calls.append((f"host {call.params['tag']}", call.entities.tolist()))
        if call.params["tag"] == 1 and self.refuse & set(call.entities.tolist()):
            raise Refused


def crowd(host: Host, backend: str) -> ChartBatch:
    batch = ChartBatch(CHART, 3, {"echo": host.echo, "host": host.host}, backend=backend)
    host.batch = batch
    batch.start()
    batch.send(GO, [2])  # agent 2 is in B before the call that fails
    host.calls.clear()
    return batch


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("echo_sends", [False, True], ids=["in buckets", "sent to"])
def test_agents_with_calls_left_keep_what_they_had(backend: str, echo_sends: bool) -> None:
    host = Host(echo_sends=echo_sends, refuse={0})
    batch = crowd(host, backend)
    with pytest.raises(Refused):
        batch.send(GO, [0, 1, 2])
    # Agent 2 went back to A with nothing left to call: it keeps that.
    assert [batch.active(agent)[-1] for agent in range(3)] == ["Top.A", "Top.A", "Top.A"]
    if echo_sends:  # each sent-to agent finishes on its own machine, in agent order
        assert host.calls == [("echo", [0, 1]), ("host 1", [0])]
    else:
        assert host.calls == [("echo", [0, 1]), ("host 1", [0, 1])]
    host.refuse.clear()
    host.calls.clear()
    batch.send(GO, [0, 1])  # nothing was half done: the call goes through as it would have
    assert [batch.active(agent)[-1] for agent in range(2)] == ["Top.B", "Top.B"]
    assert host.calls[-2:] == (
        [("host 1", [1]), ("host 2", [1])]
        if echo_sends
        else [("host 1", [0, 1]), ("host 2", [0, 1])]
    )


LOOPING = b.chart(
    "L",
    b.state(
        "Top",
        b.state("Idle", transitions=[b.on(b.input("Loop"), "W"), b.on(b.input("Go"), "B")]),
        b.state("W", enter=[b.start_timer("T", 0.0)], transitions=[b.on(b.timer("T"), "G")]),
        b.state("G", enter=[b.start_timer("T", 0.0)], transitions=[b.on(b.timer("T"), "W")]),
        b.state("B", enter=[b.start_timer("U", 0.5)], transitions=[b.on(b.timer("U"), "C")]),
        b.state("C", enter=[b.action("host")]),
    ),
    registry=DEFAULT_REGISTRY.with_actions(ActionType("host")),
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_agent_that_did_not_settle_keeps_what_it_had_too(backend: str) -> None:
    def host(call: BatchCall) -> None:
        raise Refused

    batch = ChartBatch(LOOPING, 2, {"host": host}, max_transitions=10, backend=backend)
    batch.send(Event("input", "Loop"), [0])  # its timer fires forever: it will not settle
    batch.send(Event("input", "Go"), [1])  # its timer enters C, whose host call raises

    def agents() -> list[tuple[object, ...]]:
        return [(v.active, v.clock, v.timers) for v in map(batch.agent, range(2))]

    before = agents()
    with pytest.raises(Refused):
        batch.tick(1.0)
    assert agents() == before  # the clocks too: no timer of agent 0 is overdue
    assert [shard.agent(0).clock for shard in batch.split(2)] == [0.0, 0.0]


TIMED = DEFAULT_REGISTRY.with_actions(ActionType("host", (Param("tag", int),)))
OLD = b.chart(
    "R",
    b.state(
        "Top",
        b.state("A", enter=[b.start_timer("T", 1.0)], exit=[b.action("host", tag=1)]),
        b.state("B"),
    ),
    registry=TIMED,
)
NEW = b.chart(
    "R",
    b.state(
        "Top",
        b.state("A2", enter=[b.action("host", tag=2), b.start_timer("U", 0.5)]),
        b.state("B"),
    ),
    registry=TIMED,
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_handler_raising_in_a_reload_undoes_it_for_every_agent(backend: str) -> None:
    calls: list[tuple[int, list[int]]] = []

    def host(call: BatchCall) -> None:
        calls.append((call.params["tag"], call.entities.tolist()))
        if call.params["tag"] == 2:
            raise Refused

    batch = ChartBatch(OLD, 2, {"host": host}, backend=backend)
    batch.start()
    batch.tick(0.25)
    before = [(v.active, v.clock, v.timers) for v in map(batch.agent, range(2))]
    compiled = batch.compiled
    with pytest.raises(Refused):
        batch.reload(NEW)
    assert calls == [(1, [0, 1]), (2, [0, 1])]
    assert batch.compiled is compiled
    assert [(v.active, v.clock, v.timers) for v in map(batch.agent, range(2))] == before
    batch.tick(1.0)  # it goes on as before: A's timer fires, nothing else ran
    assert [batch.active(agent)[-1] for agent in range(2)] == ["Top.A", "Top.A"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_handler_sending_from_a_reloads_exits_undoes_the_reload(backend: str) -> None:
    def host(call: BatchCall) -> None:
        if call.params["tag"] == 1:  # the exit of A, which the reload makes outside processing
            batch.send(Event("event", "E"), call.entities)

    batch = ChartBatch(OLD, 1, {"host": host}, backend=backend)
    batch.start()
    compiled = batch.compiled
    with pytest.raises(UsageError) as refused:
        batch.reload(NEW)
    assert str(refused.value) == (
        "a handler sent event E to agent 0 while it exits states outside a processing (a "
        "reload's exits), where its machine takes no event; send it after this call returns"
    )
    assert (batch.compiled, batch.active(0)) == (compiled, ("Top", "Top.A"))


def _two_timers(stopping: bool) -> Chart:
    """Two regions with a timer each; without ``stopping``, B1 starts no timer any more (so
    a reload exits it, and the batch's timer rows are laid out anew)."""
    left = b.state("A", b.state("A1", enter=[b.start_timer("Ta", 1.0)]))
    enter = [b.start_timer("Tb", 1.0)] if stopping else []
    exits = [b.action("host", tag=1)] if stopping else []
    right = b.state("B", b.state("B1", enter=enter, exit=exits))
    return b.chart("C", b.state("Top", left, right, policy="concurrent"), registry=TIMED)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_send_from_a_reloads_exits_is_refused_when_the_timer_rows_change(backend: str) -> None:
    def host(call: BatchCall) -> None:
        batch.send(Event("event", "E"), call.entities)

    batch = ChartBatch(_two_timers(True), 2, {"host": host}, backend=backend)
    batch.start()
    before = batch.snapshot().to_bytes()
    with pytest.raises(UsageError, match="while it exits states outside a processing"):
        batch.reload(_two_timers(False))
    assert batch.snapshot().to_bytes() == before
    assert batch.chart == _two_timers(True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_agent_the_call_started_keeps_its_start_when_a_handler_raises(backend: str) -> None:
    registry = DEFAULT_REGISTRY.with_actions(ActionType("host", (Param("tag", int),)))
    chart = b.chart(
        "S",
        b.state(
            "Top",
            b.state("A", transitions=[b.on(b.input("Go"), "B")]),
            b.state("B", enter=[b.action("host", tag=2)]),
            enter=[b.action("host", tag=1)],
        ),
        registry=registry,
    )
    made: list[tuple[int, list[int]]] = []

    def host(call: BatchCall) -> None:
        if call.params["tag"] == 2:
            raise Refused
        made.append((int(call.params["tag"]), call.entities.tolist()))  # type: ignore[arg-type]

    batch = ChartBatch(chart, 2, {"host": host}, backend=backend)
    with pytest.raises(Refused):
        batch.send(GO, [1])  # starts agent 1 (Top entered: tag 1), then Go enters B: raises
    assert made == [(1, [1])]
    assert (batch.active(0), batch.active(1)) == ((), ("Top", "Top.A"))  # as once started


PING = DEFAULT_REGISTRY.with_actions(ActionType("ping"))
STILL = b.chart("P", b.state("Top", b.state("Idle")), registry=PING)
PINGING = b.chart(
    "P",
    b.state(
        "Top",
        b.state("Ping", enter=[b.action("ping")], transitions=[b.on(b.input("X"), "Pong")]),
        b.state("Pong", enter=[b.action("ping")], transitions=[b.on(b.input("X"), "Ping")]),
    ),
    registry=PING,
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_send_that_makes_agents_loop_after_a_reload_undoes_it_for_every_agent(
    backend: str,
) -> None:
    # The rehearsal performs no host action, so only the reload itself finds the loop: a
    # machine is put back on its old chart, and so is every agent of the one-chart batch.
    answering = {1, 3}  # the agents whose handler answers every ping with X
    pings: list[list[int]] = []

    def ping(call: BatchCall) -> None:
        pings.append(call.entities.tolist())
        mine = [agent for agent in call.entities.tolist() if agent in answering]
        if mine:
            batch.send(Event("input", "X"), mine)

    batch = ChartBatch(STILL, 4, {"ping": ping}, max_transitions=6, backend=backend)
    batch.start()
    before = batch.snapshot().to_bytes()
    with pytest.raises(BatchLoopError) as looped:
        batch.reload(PINGING)
    assert looped.value.entities == (1, 3)
    assert set(looped.value.cycle) == {"Top.Ping", "Top.Pong"}
    replayed = (len(pings) - 1) // 2  # agents 1 then 3, each replayed as its machine
    assert pings == [[0, 1, 2, 3]] + [[1]] * replayed + [[3]] * replayed
    assert replayed > 1
    assert batch.compiled.chart == STILL
    assert batch.snapshot().to_bytes() == before
    answering.clear()  # the same reload goes through once nothing answers
    assert batch.reload(PINGING).entered == ("Top.Ping",)
    assert [batch.active(agent) for agent in range(4)] == [("Top", "Top.Ping")] * 4

    answer = {"ping": lambda call: machine.send(Event("input", "X"))}
    machine = ChartMachine(STILL, answer, max_transitions=6)
    machine.start()
    with pytest.raises(TransitionLoopError) as alone:
        machine.reload(PINGING)
    assert (alone.value.cycle, machine.compiled.chart) == (looped.value.cycle, STILL)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_despawn_whose_handler_raises_removes_the_agents_it_finished(backend: str) -> None:
    leaving = b.chart(
        "Bot",
        b.state(
            "Top",
            b.state("Idle", transitions=[b.on(b.input("Go"), "Busy")]),
            b.state("Busy", exit=[b.action("host", tag=1)]),
        ),
        registry=CHART.registry,
    )
    host = Host(echo_sends=False, refuse={0})
    bots = ChartBatch(leaving, 3, {"host": host.host}, backend=backend)
    bots.start()
    bots.send(GO, [0])  # agent 0 busy: leaving makes a call, which raises; 1 leaves quietly
    with pytest.raises(Refused):
        bots.despawn([0, 1])
    assert bots.alive.tolist() == [True, False, True] and bots.population == 2
    assert bots.active(0) == ("Top", "Top.Busy")  # put back, as before the call
    assert bots.spawn(1).tolist() == [1]  # agent 1's slot is free


@pytest.mark.parametrize("backend", BACKENDS)
def test_stop_exits_agents_as_their_machines_stop_and_a_later_call_starts_them(
    backend: str,
) -> None:
    host = Host(echo_sends=False, refuse=set())
    handlers = {"echo": lambda call: None, "host": host.host}
    batch = ChartBatch(CHART, 3, handlers, backend=backend)
    machines = [
        ChartMachine(CHART, {"echo": lambda call: None, "host": lambda c: None}) for _ in range(3)
    ]
    batch.start([0, 1])
    batch.send(GO, [1])
    batch.tick(0.5)
    for number, machine in enumerate(machines[:2]):
        machine.start()
        if number == 1:
            machine.send(GO)
        machine.tick(0.5)
    host.calls.clear()

    batch.stop([1, 2])  # agent 2 has not started: left as it is
    machines[1].stop()
    assert [batch.active(n) for n in range(3)] == [m.active for m in machines]
    assert batch.active(1) == () and batch.agent(1).clock == machines[1].clock == 0.5
    assert host.calls == []  # B has no exit actions; its timers and enter calls are gone
    batch.send(GO, [1])  # the next call starts it again, as a machine's does
    machines[1].send(GO)
    assert batch.active(1) == machines[1].active
