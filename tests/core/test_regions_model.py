"""Random machines with concurrent regions behave as a literal model of the rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as hs
from strategies import MachineSpec, World, build_classes, machine_specs, worlds

import statetree as st

SIBLING, INNER, INNER_ENTRY, CONCURRENT = range(4)


@dataclass
class Entry:
    """An active state of the model: its class index and, for a host, its regions."""

    index: int
    regions: list[list[Entry]] | None = None


@dataclass
class RegionModel:
    """Processing with regions, written as directly as the rules in docs/regions.md."""

    spec: MachineSpec
    bound: int
    stack: list[Entry] = field(default_factory=list)
    journal: list[tuple[str, int]] = field(default_factory=list)
    changes: int = 0

    def rule(self, index: int, values: list[bool]) -> tuple[int, tuple[int, ...]] | None:
        for rule in self.spec.rules[index]:
            if values[rule.var] == rule.expected:
                return rule.kind, rule.roots() if rule.kind == CONCURRENT else (rule.target,)
        return None

    def keeps(self, stack: list[Entry], pos: int, kind: int, targets: tuple[int, ...]) -> bool:
        has_next = pos + 1 < len(stack)
        regions = stack[pos].regions
        if kind == INNER:
            return has_next and stack[pos + 1].index == targets[0]
        if kind == INNER_ENTRY:
            return has_next or regions is not None
        if kind == CONCURRENT:
            return has_next or (regions is not None and all(regions))
        return False

    def first_change(self, stack: list[Entry], values: list[bool]) -> tuple | None:  # type: ignore[type-arg]
        for pos, entry in enumerate(stack):
            chosen = self.rule(entry.index, values)
            if chosen is not None and not self.keeps(stack, pos, *chosen):
                return stack, pos, *chosen
        for region in (stack[-1].regions or []) if stack else []:
            found = self.first_change(region, values)
            if found is not None:
                return found
        return None

    def pop_to(self, stack: list[Entry], size: int) -> None:
        while len(stack) > size:
            self.exit_regions(stack[-1])
            self.journal.append(("exit", stack.pop().index))

    def exit_regions(self, entry: Entry) -> None:
        for region in reversed(entry.regions or []):
            self.pop_to(region, 0)
        entry.regions = None

    def push(self, stack: list[Entry], index: int) -> None:
        stack.append(Entry(index))
        self.journal.append(("enter", index))

    def apply(self, stack: list[Entry], pos: int, kind: int, targets: tuple[int, ...]) -> None:
        if kind == SIBLING:
            self.pop_to(stack, pos)
            self.push(stack, targets[0])
            return
        host = stack[pos]
        self.pop_to(stack, pos + 1)
        if kind != CONCURRENT:
            self.exit_regions(host)
            self.push(stack, targets[0])
            return
        if host.regions is None:
            host.regions = [[] for _ in targets]
        for region, root in zip(host.regions, targets, strict=True):
            if not region:
                self.push(region, root)

    def process(self, values: list[bool]) -> None:
        if not self.stack:
            self.push(self.stack, 0)
        self.changes = 0
        found = self.first_change(self.stack, values)
        while found is not None:
            self.changes += 1
            if self.changes > self.bound:
                raise st.TransitionLoopError("", ["?"], self.bound)
            self.apply(*found)
            found = self.first_change(self.stack, values)

    def flat(self, stack: list[Entry] | None = None) -> list[int]:
        stack = self.stack if stack is None else stack
        out = [entry.index for entry in stack]
        for region in (stack[-1].regions or []) if stack else []:
            out += self.flat(region)
        return out


def settles(run: object, *args: object) -> bool:
    try:
        run(*args)  # type: ignore[operator]
    except st.TransitionLoopError:
        return False
    return True


@settings(max_examples=examples(300), deadline=None)
@given(machine_specs(regions=True), hs.data())
def test_runtime_matches_the_region_model(spec: MachineSpec, data: hs.DataObject) -> None:
    classes = build_classes(spec)
    world = World(spec.variables)
    machine = st.StateMachine(classes[0], world, max_transitions=30)
    model = RegionModel(spec, 30)
    for values in data.draw(hs.lists(worlds(spec), min_size=1, max_size=5)):
        world.values = values
        assert settles(machine.process_state_transitions) == settles(model.process, values)
        assert [classes.index(type(state)) for state in machine.stack] == model.flat()
        assert [(event, index) for event, _, index in world.journal] == model.journal
    machine.stop()
    model.pop_to(model.stack, 0)
    assert [(event, index) for event, _, index in world.journal] == model.journal
    assert world.value.value == -1
