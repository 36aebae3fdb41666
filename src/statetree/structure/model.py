"""The immutable model of a machine's shape: its states and the transitions between them.

A :class:`Structure` is plain data. Code-based machines get one from
:func:`statetree.structure.derivation`; any other producer (a data-driven chart, a test, a file
format) builds one directly from names and :class:`Edge` values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from statetree.core.refs import Ref, target_of
from statetree.core.transition import TransitionKind
from statetree.errors import DefinitionError, UsageError
from statetree.structure.levels import Levels, compute_levels
from statetree.structure.places import Places, compute_places
from statetree.structure.validation import ValidationReport, validate

if TYPE_CHECKING:
    from statetree.core.state import State

__all__ = [
    "Edge",
    "Location",
    "StateInfo",
    "Structure",
    "Unresolved",
    "load_state_info",
    "require_structure",
]


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source file (``line`` is 1-based)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class StateInfo:
    """One state of a structure.

    Attributes:
        name: the unique key of the state, e.g. its qualified class name ``MyStates.Stand``.
        cls: the state class, when the structure was derived from code (not compared).
        location: where the state is defined, when known (not compared).
        note: a short text plots draw under the state's name, e.g. the pattern a chart
            state is a use of (not compared).
    """

    name: str
    cls: type[State[Any]] | None = field(default=None, compare=False, repr=False)
    location: Location | None = field(default=None, compare=False)
    note: str = field(default="", compare=False)

    @property
    def short_name(self) -> str:
        """The last part of the name: ``Stand`` for ``MyStates.Stand``."""
        return self.name.rsplit(".", 1)[-1]

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved with its class by name (:class:`~statetree.core.refs.Ref`)."""
        cls = None if self.cls is None else Ref(self.cls, f"the class of state {self.name}")
        return (load_state_info, (self.name, cls, self.location, self.note))


def load_state_info(name: str, cls: Ref | None, location: Location | None, note: str) -> StateInfo:
    """The loader of a saved :class:`StateInfo` (named in saves: renaming it breaks them)."""
    return StateInfo(name, target_of(cls), location, note)


