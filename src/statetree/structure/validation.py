"""Checks on a :class:`~statetree.structure.Structure`, reported as data."""

from __future__ import annotations

import enum
import inspect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from difflib import get_close_matches
from typing import TYPE_CHECKING

from statetree.core.transition import TransitionKind

if TYPE_CHECKING:
    from statetree.structure.model import Location, Structure
    from statetree.structure.places import Place

__all__ = ["Issue", "Severity", "ValidationReport", "validate"]


class Severity(enum.Enum):
    """How bad an issue is: an ERROR can never work, a WARNING deserves a look."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Issue:
    """One finding of :func:`validate`.

    Attributes:
        severity: error or warning.
        code: a stable identifier: ``unknown-target``, ``unknown-source``, ``unreachable``,
            ``sibling-depth``, ``multiple-depths``, ``nesting-cycle``, ``unresolved``,
            ``misspelt-hook`` (a method named like a hook the machine calls, which it never
            calls), ``child-order`` (a declared order that leaves out a state that can be
            there, or names no state), ``child-order-unused`` (one listing a state no
            transition puts there) or ``derived-order`` (a networked machine whose wire
            format follows the order the code is written in).
        state: the state the issue is about.
        message: a sentence naming what is wrong.
        location: where in the source, when known.
    """

    severity: Severity
    code: str
    state: str
    message: str
    location: Location | None = None

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{self.severity.value}: {where}{self.message} [{self.code}]"


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """The issues of a structure, errors first, each group in structure order."""

    issues: tuple[Issue, ...]

    @property
    def errors(self) -> tuple[Issue, ...]:
        """The issues of severity ERROR."""
        return tuple(i for i in self.issues if i.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Issue, ...]:
        """The issues of severity WARNING."""
        return tuple(i for i in self.issues if i.severity is Severity.WARNING)

    @property
    def ok(self) -> bool:
        """Whether there is no error (warnings allowed)."""
        return not self.errors

    def __str__(self) -> str:
        errors, warnings = len(self.errors), len(self.warnings)
        summary = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
        return "\n".join([*map(str, self.issues), summary])


def validate(structure: Structure) -> ValidationReport:
    """Check ``structure`` for unknown endpoints, unreachable states and depth problems.

    Returns:
        the report; ``report.ok`` is false when any issue is an error.
    """
    # Imported here: the model imports this module.
    from statetree.structure.model import require_structure  # noqa: PLC0415

    require_structure(structure, "validate()")
    checks = (
        _unknown_endpoints,
        _unreachable,
        _sibling_depths,
        _multiple_depths,
        _nesting_cycles,
        _unresolved,
        _misspelt_hooks,
        _child_orders,
        _derived_orders,
    )
    issues = [issue for check in checks for issue in check(structure)]
    issues.sort(key=lambda issue: issue.severity is not Severity.ERROR)
    return ValidationReport(tuple(issues))


def _unknown_endpoints(structure: Structure) -> Iterator[Issue]:
    for edge in structure.edges:
        if edge.source not in structure:
            yield Issue(
                Severity.ERROR,
                "unknown-source",
                edge.source,
                f"{edge}: the source {edge.source!r} is not a state of this machine",
                edge.location,
            )
        if edge.target not in structure:
            yield Issue(
                Severity.ERROR,
                "unknown-target",
                edge.source,
                f"{edge}: the target {edge.target!r} is not a state of this machine",
                edge.location,
            )


def _unreachable(structure: Structure) -> Iterator[Issue]:
    for info in structure.states:
        if structure.depth(info.name) is None:
            yield Issue(
                Severity.WARNING,
                "unreachable",
                info.name,
                f"{info.name} is not reachable from the initial state {structure.initial}",
                info.location,
            )


def _sibling_depths(structure: Structure) -> Iterator[Issue]:
    for edge in structure.edges:
        if edge.kind is not TransitionKind.SIBLING:
            continue
        source, target = structure.depth(edge.source), structure.depth(edge.target)
        if source is not None and target is not None and source != target:
            yield Issue(
                Severity.WARNING,
                "sibling-depth",
                edge.source,
                f"{edge}: {edge.source} is at depth {source} but its sibling "
                f"{edge.target} is at depth {target}",
                edge.location,
            )


def _multiple_depths(structure: Structure) -> Iterator[Issue]:
    for info in structure.states:
        depths = structure.depths(info.name)
        if len(depths) > 1 and info.name not in structure.nesting_cycles:
            listed = ", ".join(map(str, sorted(depths)))
            yield Issue(
                Severity.WARNING,
                "multiple-depths",
                info.name,
                f"{info.name} can be at depths {listed}; plots show {min(depths)}",
                info.location,
            )


def _nesting_cycles(structure: Structure) -> Iterator[Issue]:
    for name in structure.names:
        if name in structure.nesting_cycles:
            yield Issue(
                Severity.WARNING,
                "nesting-cycle",
                name,
                f"{name} has no depth bound: it is reached through a cycle of "
                "transitions that keeps pushing inner states",
                structure.state(name).location,
            )


def _unresolved(structure: Structure) -> Iterator[Issue]:
    for item in structure.unresolved:
        yield Issue(
            Severity.WARNING,
            "unresolved",
            item.state,
            f"{item.method}: {item.reason}",
            item.location,
        )


HOOKS = ("transition", "on_enter", "on_exit", "update")
"""The methods of a state class that its machine calls."""


def _misspelt_hooks(structure: Structure) -> Iterator[Issue]:
    """Methods of a state's own classes named almost as a hook: ``def transiton(self)`` is
    never called, so the state silently never leaves."""
    # Imported here: the model imports this module.
    from statetree.core.state import State  # noqa: PLC0415
    from statetree.structure.model import Location  # noqa: PLC0415

    for info in structure.states:
        cls = info.cls
        if cls is None:
            continue
        for owner in cls.__mro__:
            if owner is State or not issubclass(owner, State):
                break
            for name, value in vars(owner).items():
                if name in HOOKS or name.startswith("_") or not inspect.isfunction(value):
                    continue
                # C++ names (OnEnter, GetTransition) are compared as snake case.
                snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
                close = [snake] if snake in HOOKS else get_close_matches(snake, HOOKS, 1, 0.8)
                if not close:
                    continue
                code = value.__code__
                yield Issue(
                    Severity.WARNING,
                    "misspelt-hook",
                    info.name,
                    f"{owner.__qualname__}.{name} is never called by the machine: did you "
                    f"mean {close[0]}?",
                    Location(code.co_filename, code.co_firstlineno),
                )


def _child_orders(structure: Structure) -> Iterator[Issue]:
    for problem in structure.places.problems:
        state = problem.parent or structure.initial
        location = structure.state(state).location if state in structure else None
        if problem.fatal:
            yield Issue(Severity.ERROR, "child-order", state, str(problem), location)
        # A state nothing reaches is reported as unreachable already.
        unused = [name for name in problem.unused if structure.depth(name) is not None]
        if unused and not problem.fatal:
            message = (
                f"{problem.subject} are declared as ({', '.join(problem.declared)}), but no "
                f"transition puts {', '.join(unused)} there: it takes no index"
            )
            yield Issue(Severity.WARNING, "child-order-unused", state, message, location)


def _networked(structure: Structure) -> str | None:
    """A state declaring ``net_fields``, if any: its machine goes over the network."""
    return next((i.name for i in structure.states if getattr(i.cls, "net_fields", ())), None)


def _derived_orders(structure: Structure) -> Iterator[Issue]:
    stateful = _networked(structure)
    if stateful is None:
        return
    undeclared: dict[str | None, list[Place]] = {}
    for place in structure.places.all():
        if len(place.states) > 1 and not place.declared:
            undeclared.setdefault(place.parent, []).append(place)
    for parent, places in undeclared.items():
        owner = parent or structure.initial
        listed = "; ".join(
            f"{', '.join(place.states)} {'at the top' if parent is None else place}"
            for place in places
        )
        yield Issue(
            Severity.WARNING,
            "derived-order",
            owner,
            f"the order of {listed} follows the order the code is written in; this machine "
            f"is networked ({stateful} declares net_fields), so a refactor would change its "
            f"packets: declare it with {_declaration(structure, parent)}",
            structure.state(owner).location,
        )


def _declaration(structure: Structure, parent: str | None) -> str:
    """The decorator that declares the current order of ``parent`` (``None``: the top)."""
    places: tuple[Place, ...]
    if parent is None:
        places = (structure.places.top,)
        decorator, on = "outermost", f"the initial state {structure.initial}"
    else:
        places = structure.places.of(parent)
        decorator, on = "children", parent
    names = dict.fromkeys(n for place in places for n in place.states)
    quoted = ", ".join(f'"{structure.state(n).short_name}"' for n in names)
    return f"@{decorator}({quoted}) on {on}"
