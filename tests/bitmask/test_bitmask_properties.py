"""Property tests: on random rule sets and request streams the machine follows the rules."""

from __future__ import annotations

from collections import deque

from bitmask_strategies import Gates, Reference, definition_data, gated, recorded, requests
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from statetree.bitmask import (
    BitCause,
    BitmaskDefinition,
    BitmaskMachine,
    PredictingClient,
    decode_mask,
    encode_mask,
    mask_problem,
    serve_prediction,
)
from statetree.errors import DefinitionError


def replay(definition: BitmaskDefinition, start: int, log: list) -> int:
    """Apply logged hook calls to ``start``, checking each hook saw exactly that mask."""
    mask = start
    for sign, state, _, seen in log:
        bit = definition.bits[definition.index_of(state)]
        mask = mask | bit if sign == "+" else mask & ~bit
        assert seen == mask
        assert mask_problem(definition, seen) is None
    return mask


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_machine_agrees_with_the_reference_and_keeps_invariants(data: st.DataObject) -> None:
    rules = data.draw(definition_data())
    stream = data.draw(requests([rule["name"] for rule in rules]))
    definition = recorded(rules)
    reference = Reference(rules)
    log: list = []
    machine = BitmaskMachine(definition, log)
    active: set[str] = set()
    for _, name, activate in stream:
        log.clear()
        before = machine.mask
        if activate:
            expected = reference.activate(active, name)
            assert machine.explain(name).can_activate is (expected is not None)
            done = machine.try_activate(name)
        else:
            expected = reference.deactivate(active, name)
            done = machine.deactivate(name)
        assert done is (expected is not None)
        active = expected if expected is not None else active
        assert set(machine.active_states) == active
        assert replay(definition, before, log) == machine.mask
        assert done or log == []
        assert reference.consistent(active)
        assert decode_mask(definition, encode_mask(definition, machine.mask)) == machine.mask


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_applying_any_reachable_mask_reaches_it_through_consistent_steps(
    data: st.DataObject,
) -> None:
    rules = data.draw(definition_data())
    names = [rule["name"] for rule in rules]
    definition = recorded(rules)
    machines = []
    for _ in range(2):
        machine = BitmaskMachine(definition, [])
        for _, name, activate in data.draw(requests(names)):
            (machine.try_activate if activate else machine.deactivate)(name)
        machines.append(machine)
    receiver, sender = machines
    receiver.owner.clear()
    start = receiver.mask
    receiver.apply_encoded(sender.encode())
    assert receiver.mask == sender.mask
    assert replay(definition, start, receiver.owner) == sender.mask
    assert {cause for _, _, cause, _ in receiver.owner} <= {BitCause.NETWORK}


raw_rules = st.dictionaries(
    st.sampled_from("ABCDE"),
    st.fixed_dictionaries(
        {},
        optional={
            key: st.lists(st.sampled_from("ABCDEF"), max_size=3)
            for key in ("requires", "terminates", "blocked_by")
        },
    ),
    min_size=1,
)


@settings(max_examples=examples(200), deadline=None)
@given(raw_rules)
def test_any_rule_set_is_either_rejected_by_name_or_sound(raw: dict) -> None:
    try:
        definition = BitmaskDefinition.from_data(raw)
    except DefinitionError as error:
        assert any(name in str(error) for name in "ABCDEF")
        return
    for index in range(definition.size):
        closure = definition.requires_all[index]
        assert not closure >> index & 1
        assert not closure & (definition.terminates[index] | definition.blocked_by[index])


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_a_predicting_client_converges_on_the_server(data: st.DataObject) -> None:
    rules = data.draw(definition_data(max_states=7))
    for rule in rules:
        rule["predictable"] = True
    names = [rule["name"] for rule in rules]
    definition = recorded(rules)
    server = BitmaskMachine(definition, [])
    client = PredictingClient(BitmaskMachine(definition, []))
    to_server: deque = deque()
    to_client: deque = deque()
    steps = st.tuples(st.sampled_from(["predict", "server", "deliver"]), st.sampled_from(names))
    for tick, (kind, name) in enumerate(data.draw(st.lists(steps, max_size=40)), start=1):
        if kind == "predict":
            request = client.predict(name)
            if request is not None:
                to_server.append(request)
        elif kind == "server":
            server.try_activate(name) if data.draw(st.booleans()) else server.deactivate(name)
        elif to_server:
            to_client.append(("verdict", serve_prediction(server, to_server.popleft(), tick)))
        to_client.append(("state", (server.encode(), tick)))
        if to_client and data.draw(st.booleans()):
            deliver(client, to_client.popleft())
        assert mask_problem(definition, client.machine.mask) is None
    last = 1000
    while to_server:
        to_client.append(("verdict", serve_prediction(server, to_server.popleft(), last)))
    to_client.append(("state", (server.encode(), last)))
    while to_client:
        deliver(client, to_client.popleft())
    assert client.pending == ()
    assert client.machine.mask == server.mask


def deliver(client: PredictingClient, message: tuple) -> None:
    kind, payload = message
    if kind == "verdict":
        client.receive_verdict(payload)
    else:
        client.receive_state(*payload)


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_can_activate_answers_exactly_what_try_activate_then_does(data: st.DataObject) -> None:
    rules = data.draw(definition_data())
    names = [rule["name"] for rule in rules]
    definition = gated(rules, data.draw(st.sets(st.sampled_from(names))))
    gates = Gates()
    machine = BitmaskMachine(definition, gates)
    for _, name, activate in data.draw(requests(names)):
        gates.closed = data.draw(st.sets(st.sampled_from(names)))
        if not activate:
            machine.deactivate(name)
            continue
        before, history = machine.mask, machine.history
        del gates[:], gates.checked[:]
        can = machine.can_activate(name)
        asked = list(gates.checked)
        assert (machine.mask, machine.history, list(gates)) == (before, history, [])
        assert can is machine.explain(name).can_activate
        gates.checked.clear()
        assert machine.try_activate(name) is can
        assert gates.checked == asked  # the custom check is asked exactly as often
        if not can:
            assert (machine.mask, machine.history, list(gates)) == (before, history, [])
