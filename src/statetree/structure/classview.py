"""A state class as the derivation sees it: the code of its methods, with their namespaces.

Only the syntax trees are read; names in them are looked up in the live namespaces the
methods would use (module globals, closure cells, builtins), without calling anything.
"""

from __future__ import annotations

import ast
import builtins
import inspect
from collections import ChainMap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import FunctionType
from typing import Any

from statetree.structure.model import Location
from statetree.structure.source import FunctionNode, SourceIndex

__all__ = ["ClassBody", "ClassView", "Method", "Scope", "view_class"]

# Classes of the library itself (State, Generic, object) hold no transitions of the user's.
_LIBRARY_MODULES = ("builtins", "typing", "abc", "statetree")


@dataclass(frozen=True, slots=True)
class Scope:
    """How names in one piece of code resolve.

    Attributes:
        namespace: closure cells, then module globals, then builtins.
        local_names: names bound inside the code (parameters and assignments); they are
            never looked up in ``namespace``.
        self_name: the name of the instance parameter, if any.
        current: the concrete state class being derived (what ``type(self)`` is).
    """

    namespace: Mapping[str, object]
    local_names: frozenset[str]
    self_name: str | None
    current: type


@dataclass(frozen=True, slots=True)
class Method:
    """One method definition of a class in a state's MRO."""

    owner: type
    name: str
    node: FunctionNode
    location: Location
    scope: Scope

    @property
    def qualname(self) -> str:
        """``Owner.method``, e.g. ``MyStates.Stand.transition``."""
        return f"{self.owner.__qualname__}.{self.name}"

    def calls_super(self) -> bool:
        """Whether the method calls ``super().<its own name>(...)``."""
        for node in ast.walk(self.node):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == self.name
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "super"
            ):
                return True
        return False


@dataclass(frozen=True, slots=True)
class ClassBody:
    """The statements of a class body other than definitions (class attributes)."""

    owner: type
    statements: tuple[ast.stmt, ...]
    scope: Scope
    file: str


@dataclass(frozen=True, slots=True)
class ClassView:
    """The code of a state class and of the classes it inherits from.

    Attributes:
        cls: the state class.
        chains: for each method name, its definitions in MRO order (the first one is what
            instances call; later ones are reached through ``super()``).
        bodies: the class-body statements of every class in the MRO.
        missing: qualified names of definitions whose source code is not available.
        location: where ``cls`` is defined, when known.
    """

    cls: type
    chains: Mapping[str, tuple[Method, ...]]
    bodies: tuple[ClassBody, ...]
    missing: tuple[str, ...]
    location: Location | None

    def called_methods(self) -> Iterator[Method]:
        """The definitions instances can run: each name's first, plus those ``super()`` reaches."""
        for chain in self.chains.values():
            for method in chain:
                yield method
                if not method.calls_super():
                    break

    def method(self, name: str) -> Method | None:
        """The definition of ``name`` that instances call, if it has source code."""
        chain = self.chains.get(name)
        return chain[0] if chain else None

    def next_method(self, method: Method) -> Method | None:
        """The definition ``super()`` reaches from ``method``, if any."""
        chain = self.chains.get(method.name, ())
        index = chain.index(method) if method in chain else len(chain)
        return chain[index + 1] if index + 1 < len(chain) else None


def _is_library(cls: type) -> bool:
    module = cls.__module__.split(".", 1)[0]
    return module in _LIBRARY_MODULES


def _functions(value: object) -> Iterator[FunctionType]:
    """The plain functions behind a class attribute (methods, properties, static/class)."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        for accessor in (value.fget, value.fset, value.fdel):
            yield from _functions(accessor)
        return
    if callable(value):
        value = inspect.unwrap(value)
    if isinstance(value, FunctionType):
        yield value


def _local_names(node: FunctionNode) -> frozenset[str]:
    """The names ``node`` binds itself: parameters, assignments, imports, ``match``
    captures, ``except ... as`` and nested definitions (never read from its globals)."""
    arguments = node.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    names = {a.arg for a in every}
    declared: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            names.add(child.id)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).partition(".")[0] for a in child.names)
        elif isinstance(child, (ast.MatchAs, ast.MatchStar)) and child.name is not None:
            names.add(child.name)
        elif isinstance(child, ast.MatchMapping) and child.rest is not None:
            names.add(child.rest)
        elif isinstance(child, ast.ExceptHandler) and child.name is not None:
            names.add(child.name)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if child is not node:
                names.add(child.name)
        elif isinstance(child, (ast.Global, ast.Nonlocal)):
            declared.update(child.names)
    return frozenset(names - declared)


def _function_namespace(func: FunctionType) -> Mapping[str, object]:
    cells: dict[str, object] = {}
    for name, cell in zip(func.__code__.co_freevars, func.__closure__ or (), strict=False):
        try:
            cells[name] = cell.cell_contents
        except ValueError:  # a cell not filled yet: the name is not bound
            continue
    return ChainMap(cells, func.__globals__, vars(builtins))


def _method(owner: type, func: FunctionType, current: type, index: SourceIndex) -> Method | None:
    found = index.function(func)
    if found is None:
        return None
    node, location = found
    positional = [*node.args.posonlyargs, *node.args.args]
    self_name = positional[0].arg if positional else None
    scope = Scope(_function_namespace(func), _local_names(node), self_name, current)
    return Method(owner, func.__name__, node, location, scope)


def _body(owner: type, node: ast.ClassDef, file: str, current: type) -> ClassBody:
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    statements = tuple(s for s in node.body if not isinstance(s, definitions))
    module = inspect.getmodule(owner)
    module_vars: dict[str, Any] = vars(module) if module is not None else {}
    namespace = ChainMap(dict(vars(owner)), module_vars, vars(builtins))
    return ClassBody(owner, statements, Scope(namespace, frozenset(), None, current), file)


def _add_methods(
    owner: type, cls: type, index: SourceIndex, chains: dict[str, list[Method]]
) -> list[str]:
    """Add the methods ``owner`` defines to ``chains``; return those without source."""
    missing = []
    for name, value in vars(owner).items():
        # A property has up to three functions; keys after the first are distinct.
        for position, func in enumerate(_functions(value)):
            method = _method(owner, func, cls, index)
            if method is None:
                missing.append(f"{owner.__qualname__}.{name}")
            else:
                key = f"{name}#{position}" if position else name
                chains.setdefault(key, []).append(method)
    return missing


def view_class(cls: type, index: SourceIndex) -> ClassView:
    """Collect the code of ``cls`` and of the user classes in its MRO."""
    chains: dict[str, list[Method]] = {}
    bodies: list[ClassBody] = []
    missing: list[str] = []
    for owner in cls.__mro__:
        if _is_library(owner):
            continue
        found = index.class_def(owner)
        if found is not None:
            bodies.append(_body(owner, found[0], found[1].file, cls))
        missing += _add_methods(owner, cls, index, chains)
    own = index.class_def(cls)
    frozen = {name: tuple(chain) for name, chain in chains.items()}
    return ClassView(cls, frozen, tuple(bodies), tuple(missing), own[1] if own else None)
