"""Places: where one of several states is active, and the order of those states.

There is a place at the top of a machine (the initial state and its siblings), one inside
every state with inner transitions (their targets and the targets' siblings) and one per
region of a state with concurrent transitions (the region root and its siblings). The
states of a place are listed in the order declared for its parent (``children`` on a
state, ``outermost`` for the top), or else in the derived order: the order in which the
parent's transitions name them, then their siblings as sibling transitions reach them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from statetree import TransitionKind

__all__ = ["OrderProblem", "Place", "Places", "compute_places"]

_INNER_KINDS = (TransitionKind.INNER, TransitionKind.INNER_ENTRY)
Out = Mapping[tuple[str, TransitionKind], Sequence[str]]


@dataclass(frozen=True, slots=True)
class Place:
    """A place and the states that can be active there, in order.

    Attributes:
        parent: the state the place is in; ``None`` for the top of the machine.
        region: the index of the region, for a region of ``parent``; ``None`` otherwise.
        states: the states, in order: a state's index at this place is its position here.
        declared: whether the order was declared (``False``: derived from the transitions).
    """

    parent: str | None
    region: int | None
    states: tuple[str, ...]
    declared: bool

    def __str__(self) -> str:
        if self.parent is None:
            return "the top"
        if self.region is None:
            return f"inside {self.parent}"
        return f"region {self.region} of {self.parent}"


@dataclass(frozen=True, slots=True)
class OrderProblem:
    """A declared order that does not match the states that can be there.

    Attributes:
        parent: the declaring state; ``None`` for the outermost order.
        declared: the order as declared.
        missing: states that can be inside ``parent`` (or outermost) but are not listed.
        unknown: listed names that are not states of the structure.
        unused: listed states that no transition puts there (they take no index).
    """

    parent: str | None
    declared: tuple[str, ...]
    missing: tuple[str, ...]
    unknown: tuple[str, ...]
    unused: tuple[str, ...]

    @property
    def fatal(self) -> bool:
        """Whether the order cannot number the place: a state left out, or a typo."""
        return bool(self.missing or self.unknown)

    def __str__(self) -> str:
        parts = [f"{name} can be there too, so list it" for name in self.missing]
        parts += [f"{name} is not a state of this machine" for name in self.unknown]
        parts += [f"no transition puts {name} there" for name in self.unused]
        return f"{self.subject} are declared as ({', '.join(self.declared)}): {'; '.join(parts)}"

    @property
    def subject(self) -> str:
        """``the outermost states`` or ``the children of Parent``."""
        return "the outermost states" if self.parent is None else f"the children of {self.parent}"


@dataclass(frozen=True, slots=True)
class Places:
    """Every place of a structure.

    Attributes:
        top: the place at the top.
        inside: the place inside each state that has inner transitions.
        regions: the places of each state's regions, in the order of its concurrent edges.
        problems: declared orders that do not match their places (see
            :attr:`OrderProblem.fatal`).
        parents: the states with places inside them, in structure order.
    """

    top: Place
    inside: Mapping[str, Place]
    regions: Mapping[str, tuple[Place, ...]]
    problems: tuple[OrderProblem, ...]
    parents: tuple[str, ...]

    def of(self, parent: str) -> tuple[Place, ...]:
        """The places inside ``parent``: its inner place, then its regions'."""
        inner = self.inside.get(parent)
        return ((inner,) if inner else ()) + self.regions.get(parent, ())

    def problem(self, parent: str | None) -> OrderProblem | None:
        """The fatal problem of the order ``parent`` declares (``None``: the outermost
        order), if it has one."""
        return next((p for p in self.problems if p.parent == parent and p.fatal), None)

    def all(self) -> Iterable[Place]:
        """Every place: the top, then each state's, in structure order."""
        yield self.top
        for parent in self.parents:
            yield from self.of(parent)


def compute_places(
    initial: str,
    names: Sequence[str],
    out: Out,
    children: Mapping[str, tuple[str, ...]],
    outermost: tuple[str, ...],
) -> Places:
    """The places of a structure.

    Args:
        initial: the initial state.
        names: every state, in structure order.
        out: the targets of each ``(source, kind)``, in edge order (known states only).
        children: the declared child order of each parent.
        outermost: the declared outermost order (empty: none).
    """
    known = frozenset(names)
    top, problems = _arrange(None, [_closure(out, [initial])], outermost, known)
    inside: dict[str, Place] = {}
    regions: dict[str, tuple[Place, ...]] = {}
    for name in names:
        declared = children.get(name, ())
        inner, own, problem = _parent_places(name, out, declared, known)
        problems += problem
        if inner is not None:
            inside[name] = inner
        if own:
            regions[name] = own
    return Places(
        Place(None, None, tuple(top[0]), bool(outermost)),
        MappingProxyType(inside),
        MappingProxyType(regions),
        tuple(problems),
        tuple(name for name in names if name in inside or name in regions),
    )


def _parent_places(
    name: str, out: Out, declared: tuple[str, ...], known: frozenset[str]
) -> tuple[Place | None, tuple[Place, ...], list[OrderProblem]]:
    """The inner place and the region places of ``name``, and its order's problem."""
    starts = [t for kind in _INNER_KINDS for t in out.get((name, kind), ())]
    roots = out.get((name, TransitionKind.CONCURRENT), ())
    groups = ([_closure(out, starts)] if starts else []) + [_closure(out, [r]) for r in roots]
    if not groups and not declared:
        return None, (), []
    arranged, problems = _arrange(name, groups, declared, known)
    ordered = bool(declared)
    inner = Place(name, None, tuple(arranged[0]), ordered) if starts else None
    regions = tuple(
        Place(name, i, tuple(states), ordered)
        for i, states in enumerate(arranged[len(arranged) - len(roots) :])
    )
    return inner, regions, problems


def _closure(out: Out, starts: Iterable[str]) -> list[str]:
    """``starts`` in order, then the states their sibling transitions reach, breadth first."""
    found = list(dict.fromkeys(starts))
    for name in found:  # grows while iterating
        found += [t for t in out.get((name, TransitionKind.SIBLING), ()) if t not in found]
    return found


def _arrange(
    parent: str | None, groups: list[list[str]], declared: tuple[str, ...], known: frozenset[str]
) -> tuple[list[list[str]], list[OrderProblem]]:
    """Each group in the declared order (states not declared keep theirs, at the end)."""
    if not declared:
        return groups, []
    position = {name: i for i, name in enumerate(declared)}
    end = len(declared)
    arranged = [sorted(group, key=lambda name: position.get(name, end)) for group in groups]
    present = {name for group in groups for name in group}
    missing = tuple(dict.fromkeys(n for group in groups for n in group if n not in position))
    unknown = tuple(name for name in declared if name not in known)
    unused = tuple(name for name in declared if name in known and name not in present)
    if missing or unknown or unused:
        return arranged, [OrderProblem(parent, declared, missing, unknown, unused)]
    return arranged, []
