"""Invariants of the runtime on random machines driven by random worlds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as hs
from strategies import MachineSpec, World, build_classes, machine_specs, worlds

import statetree as st


def live_instances(world: World) -> list[int]:
    """Instances entered and not yet exited, in order of entry."""
    live: list[int] = []
    for event, ident, _ in world.journal:
        if event == "enter":
            assert ident not in live, "an instance was entered twice"
            live.append(ident)
        else:
            assert ident in live, "an instance was exited without being entered"
            live.remove(ident)
    return live


def check_consistent(machine: st.StateMachine[World], world: World) -> None:
    stack = machine.stack
    assert [id(state) for state in stack] == live_instances(world)
    assert [state.depth for state in stack] == list(range(len(stack)))
    # The innermost state set the value last; nothing else may show.
    assert world.value.value == (type(stack[-1]).index if stack else -1)  # type: ignore[attr-defined]


def drive(spec: MachineSpec, inputs: list[list[bool]]) -> tuple[st.StateMachine[World], World]:
    classes = build_classes(spec)
    for index, cls in enumerate(classes):
        cls.index = index  # type: ignore[attr-defined]
    world = World(spec.variables)
    machine = st.StateMachine(classes[0], world, max_transitions=60)
    for values in inputs:
        world.values = values
        try:
            machine.process_state_transitions()
        except st.TransitionLoopError:
            check_consistent(machine, world)
            continue
        check_consistent(machine, world)
        before = [id(state) for state in machine.stack]
        journal_size = len(world.journal)
        machine.process_state_transitions()
        assert [id(state) for state in machine.stack] == before, "second call changed stack"
        assert len(world.journal) == journal_size, "second call ran hooks"
    return machine, world


class Model:
    """The book's pseudo-code, literally, on a stack of class indices."""

    def __init__(self, spec: MachineSpec, bound: int) -> None:
        self.spec = spec
        self.bound = bound
        self.stack: list[int] = []
        self.journal: list[tuple[str, int]] = []

    def chosen(self, index: int, values: list[bool]) -> tuple[int, int] | None:
        for rule in self.spec.rules[index]:
            if values[rule.var] == rule.expected:
                return rule.kind, rule.target
        return None

    def pop_to(self, depth: int) -> None:
        while len(self.stack) > depth:
            self.journal.append(("exit", self.stack.pop()))

    def push(self, index: int) -> None:
        self.stack.append(index)
        self.journal.append(("enter", index))

    def once(self, values: list[bool]) -> bool:
        for depth, index in enumerate(self.stack):
            chosen = self.chosen(index, values)
            if chosen is None:
                continue
            kind, target = chosen
            has_inner = depth + 1 < len(self.stack)
            if kind == 2 and has_inner:  # inner_entry
                continue
            if kind == 1 and has_inner and self.stack[depth + 1] == target:  # inner
                continue
            return self.change(kind, depth, target)
        return False

    def change(self, kind: int, depth: int, target: int) -> bool:
        self.changes += 1
        if self.changes > self.bound:
            raise st.TransitionLoopError("", ["?"], self.bound)
        self.pop_to(depth if kind == 0 else depth + 1)
        self.push(target)
        return True

    def process(self, values: list[bool]) -> None:
        if not self.stack:
            self.push(0)
        self.changes = 0
        while self.once(values):
            pass


def outcome(run: Callable[..., None], *args: object) -> str:
    try:
        run(*args)
    except st.TransitionLoopError:
        return "loop"
    return "settled"


@settings(max_examples=examples(300), deadline=None)
@given(machine_specs(), hs.data())
def test_runtime_matches_the_books_algorithm(spec: MachineSpec, data: hs.DataObject) -> None:
    classes = build_classes(spec)
    world = World(spec.variables)
    machine = st.StateMachine(classes[0], world, max_transitions=40)
    model = Model(spec, 40)
    for values in data.draw(hs.lists(worlds(spec), min_size=1, max_size=6)):
        world.values = values
        assert outcome(machine.process_state_transitions) == outcome(model.process, values)
        assert [classes.index(type(state)) for state in machine.stack] == model.stack
        assert [(event, index) for event, _, index in world.journal] == model.journal


@hs.composite
def scenarios(draw: hs.DrawFn) -> tuple[MachineSpec, list[list[bool]]]:
    spec = draw(machine_specs())
    return spec, draw(hs.lists(worlds(spec), min_size=1, max_size=8))


@settings(max_examples=examples(300), deadline=None)
@given(scenarios())
def test_random_machines_keep_their_invariants(scenario: tuple[MachineSpec, Any]) -> None:
    spec, inputs = scenario
    machine, world = drive(spec, inputs)
    machine.stop()
    assert machine.stack == ()
    assert live_instances(world) == []
    assert world.value.value == -1, "every state value is restored after stop()"


@settings(max_examples=examples(100), deadline=None)
@given(scenarios())
def test_same_inputs_give_the_same_run(scenario: tuple[MachineSpec, Any]) -> None:
    spec, inputs = scenario
    first = [(event, index) for event, _, index in drive(spec, inputs)[1].journal]
    second = [(event, index) for event, _, index in drive(spec, inputs)[1].journal]
    assert first == second
