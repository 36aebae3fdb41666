"""The codec tree: every configuration a machine can be in, read from its structure once.

At each place of the tree there is a choice: at the top and at each region root, which
state is active (the initial state's siblings, or a region root's siblings); inside a state,
which inner state is active, or that its regions are, or (where the runtime allows a settled
state to have none) that nothing is. A state reachable from several outers is shared by all
of them (the tree is a DAG); a state that can be nested inside itself is refused.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Union

from statetree.core.state import State
from statetree.core.transition import TransitionKind
from statetree.errors import DefinitionError
from statetree.net.payload import PayloadSpec, Specs
from statetree.structure import Structure

__all__ = ["CodecTree", "Level", "Node", "Option", "RegionSet", "build_tree"]

_INNER_KINDS = (TransitionKind.INNER, TransitionKind.INNER_ENTRY)
# A state with one of these edges is entered into an inner (or regions) whenever it has
# none, so once the machine settles it always has one.
_DEFAULT_INNER_KINDS = (TransitionKind.INNER_ENTRY, TransitionKind.CONCURRENT)


@dataclass(frozen=True, slots=True, eq=False)
class Level:
    """The states one of which is active at a place with no outer choice (top, region).

    Attributes:
        nodes: the candidates, in structure order.
        choice: each candidate's index by class.
        largest: the largest path-header value of this place.
        count: how many configurations this place can be in.
    """

    nodes: tuple[Node, ...]
    choice: Mapping[type, int]
    largest: int
    count: int

    @classmethod
    def of(cls, nodes: Sequence[Node]) -> Level:
        """The level choosing among ``nodes``."""
        size = len(nodes)
        return cls(
            tuple(nodes),
            MappingProxyType({node.cls: i for i, node in enumerate(nodes)}),
            max(i + size * node.largest for i, node in enumerate(nodes)),
            sum(node.count for node in nodes),
        )


@dataclass(frozen=True, slots=True, eq=False)
class RegionSet:
    """The concurrent regions of a host, each a :class:`Level`, in order."""

    levels: tuple[Level, ...]

    @property
    def largest(self) -> int:
        """The largest combined path value: each region is a digit of radix ``largest + 1``."""
        return math.prod(level.largest + 1 for level in self.levels) - 1

    @property
    def count(self) -> int:
        """How many configurations the regions can be in together."""
        return math.prod(level.count for level in self.levels)


Option = Union["Node", RegionSet, None]
"""What can be inside a state: one inner state, its regions, or nothing (``None``)."""


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    """A state of the codec tree and the choice of what is inside it.

    Attributes:
        name: the state's name in the structure.
        cls: its class.
        spec: its payload layout.
        options: what can be inside it; empty for a state that never has an inner.
        choice: the option index of each possible inner state, by class.
        empty: the option index of "no inner", or -1 where a settled state always has one.
        regions: the option index of its regions, or -1 if it hosts none.
        largest: the largest path-header value of this state's subtree.
        count: how many configurations this state's subtree can be in.
    """

    name: str
    cls: type[State[Any]]
    spec: PayloadSpec
    options: tuple[Option, ...]
    choice: Mapping[type, int]
    empty: int
    regions: int
    largest: int
    count: int

    @classmethod
    def of(
        cls, name: str, state: type[State[Any]], spec: PayloadSpec, options: list[Option]
    ) -> Node:
        """The node of ``state`` with ``options`` inside it."""
        size = len(options)
        return cls(
            name,
            state,
            spec,
            tuple(options),
            MappingProxyType({o.cls: i for i, o in enumerate(options) if isinstance(o, Node)}),
            options.index(None) if None in options else -1,
            next((i for i, o in enumerate(options) if isinstance(o, RegionSet)), -1),
            max((i + size * (o.largest if o else 0) for i, o in enumerate(options)), default=0),
            sum(o.count if o else 1 for o in options) or 1,
        )


@dataclass(frozen=True, slots=True, eq=False)
class CodecTree:
    """The codec tree of a structure.

    Attributes:
        top: the choice of the outermost state.
        specs: the payload layout of every state class in the tree.
        region_roots: for each class hosting regions, the roots its concurrent edges enter.
        outers: for each state reached from several places, those places (``<top>``, an
            outer state's name, or ``Host[region i]``).
    """

    top: Level
    specs: Specs
    region_roots: Mapping[type, tuple[type[State[Any]], ...]]
    outers: Mapping[str, tuple[str, ...]]


def build_tree(
    structure: Structure,
    settles_empty: Mapping[str, bool] | None = None,
    classes: Mapping[str, type[State[Any]]] | None = None,
) -> CodecTree:
    """Build the codec tree of ``structure``.

    Args:
        structure: the machine's structure; every reachable state needs its class.
        settles_empty: per state name, whether it can settle with no inner state; by default
            a state can unless it has an inner-entry or concurrent transition.
        classes: the class of each state name, for structures declared without them (a
            chart's: ``compiled.by_path``); a class the structure gives wins.

    Raises:
        DefinitionError: a state has no class, an edge names an unknown state, a
            transition's target is unresolved, a state can be nested inside itself, or
            ``settles_empty`` or ``classes`` names an unknown state.
    """
    return _Builder(structure, dict(settles_empty or {}), dict(classes or {})).build()


class _Builder:
    def __init__(
        self,
        structure: Structure,
        settles_empty: dict[str, bool],
        classes: dict[str, type[State[Any]]],
    ) -> None:
        self.structure = structure
        self.settles_empty = settles_empty
        self.classes = classes
        self.order = {name: i for i, name in enumerate(structure.names)}
        self.out: dict[tuple[str, TransitionKind], list[str]] = {}
        for edge in structure.edges:
            self.out.setdefault((edge.source, edge.kind), []).append(edge.target)
        self.nodes: dict[str, Node] = {}
        self.places: dict[str, list[str]] = {}
        self.region_roots: dict[type, tuple[type[State[Any]], ...]] = {}
        for option, names in (("settles_empty", settles_empty), ("classes", classes)):
            unknown = sorted(set(names) - set(self.order))
            if unknown:
                raise DefinitionError(f"{option} names unknown state(s): {', '.join(unknown)}")

    def build(self) -> CodecTree:
        top = self.level(self.closure([self.structure.initial]), "<top>", ())
        classes = [node.cls for node in self.nodes.values()]
        outers = {n: tuple(dict.fromkeys(p)) for n, p in self.places.items() if len(set(p)) > 1}
        return CodecTree(
            top,
            Specs(classes),
            MappingProxyType(self.region_roots),
            MappingProxyType(outers),
        )

    def level(self, names: Iterable[str], place: str, trail: tuple[str, ...]) -> Level:
        return Level.of([self.node(name, place, trail) for name in names])

    def node(self, name: str, place: str, trail: tuple[str, ...]) -> Node:
        """The node of ``name`` (shared by every place it is reached from)."""
        self.places.setdefault(name, []).append(place)
        if name in trail:
            cycle = " -> ".join((*trail[trail.index(name) :], name))
            raise DefinitionError(
                f"nesting cycle {cycle}: a state that can be inside itself has no depth bound, "
                "so no codec can describe its configurations"
            )
        node = self.nodes.get(name)
        if node is None:
            cls = self.state_class(name)
            node = Node.of(name, cls, PayloadSpec.of(cls), self.options(name, cls, trail))
            self.nodes[name] = node
        return node

    def options(self, name: str, cls: type[State[Any]], trail: tuple[str, ...]) -> list[Option]:
        """What can be inside ``name``: nothing (where allowed), an inner state, its regions."""
        deeper = (*trail, name)
        options: list[Option] = [None] if self.may_be_empty(name) else []
        inner = [t for kind in _INNER_KINDS for t in self.targets(name, kind)]
        options += [self.node(target, name, deeper) for target in self.closure(inner)]
        roots = self.targets(name, TransitionKind.CONCURRENT)
        if roots:
            options.append(self.regions(name, roots, deeper))
            self.region_roots[cls] = tuple(self.state_class(root) for root in roots)
        return [] if options == [None] else options  # a leaf: nothing to choose

    def regions(self, host: str, roots: list[str], trail: tuple[str, ...]) -> RegionSet:
        return RegionSet(
            tuple(
                self.level(self.closure([root]), f"{host}[region {i}]", trail)
                for i, root in enumerate(roots)
            )
        )

    def targets(self, name: str, kind: TransitionKind) -> list[str]:
        found = self.out.get((name, kind), [])
        for target in found:
            if target not in self.order:
                raise DefinitionError(
                    f"{name} -> {target} ({kind.name.lower()}): the target is not a state of "
                    "the structure"
                )
        return found

    def closure(self, starts: Iterable[str]) -> list[str]:
        """``starts`` and every state their sibling transitions reach, in structure order."""
        found = list(dict.fromkeys(starts))
        for name in found:  # grows while iterating: a breadth-first walk
            found += [t for t in self.targets(name, TransitionKind.SIBLING) if t not in found]
        return sorted(found, key=self.order.__getitem__)

    def may_be_empty(self, name: str) -> bool:
        given = self.settles_empty.get(name)
        if given is not None:
            return given
        return not any(self.out.get((name, kind)) for kind in _DEFAULT_INNER_KINDS)

    def state_class(self, name: str) -> type[State[Any]]:
        cls = self.structure.state(name).cls or self.classes.get(name)
        if cls is None:
            raise DefinitionError(
                f"state {name} has no class in the structure; a codec enters states, so it "
                "needs each state's class: from the structure (StateInfo(name, cls)) or "
                "given as classes={name: cls}"
            )
        unresolved = [u for u in self.structure.unresolved if u.state == name]
        if unresolved:
            raise DefinitionError(
                f"state {name}: {unresolved[0]}; a codec must know every state that can be "
                "active, so declare the targets with statetree.structure.targets(...)"
            )
        return cls
