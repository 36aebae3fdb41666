"""Hypothesis strategies and a set-based reference model shared by the bitmask tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from statetree.bitmask import BitCause, BitmaskDefinition, BitState

Request = tuple[int, str, bool]
"""(entity, state name, True to activate / False to deactivate)."""


def _closure(requires: Mapping[str, set[str]], name: str) -> set[str]:
    seen: set[str] = set()
    todo = list(requires[name])
    while todo:
        ref = todo.pop()
        if ref not in seen:
            seen.add(ref)
            todo.extend(requires[ref])
    return seen


@st.composite
def definition_data(draw: st.DrawFn, min_states: int = 1, max_states: int = 9) -> list[dict]:
    """Random valid rule sets as data: acyclic requirements, no conflicting rules."""
    count = draw(st.integers(min_states, max_states))
    names = [f"S{i}" for i in range(count)]
    # A random topological rank lets requirements point both up and down the bit order.
    rank = draw(st.permutations(range(count)))
    edges = st.tuples(st.integers(0, count - 1), st.integers(0, count - 1))
    edge_budget = min(3 * count, 60)
    requires: dict[str, set[str]] = {name: set() for name in names}
    for a, b in draw(st.lists(edges, max_size=edge_budget)):
        if rank[b] < rank[a]:
            requires[names[a]].add(names[b])
    terminates: dict[str, set[str]] = {name: set() for name in names}
    blocked: dict[str, set[str]] = {name: set() for name in names}
    for rule in (terminates, blocked):
        for a, b in draw(st.lists(edges, max_size=edge_budget)):
            if a != b and names[b] not in _closure(requires, names[a]):
                rule[names[a]].add(names[b])
    flags = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    return [
        {
            "name": name,
            "requires": sorted(requires[name]),
            "terminates": sorted(terminates[name]),
            "blocked_by": sorted(blocked[name]),
            "retriggerable": flags[i],
        }
        for i, name in enumerate(names)
    ]


def requests(names: Sequence[str], entities: int = 1, max_size: int = 40) -> st.SearchStrategy:
    """Request streams over the given states: about three activations per deactivation."""
    return st.lists(
        st.tuples(
            st.integers(0, entities - 1),
            st.sampled_from(list(names)),
            st.sampled_from([True, True, True, False]),
        ),
        max_size=max_size,
    )


@dataclass
class Reference:
    """The rules written out plainly with sets, independent of the mask implementation."""

    rules: Sequence[Mapping]

    def __post_init__(self) -> None:
        self.by_name = {rule["name"]: rule for rule in self.rules}

    def _cascade(self, active: set[str]) -> set[str]:
        changed = True
        while changed:
            broken = {s for s in active if not set(self.by_name[s]["requires"]) <= active}
            active = active - broken
            changed = bool(broken)
        return active

    def activate(self, active: set[str], name: str) -> set[str] | None:
        rule = self.by_name[name]
        if name in active and not rule["retriggerable"]:
            return None
        if set(rule["blocked_by"]) & active or not set(rule["requires"]) <= active:
            return None
        remaining = active - set(rule["terminates"]) - {name}
        return self._cascade(remaining) | {name}

    def deactivate(self, active: set[str], name: str) -> set[str] | None:
        if name not in active:
            return None
        return self._cascade(active - {name})

    def consistent(self, active: Iterable[str]) -> bool:
        active = set(active)
        return all(set(self.by_name[s]["requires"]) <= active for s in active)


class Recorder(BitState[list]):
    """A behaviour that logs every hook call with the mask the hook saw."""

    def on_activated(self, cause: BitCause) -> None:
        self.owner.append(("+", self.name, cause, self.machine.mask))

    def on_deactivated(self, cause: BitCause) -> None:
        self.owner.append(("-", self.name, cause, self.machine.mask))


def recorded(data: Sequence[Mapping]) -> BitmaskDefinition:
    """Build a definition from data with :class:`Recorder` hooks on every state."""
    return BitmaskDefinition.from_data(data, behaviours={r["name"]: Recorder for r in data})


class Gates(list):  # type: ignore[type-arg]
    """A hook log that also holds which custom checks say no, and logs each check asked."""

    def __init__(self) -> None:
        super().__init__()
        self.closed: set[str] = set()
        self.checked: list[str] = []


class Gated(Recorder):
    """A :class:`Recorder` with a custom check, refused while its name is in ``closed``."""

    owner: Gates

    def can_activate(self) -> bool:
        self.owner.checked.append(self.name)
        return self.name not in self.owner.closed


def gated(data: Sequence[Mapping], names: Iterable[str]) -> BitmaskDefinition:
    """Like :func:`recorded`, with a :class:`Gated` check on the states in ``names``."""
    checked = set(names)
    behaviours = {r["name"]: Gated if r["name"] in checked else Recorder for r in data}
    return BitmaskDefinition.from_data(data, behaviours=behaviours)