@dataclass(frozen=True, slots=True)
class Edge:
    """A transition a state can make: ``source`` pushes ``target`` by ``kind``.

    Edges compare by ``(source, target, kind)`` only, so a predicted edge equals the same
    edge observed on a running machine.

    Attributes:
        source: the name of the state that returns the transition.
        target: the name of the state the transition pushes.
        kind: sibling, inner or inner-entry.
        overridable: the target was written ``get_state_override(Target)``, so a machine
            may push another class in its place (not compared).
        location: where the transition is written, when known (not compared).
        label: when the transition is taken, in words, e.g. ``input: Attack`` (empty when
            the structure does not say; not compared).
    """

    source: str
    target: str
    kind: TransitionKind
    overridable: bool = field(default=False, compare=False)
    location: Location | None = field(default=None, compare=False)
    label: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.kind.name.lower()})"


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A transition whose target the derivation could not determine from the code.

    Attributes:
        state: the name of the state the transition belongs to.
        method: the qualified name of the method it is written in.
        location: where it is written, when known.
        expression: the source text the derivation could not follow.
        reason: why, and what to do about it.
    """

    state: str
    method: str
    location: Location | None
    expression: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.method}: {self.reason}"


def _merged(first: Edge, repeat: Edge) -> Edge:
    """One edge for two equal ones: overridable if either is, different labels joined."""
    labels = dict.fromkeys(label for label in (first.label, repeat.label) if label)
    overridable = first.overridable or repeat.overridable
    return replace(first, overridable=overridable, label=" or ".join(labels))


def _unique_edges(edges: Iterable[Edge]) -> tuple[Edge, ...]:
    """``edges`` without repeats, first occurrence kept, merged with its repeats."""
    kept: dict[Edge, Edge] = {}
    for edge in edges:
        first = kept.get(edge)
        kept[edge] = edge if first is None else _merged(first, edge)
    return tuple(kept.values())


def _by_name(states: tuple[StateInfo, ...]) -> dict[str, StateInfo]:
    by_name: dict[str, StateInfo] = {}
    for info in states:
        if info.name in by_name:
            raise DefinitionError(f"structure has two states named {info.name!r}")
        by_name[info.name] = info
    return by_name


@dataclass(frozen=True)
class Structure:
    """The states of a machine and the transitions they can make, as immutable data.

    Depth levels are computed from the edges: the initial state is at depth 0, a sibling
    edge keeps the depth, an inner, inner-entry or concurrent edge adds one.

    Args:
        initial: the name of the initial state.
        states: every state, initial included, in a stable order (plots follow it).
        edges: the transitions; endpoints may name unknown states (see :meth:`validate`).
            Repeated edges are kept once.
        unresolved: what a derivation could not follow (empty for declared structures).
        children: the declared order of the states inside each parent, by parent name (see
            :func:`~statetree.structure.children`); a chart declares every parent's.
        outermost: the declared order of the outermost states (empty: derived).

    Raises:
        DefinitionError: two states share a name, or ``initial`` is not one of them.
    """

    initial: str
    states: tuple[StateInfo, ...]
    edges: tuple[Edge, ...]
    unresolved: tuple[Unresolved, ...] = ()
    children: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    outermost: tuple[str, ...] = ()
    _levels: Levels = field(init=False, repr=False, compare=False)
    _by_name: Mapping[str, StateInfo] = field(init=False, repr=False, compare=False)
    _by_class: Mapping[type, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        states = tuple(self.states)
        by_name = _by_name(states)
        if self.initial not in by_name:
            raise DefinitionError(
                f"initial state {self.initial!r} is not one of the structure's states"
            )
        edges = _unique_edges(self.edges)
        by_class = {info.cls: info.name for info in states if info.cls is not None}
        derived = {
            "states": states,
            "edges": edges,
            "unresolved": tuple(self.unresolved),
            "children": MappingProxyType({p: tuple(c) for p, c in self.children.items()}),
            "outermost": tuple(self.outermost),
            "_by_name": MappingProxyType(by_name),
            "_by_class": MappingProxyType(by_class),
            "_levels": compute_levels(self.initial, by_name, edges),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as the arguments it was made with (what it derives is derived again)."""
        fields = (self.states, self.edges, self.unresolved, dict(self.children), self.outermost)
        return (Structure, (self.initial, *fields))

    @classmethod
    def from_names(
        cls,
        initial: str,
        edges: Iterable[tuple[str, str, TransitionKind]],
        states: Iterable[str] = (),
    ) -> Structure:
        """Build a structure from ``(source, target, kind)`` triples.

        The states are ``initial``, then ``states``, then every edge endpoint not listed yet,
        in order of appearance.
        """
        triples = tuple(edges)
        names = dict.fromkeys([initial, *states, *(n for t in triples for n in t[:2])])
        return cls(
            initial,
            tuple(StateInfo(name) for name in names),
            tuple(Edge(source, target, kind) for source, target, kind in triples),
        )

    # -- queries ---------------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """The state names, in order."""
        return tuple(info.name for info in self.states)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def state(self, name: str) -> StateInfo:
        """The state called ``name``.

        Raises:
            UsageError: there is no such state.
        """
        info = self._by_name.get(name)
        if info is None:
            raise UsageError(f"the structure has no state named {name!r}")
        return info

    def name_of(self, cls: type[State[Any]]) -> str:
        """The name under which ``cls`` appears here (its qualified name if it does not)."""
        return self._by_class.get(cls, cls.__qualname__)

    def depth(self, name: str) -> int | None:
        """The smallest depth ``name`` can be at, or ``None`` if it is unreachable."""
        found = self._levels.depths.get(name)
        return min(found) if found else None

    def depths(self, name: str) -> frozenset[int]:
        """Every depth ``name`` can be at (empty if it is unreachable)."""
        return self._levels.depths.get(name, frozenset())

    @cached_property
    def places(self) -> Places:
        """Where one of several states is active (the top, inside a state, a region) and
        their order there: declared where ``children``/``outermost`` say, else derived."""
        out: dict[tuple[str, TransitionKind], list[str]] = {}
        for edge in self.edges:
            if edge.source in self._by_name and edge.target in self._by_name:
                out.setdefault((edge.source, edge.kind), []).append(edge.target)
        return compute_places(self.initial, self.names, out, self.children, self.outermost)

    @property
    def nesting_cycles(self) -> frozenset[str]:
        """States that can be pushed inside themselves, so their depth has no bound."""
        return self._levels.unbounded

    def edges_from(self, name: str) -> tuple[Edge, ...]:
        """The edges whose source is ``name``."""
        return tuple(edge for edge in self.edges if edge.source == name)

    def edges_to(self, name: str) -> tuple[Edge, ...]:
        """The edges whose target is ``name``."""
        return tuple(edge for edge in self.edges if edge.target == name)

    # -- checks ----------------------------------------------------------------------------

    def validate(self) -> ValidationReport:
        """Check the structure; see :func:`statetree.structure.validation`."""
        return validate(self)

    def unpredicted(self, observed: Iterable[Edge]) -> tuple[Edge, ...]:
        """The ``observed`` edges this structure does not contain, in order, once each."""
        known = set(self.edges)
        return tuple(edge for edge in _unique_edges(observed) if edge not in known)

    def unobserved(self, observed: Iterable[Edge]) -> tuple[Edge, ...]:
        """This structure's edges that are not among ``observed``, in order."""
        seen = set(observed)
        return tuple(edge for edge in self.edges if edge not in seen)


def require_structure(value: object, call: str) -> Structure:
    """``value``, which ``call`` needs to be a :class:`Structure`.

    Raises:
        UsageError: it is something else (a state class or a machine, say).
    """
    if isinstance(value, Structure):
        return value
    raise UsageError(
        f"{call} takes a Structure, got {value!r} ({type(value).__name__}): pass "
        "statetree.structure.derive(...) of a state class or a machine"
    )
