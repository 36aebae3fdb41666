"""The codec tree: every configuration a machine can be in, read from its structure once.

At each place of the tree there is a choice: at the top and at each region root, which
state is active (the initial state's siblings, or a region root's siblings); inside a state,
which inner state is active, or that its regions are, or (where the runtime allows a settled
state to have none) that nothing is. The candidates of a place are numbered in the order
the structure gives them (:attr:`Structure.places <statetree.structure.Structure.places>`:
declared, else derived), each parent with its own list, as the seed's ``_subNodes``; its
regions and "nothing" come after its inner states. A state reachable from several outers is
shared by all of them (the tree is a DAG); a state that can be nested inside itself is
refused.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Union

from statetree.core.state import State
from statetree.core.transition import TransitionKind
from statetree.errors import DefinitionError, UsageError
from statetree.net.payload import PayloadSpec, Specs
from statetree.structure import Place, Structure

__all__ = ["CodecTree", "Level", "Node", "Option", "RegionSet", "build_tree"]

# A state with one of these edges is entered into an inner (or regions) whenever it has
# none, so once the machine settles it always has one.
_DEFAULT_INNER_KINDS = (TransitionKind.INNER_ENTRY, TransitionKind.CONCURRENT)


@dataclass(frozen=True, slots=True, eq=False)
class Level:
    """The states one of which is active at a place with no outer choice (top, region).

    Attributes:
        nodes: the candidates, in the place's order.
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
        made_from: what :func:`build_tree` was given besides the structure, as
            ``(settles_empty, classes)`` item pairs (a saved codec is built again from it).
    """

    top: Level
    specs: Specs
    region_roots: Mapping[type, tuple[type[State[Any]], ...]]
    outers: Mapping[str, tuple[str, ...]]
    made_from: tuple[tuple[tuple[str, bool], ...], tuple[tuple[str, type[State[Any]]], ...]] = (
        (),
        (),
    )


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
        UsageError: ``structure`` is not a structure (an initial state class not yet given
            to ``derive``, say), or ``settles_empty`` or ``classes`` is not a mapping.
    """
    if not isinstance(structure, Structure):
        shown = getattr(structure, "__qualname__", repr(structure))
        raise UsageError(
            f"a codec is built from a machine's structure, got {structure!r}: "
            f"Codec.auto(derive({shown})), with derive from statetree.structure"
        )
    for name, given in (("settles_empty", settles_empty), ("classes", classes)):
        if given is not None and not isinstance(given, Mapping):
            raise UsageError(f"{name} maps state names to values (a dict), got {given!r}")
    return _Builder(structure, dict(settles_empty or {}), dict(classes or {})).build()


class _Builder:
    def __init__(
        self,
        structure: Structure,
        settles_empty: dict[str, bool],
        classes: dict[str, type[State[Any]]],
    ) -> None:
        self.structure = structure
        self.places = structure.places
        self.settles_empty = settles_empty
        self.classes = classes
        self.nodes: dict[str, Node] = {}
        self.reached: dict[str, list[str]] = {}
        self.region_roots: dict[type, tuple[type[State[Any]], ...]] = {}
        for option, names in (("settles_empty", settles_empty), ("classes", classes)):
            unknown = sorted(set(names) - set(structure.names))
            if unknown:
                raise DefinitionError(f"{option} names unknown state(s): {', '.join(unknown)}")
        for name, settles in settles_empty.items():
            if not isinstance(settles, bool):
                raise UsageError(
                    f"settles_empty maps state names to True or False, got {settles!r} for {name}"
                )

    def build(self) -> CodecTree:
        self.check_order(None)
        top = self.level(self.places.top, "<top>", ())
        classes = [node.cls for node in self.nodes.values()]
        outers = {n: tuple(dict.fromkeys(p)) for n, p in self.reached.items() if len(set(p)) > 1}
        return CodecTree(
            top,
            Specs(classes),
            MappingProxyType(self.region_roots),
            MappingProxyType(outers),
            (tuple(self.settles_empty.items()), tuple(self.classes.items())),
        )

    def level(self, place: Place, where: str, trail: tuple[str, ...]) -> Level:
        return Level.of([self.node(name, where, trail) for name in place.states])

    def node(self, name: str, where: str, trail: tuple[str, ...]) -> Node:
        """The node of ``name`` (shared by every place it is reached from)."""
        self.reached.setdefault(name, []).append(where)
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
        """What can be inside ``name``, in order: each inner state (its index is its position
        among them, as in the declared order), its regions, then nothing where allowed."""
        self.check_targets(name)
        self.check_order(name)
        deeper = (*trail, name)
        inside = self.places.inside.get(name)
        options: list[Option] = []
        if inside is not None:
            options += [self.node(target, name, deeper) for target in inside.states]
        regions = self.places.regions.get(name, ())
        if regions:
            options.append(self.regions(name, cls, regions, deeper))
        if options and self.may_be_empty(name):
            options.append(None)
        return options

    def regions(
        self, host: str, cls: type[State[Any]], places: tuple[Place, ...], trail: tuple[str, ...]
    ) -> RegionSet:
        roots = self.targets(host, TransitionKind.CONCURRENT)
        self.region_roots[cls] = tuple(self.region_root(host, root) for root in roots)
        return RegionSet(
            tuple(self.level(place, f"{host}[region {i}]", trail) for i, place in enumerate(places))
        )

    def region_root(self, host: str, root: str) -> type[State[Any]]:
        cls = self.state_class(root)
        if getattr(cls, "net_fields", ()):
            raise DefinitionError(
                f"{root} declares net_fields, but it is a region root of {host}: a host enters "
                "its regions with concurrent(...), which passes no arguments, so a received "
                "payload could not be applied; move the payload into a state inside the region"
            )
        return cls

    def targets(self, name: str, kind: TransitionKind) -> list[str]:
        return [e.target for e in self.structure.edges_from(name) if e.kind is kind]

    def check_targets(self, name: str) -> None:
        for edge in self.structure.edges_from(name):
            if edge.target not in self.structure:
                raise DefinitionError(f"{edge}: the target is not a state of the structure")

    def check_order(self, parent: str | None) -> None:
        problem = self.places.problem(parent)
        if problem is not None:
            raise DefinitionError(
                f"{problem}; a codec numbers the states of a place in their declared order"
            )

    def may_be_empty(self, name: str) -> bool:
        given = self.settles_empty.get(name)
        if given is not None:
            return given
        kinds = {edge.kind for edge in self.structure.edges_from(name)}
        return not kinds & set(_DEFAULT_INNER_KINDS)

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
