"""Finding the ``sibling`` / ``inner`` / ``inner_entry`` calls in a state's code.

A call is recognised by what its callee *is* (the library's function object), so
``st.sibling``, ``statetree.sibling`` and ``from statetree import sibling as go`` all count.
Targets are looked up without running code: names, attributes of modules and classes,
``type(self)`` and ``get_state_override(X)``.
"""

from __future__ import annotations

import ast
import enum
import inspect
from dataclasses import dataclass, replace
from types import ModuleType

from statetree.core.state import State
from statetree.core.transition import (
    Transition,
    TransitionKind,
    concurrent,
    inner,
    inner_entry,
    sibling,
)
from statetree.structure.classview import ClassView, Scope
from statetree.structure.model import Location

__all__ = ["Found", "Problem", "evaluate", "scan_class", "transition_kind"]

_FACTORIES = (
    (sibling, TransitionKind.SIBLING),
    (inner, TransitionKind.INNER),
    (inner_entry, TransitionKind.INNER_ENTRY),
    (concurrent, TransitionKind.CONCURRENT),
)
DECLARE_HINT = "declare the possible targets with @statetree.structure.targets(...)"


class Unknown(enum.Enum):
    """Why an expression has no static value."""

    MISSING = "missing"
    """The name or attribute does not exist."""
    OPAQUE = "opaque"
    """The value is only known at run time (a variable, a call, an instance attribute)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A transition found in the code: ``source`` pushes ``target`` (a class, or the text
    of a target that names no state)."""

    source: type
    target: type | str
    kind: TransitionKind
    overridable: bool
    location: Location | None


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the derivation could not follow, in the code of state ``state``."""

    state: type
    method: str
    location: Location | None
    expression: str
    reason: str


@dataclass(frozen=True, slots=True)
class _Target:
    cls: type | None = None
    unknown: str | None = None
    overridable: bool = False


def evaluate(expr: ast.expr, scope: Scope) -> object:
    """The value of a name or attribute chain, or an :class:`Unknown` marker.

    Attributes are only read from modules and classes, statically (no property or
    ``__getattr__`` runs).
    """
    if isinstance(expr, ast.Name):
        if expr.id in scope.local_names:
            return Unknown.OPAQUE
        return scope.namespace.get(expr.id, Unknown.MISSING)
    if not isinstance(expr, ast.Attribute):
        return Unknown.OPAQUE
    base = evaluate(expr.value, scope)
    if isinstance(base, Unknown):
        return base
    if not isinstance(base, (type, ModuleType)):
        return Unknown.OPAQUE
    return inspect.getattr_static(base, expr.attr, Unknown.MISSING)


def transition_kind(call: ast.Call, scope: Scope) -> TransitionKind | None:
    """The kind of transition ``call`` makes, or ``None`` if it is not a transition call."""
    callee = evaluate(call.func, scope)
    for factory, kind in _FACTORIES:
        if callee is factory:
            return kind
    return None


def _is_override(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "get_state_override"
        and len(expr.args) == 1
    )


def _is_own_class(expr: ast.expr, scope: Scope) -> bool:
    """``type(self)`` or ``self.__class__``: the concrete class, even in inherited code."""
    if scope.self_name is None:
        return False
    if isinstance(expr, ast.Attribute) and expr.attr == "__class__":
        return isinstance(expr.value, ast.Name) and expr.value.id == scope.self_name
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "type"
        and len(expr.args) == 1
        and isinstance(expr.args[0], ast.Name)
        and expr.args[0].id == scope.self_name
    )


def resolve_target(expr: ast.expr, scope: Scope) -> _Target | None:
    """The state ``expr`` names, an unknown name, or ``None`` if it is known only at run time."""
    if isinstance(expr, ast.Call) and _is_override(expr):
        found = resolve_target(expr.args[0], scope)
        return replace(found, overridable=True) if found else None
    if _is_own_class(expr, scope):
        return _Target(scope.current)
    value = evaluate(expr, scope)
    if value is Unknown.OPAQUE:
        return None
    if isinstance(value, type) and issubclass(value, State):
        return _Target(value)
    return _Target(unknown=ast.unparse(expr))


class _Scanner:
    """Collects the transitions and problems of the code of one state class."""

    def __init__(self, view: ClassView) -> None:
        self.view = view
        self.found: list[Found] = []
        self.problems: list[Problem] = []

    def scan(self, node: ast.AST, scope: Scope, where: str, file: str) -> None:
        self._visit(node, self.view.cls, _Context(scope, where, file))

    def _visit(self, node: ast.AST, source: type | None, context: _Context) -> None:
        if isinstance(node, ast.Call):
            kind = transition_kind(node, context.scope)
            if kind is not None:
                self._transition(node, kind, source, context)
                return
        elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load):
            value = evaluate(node, context.scope)
            if isinstance(value, Transition):
                self._value(value, source, Location(context.file, node.lineno), context)
                return
        for child in ast.iter_child_nodes(node):
            self._visit(child, source, context)

    def _value(
        self, value: Transition, source: type | None, location: Location, context: _Context
    ) -> None:
        """A transition built elsewhere (a module global, a class attribute) and named here."""
        if source is None:
            text = repr(value)
            reason = f"`{text}` is passed to a state that cannot be told from the code"
            self._problem(context, location, text, reason)
        else:
            for target in value.regions or (value.target,):
                self.found.append(Found(source, target, value.kind, False, location))
        for argument in [*value.args, *value.kwargs.values()]:
            if isinstance(argument, Transition):
                self._value(argument, value.target, location, context)

    def _transition(
        self, call: ast.Call, kind: TransitionKind, source: type | None, context: _Context
    ) -> None:
        if kind is TransitionKind.CONCURRENT:
            # st.concurrent(A, B): every argument is the root of a region.
            for root in call.args:
                self._target(call, root, kind, source, context)
            return
        first = call.args[0] if call.args else None
        target = self._target(call, first, kind, source, context)
        # Transitions passed as arguments are deferred transitions of the target state:
        # PlayAnim receives sibling(PlayAnim_Done) and returns it later.
        nested_source = target.cls if target is not None else None
        for argument in [*call.args[1:], *(keyword.value for keyword in call.keywords)]:
            self._visit(argument, nested_source, context)

    def _target(
        self,
        call: ast.Call,
        expr: ast.expr | None,
        kind: TransitionKind,
        source: type | None,
        context: _Context,
    ) -> _Target | None:
        """Record the edge from ``source`` to the state ``expr`` names, or a problem."""
        location = Location(context.file, call.lineno)
        target = resolve_target(expr, context.scope) if expr is not None else None
        text = ast.unparse(call)
        if target is None:
            self._problem(context, location, text, f"cannot tell which state `{text}` targets")
        elif source is None:
            reason = f"`{text}` is passed to a state that cannot be told from the code"
            self._problem(context, location, text, reason)
        else:
            name = target.cls if target.cls is not None else str(target.unknown)
            self.found.append(Found(source, name, kind, target.overridable, location))
        return target

    def _problem(self, context: _Context, location: Location, text: str, reason: str) -> None:
        problem = Problem(self.view.cls, context.where, location, text, f"{reason}; {DECLARE_HINT}")
        self.problems.append(problem)


@dataclass(frozen=True, slots=True)
class _Context:
    scope: Scope
    where: str
    file: str


def _stored_transition(statement: ast.stmt, owner: type) -> Transition | None:
    """The transition a class-body assignment left in ``owner``'s attribute, read from the
    class itself: a helper's result, a name local to a function around the class, or a
    value set after the class was made are all there."""
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign):
        targets = [statement.target]
    else:
        return None
    for target in targets:
        if isinstance(target, ast.Name):
            value = vars(owner).get(target.id)
            if isinstance(value, Transition):
                return value
    return None


def scan_class(view: ClassView) -> tuple[list[Found], list[Problem]]:
    """The transitions written in the code a state's instances can run.

    That is every method instances call (inherited ones included, overridden ones only
    through ``super()``) and the class-body statements of the classes in its MRO.
    """
    scanner = _Scanner(view)
    for method in view.called_methods():
        try:
            scanner.scan(method.node, method.scope, method.qualname, method.location.file)
        except RecursionError:  # an expression of thousands of terms, say
            reason = "its code nests too deeply to read"
            scanner.problems.append(Problem(view.cls, method.qualname, method.location, "", reason))
    for body in view.bodies:
        for statement in body.statements:
            context = _Context(body.scope, body.owner.__qualname__, body.file)
            live = _stored_transition(statement, body.owner)
            if live is None:
                scanner._visit(statement, view.cls, context)
            else:  # what the body computed (or was set to since): its names may be gone
                scanner._value(live, view.cls, Location(body.file, statement.lineno), context)
    missing = (
        Problem(view.cls, name, view.location, "", "no source code is available to read")
        for name in view.missing
    )
    return scanner.found, [*scanner.problems, *missing]
