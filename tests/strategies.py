"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as hs

import statetree as st

KINDS = (st.sibling, st.inner, st.inner_entry)


@dataclass(frozen=True)
class Rule:
    """``if world[var] == expected: return KINDS[kind](states[target])``.

    Kind 3 is ``st.concurrent(states[target], states[partner])`` (one region when equal).
    """

    var: int
    expected: bool
    kind: int
    target: int
    partner: int = 0

    def roots(self) -> tuple[int, ...]:
        """The region roots of a concurrent rule."""
        return (self.target,) if self.partner == self.target else (self.target, self.partner)


@dataclass(frozen=True)
class MachineSpec:
    """A random machine: per state, an ordered list of rules; state 0 is initial."""

    rules: tuple[tuple[Rule, ...], ...]
    variables: int


@hs.composite
def machine_specs(
    draw: hs.DrawFn, max_states: int = 7, variables: int = 3, regions: bool = False
) -> MachineSpec:
    """Random machines; with ``regions``, rules may also enter concurrent regions."""
    count = draw(hs.integers(2, max_states))
    rule = hs.builds(
        Rule,
        var=hs.integers(0, variables - 1),
        expected=hs.booleans(),
        kind=hs.integers(0, 3 if regions else 2),
        target=hs.integers(0, count - 1),
        partner=hs.integers(0, count - 1),
    )
    rules = tuple(tuple(draw(hs.lists(rule, max_size=3))) for _ in range(count))
    return MachineSpec(rules, variables)


def worlds(spec: MachineSpec) -> hs.SearchStrategy[list[bool]]:
    """Random values of the spec's world variables."""
    return hs.lists(hs.booleans(), min_size=spec.variables, max_size=spec.variables)


class World:
    """Owner of generated machines: the variables rules read and a journal of hooks."""

    def __init__(self, variables: int) -> None:
        self.values = [False] * variables
        self.journal: list[tuple[str, int, int]] = []  # (event, instance id, class index)
        self.value = st.StateValue(-1)


def build_classes(spec: MachineSpec) -> list[type[st.State[World]]]:
    """State classes implementing ``spec``; each sets ``World.value`` to its index."""
    classes: list[type[st.State[World]]] = []

    def make(index: int, rules: tuple[Rule, ...]) -> type[st.State[World]]:
        def on_enter(self: st.State[World]) -> None:
            self.owner.journal.append(("enter", id(self), index))
            self.set_state_value(self.owner.value, index)

        def on_exit(self: st.State[World]) -> None:
            self.owner.journal.append(("exit", id(self), index))

        def transition(self: st.State[World]) -> st.Transition | None:
            for rule in rules:
                if self.owner.values[rule.var] == rule.expected:
                    if rule.kind == 3:
                        return st.concurrent(*(classes[root] for root in rule.roots()))
                    return KINDS[rule.kind](classes[rule.target])
            return None

        namespace: dict[str, Any] = {
            "on_enter": on_enter,
            "on_exit": on_exit,
            "transition": transition,
        }
        return type(f"S{index}", (st.State,), namespace)

    classes.extend(make(i, rules) for i, rules in enumerate(spec.rules))
    return classes
