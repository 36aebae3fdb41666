"""Deriving the :class:`Structure` of a class-based machine from its code.

Starting from the initial state, every reachable state class is read (its methods,
inherited ones included, parsed with :mod:`ast`), the transitions found lead to more
classes, and so on. Nothing is run: names are looked up in the namespaces the code would
use.
"""

from __future__ import annotations

import inspect
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.errors import UsageError
from statetree.structure.classview import view_class
from statetree.structure.declare import declared_targets, resolve_reference
from statetree.structure.model import Edge, Location, StateInfo, Structure, Unresolved
from statetree.structure.order import declared_order
from statetree.structure.returns import untraceable_returns
from statetree.structure.scan import Found, Problem, scan_class
from statetree.structure.source import SourceIndex

__all__ = ["derive"]

Overrides = Callable[[type[State[Any]]], type[State[Any]]]


def _state_class(value: object) -> type[State[Any]]:
    if isinstance(value, type) and issubclass(value, State) and value is not State:
        return value
    if value is State:
        raise UsageError(
            "derive() needs a State subclass or a StateMachine, got State itself, the base "
            "class of every state: name a machine's initial state class"
        )
    kind = "class" if isinstance(value, type) else type(value).__name__
    raise UsageError(f"derive() needs a State subclass or a StateMachine, got {value!r} ({kind})")


def derive(initial: type[State[Any]] | StateMachine[Any]) -> Structure:
    """The structure of the machine that starts in ``initial``, read from the code.

    Args:
        initial: the initial state class, or a machine: then its initial state is used and
            every ``get_state_override(X)`` target also leads to the class the machine
            overrides ``X`` with.

    Returns:
        the structure: every state reachable from ``initial``, the other states defined in
        the same enclosing classes (reported unreachable by ``validate()``), the edges, and
        the transitions whose targets could not be told from the code.

    Raises:
        UsageError: ``initial`` is neither a ``State`` subclass nor a ``StateMachine``.
    """
    if isinstance(initial, StateMachine):
        # The machine keeps its initial transition privately; its target is the root.
        return _Derivation(initial.get_state_override).run(initial.initial.target)
    return _Derivation(None).run(_state_class(initial))


class _Derivation:
    def __init__(self, overrides: Overrides | None) -> None:
        self.overrides = overrides
        self.index = SourceIndex()
        self.order: list[type] = []
        self.locations: dict[type, Location | None] = {}
        self.found: list[Found] = []
        self.problems: list[Problem] = []

    def run(self, root: type[State[Any]]) -> Structure:
        self.explore([root])
        self.explore(_unreached_neighbours(root, self.order))
        return self.build(root)

    def explore(self, start: Iterable[type]) -> None:
        queue = deque(cls for cls in start if cls not in self.locations)
        for cls in queue:
            self.locations[cls] = None
        while queue:
            cls = queue.popleft()
            self.order.append(cls)
            for target in self.visit(cls):
                if target not in self.locations:
                    self.locations[target] = None
                    queue.append(target)

    def visit(self, cls: type) -> list[type]:
        view = view_class(cls, self.index)
        self.locations[cls] = view.location
        found, problems = scan_class(view)
        declared = list(_declared(cls, view.location))
        if not declared:
            # Without a declaration, whatever the scan could not follow is reported.
            self.problems += problems + untraceable_returns(view)
        found += declared + self.overridden(found)
        self.found += found
        return [f.target for f in found if isinstance(f.target, type)]

    def overridden(self, found: list[Found]) -> list[Found]:
        if self.overrides is None:
            return []
        extra = []
        for item in found:
            if item.overridable and isinstance(item.target, type):
                other = self.overrides(item.target)
                if other is not item.target:
                    extra.append(Found(item.source, other, item.kind, True, item.location))
        return extra

    def build(self, root: type) -> Structure:
        names = _names(self.order)
        states = tuple(StateInfo(names[c], c, self.locations[c]) for c in self.order)
        edges = tuple(
            Edge(
                names[f.source],
                names[f.target] if isinstance(f.target, type) else f.target,
                f.kind,
                f.overridable,
                f.location,
            )
            for f in self.found
        )
        unresolved = tuple(
            Unresolved(names[p.state], p.method, p.location, p.expression, p.reason)
            for p in self.problems
        )
        return _with_orders(Structure(names[root], states, edges, unresolved), names)


