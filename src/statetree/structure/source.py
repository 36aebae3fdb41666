"""Finding the syntax tree of a class or function: each module parsed once, indexed by qualname."""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from types import FunctionType, ModuleType
from typing import TypeAlias

from statetree.structure.model import Location

__all__ = ["FunctionNode", "ModuleSource", "SourceIndex", "parse_module"]

FunctionNode: TypeAlias = "ast.FunctionDef | ast.AsyncFunctionDef"
_Definition: TypeAlias = "ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef"


@dataclass(frozen=True, slots=True)
class ModuleSource:
    """A parsed module and its definitions, keyed by their ``__qualname__``."""

    file: str
    definitions: dict[str, list[_Definition]]


def _walk(tree: ast.AST) -> Iterator[tuple[str, _Definition]]:
    """Every function and class in ``tree``, in source order, with the qualname Python
    gives it (a loop, not recursion: any expression a module can hold is read)."""
    waiting: list[tuple[ast.AST, str]] = [(tree, "")]
    while waiting:
        node, prefix = waiting.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield prefix + node.name, node
            inner = ".<locals>." if not isinstance(node, ast.ClassDef) else "."
            prefix = prefix + node.name + inner
        waiting += [(child, prefix) for child in reversed(list(ast.iter_child_nodes(node)))]


def parse_module(module: ModuleType) -> tuple[ast.Module, str] | None:
    """The syntax tree of ``module`` and its file, or ``None`` when its source is not available."""
    try:
        # Not inspect.getsource: it asks the module for __wrapped__, which runs a module-level
        # __getattr__, and that may raise anything.
        lines, _ = inspect.findsource(module)
        file = inspect.getsourcefile(module) or module.__name__
        return ast.parse("".join(lines), filename=file), file
    except (OSError, TypeError, SyntaxError, ValueError):
        return None


def _first_line(node: _Definition) -> int:
    """The line Python reports as a definition's first: its first decorator's, if any."""
    return min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])


class SourceIndex:
    """Parses the modules that define the classes of one derivation, each at most once."""

    def __init__(self) -> None:
        self._modules: dict[str, ModuleSource | None] = {}

    def module(self, name: str) -> ModuleSource | None:
        """The parsed module ``name``, or ``None`` when its source is not available."""
        if name not in self._modules:
            self._modules[name] = self._parse(name)
        return self._modules[name]

    @staticmethod
    def _parse(name: str) -> ModuleSource | None:
        module = sys.modules.get(name)
        parsed = None if module is None else parse_module(module)
        if parsed is None:
            return None
        tree, file = parsed
        definitions: dict[str, list[_Definition]] = {}
        for qualname, node in _walk(tree):
            definitions.setdefault(qualname, []).append(node)
        return ModuleSource(file, definitions)

    def function(self, func: FunctionType) -> tuple[FunctionNode, Location] | None:
        """The syntax tree of ``func`` and where it starts, if its source is available."""
        source = self.module(func.__module__)
        if source is None:
            return _function_alone(func)
        first = func.__code__.co_firstlineno
        for node in source.definitions.get(func.__qualname__, ()):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                _first_line(node) == first or node.lineno == first
            ):
                return node, Location(source.file, node.lineno)
        return None

    def class_def(self, cls: type) -> tuple[ast.ClassDef, Location] | None:
        """The syntax tree of ``cls`` and where it starts, if its source is available.

        When a module defines the same qualified name twice, the definition on the line
        Python recorded wins, else the last one (the one a re-definition leaves bound).
        """
        source = self.module(cls.__module__)
        if source is None:
            return None
        nodes = [n for n in source.definitions.get(cls.__qualname__, ()) if _is_class(n)]
        first = getattr(cls, "__firstlineno__", None)
        matching = [n for n in nodes if first in (n.lineno, _first_line(n))] or nodes
        if not matching:
            return None
        node = matching[-1]
        assert isinstance(node, ast.ClassDef)
        return node, Location(source.file, node.lineno)


def _is_class(node: _Definition) -> bool:
    return isinstance(node, ast.ClassDef)


def _function_alone(func: FunctionType) -> tuple[FunctionNode, Location] | None:
    """Parse just the lines of ``func``, for code whose module as a whole is not Python
    (e.g. run from a document) but whose lines can still be read."""
    try:
        lines, start = inspect.getsourcelines(func)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, ValueError):
        return None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    ast.increment_lineno(node, start - 1)
    return node, Location(func.__code__.co_filename, node.lineno)
