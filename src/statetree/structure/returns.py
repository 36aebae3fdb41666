"""What a state's ``transition()`` returns, when it is not written as a transition call.

``return st.sibling(Stand)`` is found by the scan. A *deferred* transition returns a value
stored earlier (``return self.next``); it is followed when every value ever stored there is
a transition call or ``None``, and reported otherwise, so no possible target is dropped
silently.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator

from statetree.core.transition import Transition
from statetree.structure.classview import ClassView, Method
from statetree.structure.model import Location
from statetree.structure.scan import DECLARE_HINT, Problem, evaluate, transition_kind

__all__ = ["untraceable_returns"]

_ABSENT = object()
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _returns(node: ast.AST) -> Iterator[ast.Return]:
    """The ``return`` statements of a function, not those of functions nested in it."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Return):
            yield child
        elif not isinstance(child, _NESTED):
            yield from _returns(child)


def _is_self_attribute(expr: ast.expr, method: Method) -> bool:
    return (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and expr.value.id == method.scope.self_name
    )


class _ReturnCheck:
    """Follows return values through helper methods, ``super()`` and stored attributes."""

    def __init__(self, view: ClassView) -> None:
        self.view = view
        self.seen: set[int] = set()
        self.attributes: set[str] = set()

    def method(self, method: Method) -> Iterator[Problem]:
        if id(method.node) in self.seen:
            return
        self.seen.add(id(method.node))
        for statement in _returns(method.node):
            if statement.value is not None:
                yield from self.value(statement.value, method)

    def value(self, expr: ast.expr, method: Method, holder: str = "") -> Iterator[Problem]:
        """Problems with ``expr``, returned by ``method`` (or stored in ``holder``)."""
        if isinstance(expr, ast.Constant) and expr.value is None:
            return
        if isinstance(expr, ast.IfExp):
            yield from self.value(expr.body, method, holder)
            yield from self.value(expr.orelse, method, holder)
        elif isinstance(expr, ast.BoolOp):
            for operand in expr.values:
                yield from self.value(operand, method, holder)
        elif isinstance(expr, ast.Call):
            yield from self.call(expr, method, holder)
        elif isinstance(expr, ast.Attribute) and _is_self_attribute(expr, method):
            yield from self.stored(expr, method)
        elif not isinstance(evaluate(expr, method.scope), Transition):
            yield self.problem(expr, method, holder, "which is not a transition call")

    def call(self, call: ast.Call, method: Method, holder: str) -> Iterator[Problem]:
        if transition_kind(call, method.scope) is not None:
            return
        called = self.called_method(call, method)
        if called is None:
            yield self.problem(call, method, holder, "a call that cannot be followed")
        else:
            yield from self.method(called)

    def called_method(self, call: ast.Call, method: Method) -> Method | None:
        """The method ``self.name(...)`` or ``super().name(...)`` runs, if it has code here."""
        func = call.func
        if not isinstance(func, ast.Attribute):
            return None
        if _is_self_attribute(func, method):
            return self.view.method(func.attr)
        receiver = func.value
        is_super = (
            isinstance(receiver, ast.Call)
            and isinstance(receiver.func, ast.Name)
            and receiver.func.id == "super"
        )
        return self.view.next_method(method) if is_super and func.attr == method.name else None

    def stored(self, expr: ast.Attribute, method: Method) -> Iterator[Problem]:
        if expr.attr in self.attributes:
            return
        self.attributes.add(expr.attr)
        assignments = list(self.assignments(expr.attr))
        if not assignments:
            default = inspect.getattr_static(self.view.cls, expr.attr, _ABSENT)
            if default is _ABSENT:
                yield self.problem(expr, method, "", "which is never assigned")
            elif default is not None and not isinstance(default, Transition):
                yield self.problem(expr, method, "", "which is not a transition")
        for value, owner in assignments:
            yield from self.value(value, owner, ast.unparse(expr))

    def assignments(self, attribute: str) -> Iterator[tuple[ast.expr, Method]]:
        """The values assigned to ``self.<attribute>`` by the methods instances run."""
        for method in self.view.called_methods():
            for node in ast.walk(method.node):
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        value = _assigned(target, node.value, attribute, method)
                        if value is not None:
                            yield value, method

    def problem(self, expr: ast.expr, method: Method, holder: str, what: str) -> Problem:
        text = ast.unparse(expr)
        location = Location(method.location.file, expr.lineno)
        said = f"`{holder}` may hold `{text}`" if holder else f"returns `{text}`"
        reason = f"{said}, {what}; {DECLARE_HINT}"
        return Problem(self.view.cls, method.qualname, location, text, reason)


def _assigned(target: ast.expr, value: ast.expr, attribute: str, method: Method) -> ast.expr | None:
    """What ``target = value`` stores in ``self.<attribute>``, if it stores anything there
    (``self.a, self.b = x, y`` stores ``y`` in ``b``; ``= pair`` stores a part of ``pair``)."""
    if isinstance(target, ast.Attribute):
        named = target.attr == attribute and _is_self_attribute(target, method)
        return value if named else None
    if isinstance(target, (ast.Tuple, ast.List)):
        for position, part in enumerate(target.elts):
            parts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else None
            same = parts is not None and len(parts) == len(target.elts)
            found = _assigned(part, parts[position] if same and parts else value, attribute, method)
            if found is not None:
                return found
    return None


def untraceable_returns(view: ClassView) -> list[Problem]:
    """The values ``transition()`` may return whose targets cannot be told from the code."""
    method = view.method("transition")
    if method is None:
        return []
    return list(_ReturnCheck(view).method(method))