def _with_orders(structure: Structure, names: dict[type, str]) -> Structure:
    """``structure`` with the orders its classes declare; its states follow them (plots do)."""

    def name_of(cls: type) -> str:
        return names.get(cls, cls.__qualname__)

    declared = {names[cls]: declared_order(cls, "children") for cls in names}
    children = {name: order.resolved(name_of) for name, order in declared.items() if order}
    top_classes = (structure.state(name).cls for name in structure.places.top.states)
    tops = (declared_order(cls, "outermost") for cls in top_classes if cls is not None)
    top = next((order.resolved(name_of) for order in tops if order), ())
    if not (children or top):
        return structure
    states = _follow(structure.states, [top, *children.values()])
    return Structure(
        structure.initial, states, structure.edges, structure.unresolved, children, top
    )


def _follow(states: tuple[StateInfo, ...], orders: list[tuple[str, ...]]) -> tuple[StateInfo, ...]:
    """``states`` with the members of each order moved, among their own positions, into it."""
    names = [info.name for info in states]
    for order in orders:
        members = [name for name in order if name in names]
        for slot, name in zip(sorted(map(names.index, members)), members, strict=True):
            names[slot] = name
    by_name = {info.name: info for info in states}
    return tuple(by_name[name] for name in names)


def _declared(cls: type, location: Location | None) -> Iterator[Found]:
    for owner, declaration in declared_targets(cls):
        for kind, ref in declaration.items():
            target = resolve_reference(ref, owner)
            name = target if target is not None else str(ref)
            yield Found(cls, name, kind, False, location)


def _names(classes: list[type]) -> dict[type, str]:
    """Qualified names, prefixed by the module where two classes would share one, then
    numbered where they still do (classes a function makes each time it is called)."""
    counts = Counter(cls.__qualname__ for cls in classes)

    def name(cls: type) -> str:
        shared = counts[cls.__qualname__] > 1
        return f"{cls.__module__}.{cls.__qualname__}" if shared else cls.__qualname__

    named = {cls: name(cls) for cls in classes}
    seen: Counter[str] = Counter()
    for cls, text in named.items():
        seen[text] += 1
        if seen[text] > 1:
            named[cls] = f"{text}#{seen[text]}"
    return named


def _container(cls: type) -> type | None:
    """The class ``cls`` is nested in, when it can be reached from its module."""
    parts = cls.__qualname__.split(".")[:-1]
    module = sys.modules.get(cls.__module__)
    if not parts or "<locals>" in parts or module is None:
        return None
    value: object = module
    for part in parts:
        value = inspect.getattr_static(value, part, None)
    return value if isinstance(value, type) else None


def _containers_under(root: type, reached: list[type]) -> list[type]:
    """The classes holding reached states, among the one holding ``root`` and those inside."""
    home = _container(root)
    if home is None:
        return []
    inside = f"{home.__qualname__}."
    found = (_container(cls) for cls in reached)
    return list(
        dict.fromkeys(
            c
            for c in found
            if c is not None
            and c.__module__ == home.__module__
            and (c is home or c.__qualname__.startswith(inside))
        )
    )


def _states_defined_in(container: type) -> Iterator[type]:
    """State classes defined in ``container`` (not aliases of classes defined elsewhere)."""
    prefix = f"{container.__qualname__}."
    for value in vars(container).values():
        is_state = isinstance(value, type) and issubclass(value, State)
        if is_state and value.__qualname__ == prefix + value.__name__:
            yield value


def _unreached_neighbours(root: type, reached: list[type]) -> list[type]:
    """States defined in the class that holds ``root`` (or in classes inside it) that were
    not reached, minus bases of other states: candidates for forgotten states."""
    candidates = [s for c in _containers_under(root, reached) for s in _states_defined_in(c)]
    pool = [*reached, *candidates]
    return [
        cls
        for cls in candidates
        if cls not in reached and not any(o is not cls and issubclass(o, cls) for o in pool)
    ]
