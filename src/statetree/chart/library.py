"""The patterns a chart file can use: those it defines and those of the files it imports.

A file declares ``patterns`` (each a state's keys, its ``name`` aside, plus typed
``params``) and ``imports`` (chart files, written relative to it, whose own patterns it may
use). Imported files are read once each, must lie in the loaded chart's folder tree (its
folder and the folders below), must not import each other in a cycle, and may be libraries
holding patterns only. Every declaration is checked here, the ``$param`` references of each
body included; a body itself is checked when it is used, with the use's arguments.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from statetree.chart.document import Document
from statetree.chart.errors import ChartError, Problem
from statetree.chart.model import DataPath, PatternDef
from statetree.chart.parse import STATE_KEYS, ShapeReader, kind_of
from statetree.chart.registry import PARAM_TYPES, Param, ParamValue
from statetree.chart.template import references
from statetree.errors import DefinitionError

__all__ = [
    "MAX_IMPORTED_FILES",
    "PATTERN_KEYS",
    "Libraries",
    "Library",
    "ReadFile",
    "chart_folder",
]

MAX_IMPORTED_FILES = 64
"""The most files one chart may read patterns from, its imports' imports included."""

PATTERN_KEYS = ("params", *(key for key in STATE_KEYS if key != "name"))
"""The keys of a pattern: a state's, but its name (each use gives one), plus ``params``."""
_PARAM_KEYS = ("type", "default", "minimum", "choices")
_TYPES = ", ".join(PARAM_TYPES)

ReadFile = Callable[[str], Document]
"""Reads the chart file of a name, as the loader does.

Raises:
    ChartError: it cannot be read or does not parse.
"""


def chart_folder(file: str) -> Path:
    """The folder tree a chart's imports must stay in: the folder of its file (the current
    folder for a chart read from text or data)."""
    return Path(file).parent.resolve()


@dataclass(slots=True)
class Library:
    """A file's patterns, as a chart or another file can use them.

    Attributes:
        document: the file as read.
        patterns: the patterns it defines, by name, in order.
        imports: its imports as written, with the file each names (``None``: not read).
        scope: every pattern a use in this file can name, with the file defining it.
    """

    document: Document
    patterns: dict[str, PatternDef]
    imports: tuple[tuple[str, str | None], ...] = ()
    scope: dict[str, tuple[str, PatternDef]] = field(default_factory=dict)

    @property
    def file(self) -> str:
        """The file's name, as problems name it."""
        return self.document.file


class _Declarations(ShapeReader):
    """Reads a file's ``patterns`` and ``imports``."""

    def patterns(self, value: object) -> dict[str, PatternDef]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.problem(
                ("patterns",),
                "'patterns' maps each pattern's name to its state (without a name) and its "
                f"params; got {kind_of(value)}",
            )
            return {}
        found = {}
        for name, body in value.items():
            pattern = self.pattern(name, body, ("patterns", name))
            if pattern is not None:
                found[pattern.name] = pattern
        return found

    def pattern(self, name: object, value: object, path: DataPath) -> PatternDef | None:
        checked = self.name(name, path)
        if isinstance(value, dict) and "name" in value:
            self.problem(
                (*path, "name"), "a pattern's state takes its name from each use: remove 'name'"
            )
        data = self.mapping(value, path, (*PATTERN_KEYS, "name"))
        params = self.params(data.get("params"), (*path, "params"))
        body = {key: item for key, item in data.items() if key not in ("params", "name")}
        self.references(body, path, {param.name for param in params})
        if checked is None or not isinstance(value, dict):
            return None
        return PatternDef(checked, params, body)

    def params(self, value: object, path: DataPath) -> tuple[Param, ...]:
        if value is None:
            return ()
        if not isinstance(value, dict):
            self.problem(
                path,
                f"'params' maps each parameter's name to its type ({_TYPES}) or to "
                f"{{type, default, minimum, choices}}; got {kind_of(value)}",
            )
            return ()
        found = (self.param(name, item, (*path, name)) for name, item in value.items())
        return tuple(param for param in found if param is not None)

    def param(self, name: object, value: object, path: DataPath) -> Param | None:
        checked = self.name(name, path)
        data = self.mapping({"type": value} if isinstance(value, str) else value, path, _PARAM_KEYS)
        written = data.get("type")
        kind = PARAM_TYPES.get(written) if isinstance(written, str) else None
        if kind is None:
            where = path if isinstance(value, str) else (*path, "type")
            shown = repr(written) if "type" in data else "none"
            self.problem(where, f"a parameter's type is one of {_TYPES}; got {shown}")
        default = self.scalar(data.get("default"), (*path, "default"))
        minimum = self.minimum(data.get("minimum"), (*path, "minimum"), kind)
        choices = self.choices(data.get("choices"), (*path, "choices"))
        if checked is None or kind is None:
            return None
        try:
            param = Param(checked, kind, None, minimum, choices)
        except DefinitionError as error:
            self.problem(path, str(error))
            return None
        return self.defaulted(param, default, (*path, "default"))

    def scalar(self, value: object, path: DataPath) -> ParamValue | None:
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        self.problem(path, f"expected a string, number or boolean, got {kind_of(value)}")
        return None

    def minimum(self, value: object, path: DataPath, kind: type | None) -> float | None:
        if value is None:
            return None
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if kind not in (int, float) or not number:
            self.problem(path, "only an integer or number parameter has a minimum, a number")
            return None
        return value  # type: ignore[return-value]  # a number, checked above

    def choices(self, value: object, path: DataPath) -> tuple[ParamValue, ...] | None:
        if value is None:
            return None
        if not isinstance(value, list):
            self.problem(path, f"'choices' is a list of values, got {kind_of(value)}")
            return None
        found = (self.scalar(item, (*path, index)) for index, item in enumerate(value))
        return tuple(item for item in found if item is not None)

    def defaulted(self, param: Param, default: ParamValue | None, path: DataPath) -> Param:
        """``param`` with its default, once the default is known to fit it."""
        if default is None:
            return param
        refusal = param.refusal(default)
        if refusal is not None:
            self.problem(path, f"the default of {param.name!r} {refusal}")
            return param
        return Param(param.name, param.type, param.convert(default), param.minimum, param.choices)

    def references(self, value: object, path: DataPath, names: set[str]) -> None:
        """Every ``$`` in the values of a body refers to a declared parameter."""
        if isinstance(value, str):
            for name in references(value):
                if name is None:
                    self.problem(
                        path,
                        f"{value!r}: a $ starts a parameter ($name or ${{name}}); write $$ "
                        "for a dollar sign",
                    )
                elif name not in names:
                    known = ", ".join(sorted(names)) or "none"
                    self.problem(path, f"no parameter {name!r} (parameters: {known})")
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and "$" in key:
                    self.problem(
                        (*path, key),
                        f"a parameter stands for a value, never for a key: {key!r}",
                    )
                self.references(item, (*path, key), names)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self.references(item, (*path, index), names)

    def imports(self, value: object) -> tuple[tuple[int, str], ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            self.problem(("imports",), f"'imports' is a list of chart files, got {kind_of(value)}")
            return ()
        found = []
        for index, item in enumerate(value):
            if isinstance(item, str) and item:
                found.append((index, item))
            else:
                self.problem(
                    ("imports", index),
                    f"an import is a chart file's path, relative to this file; got {kind_of(item)}",
                )
        return tuple(found)


class Libraries:
    """Reads a chart's own patterns and, once each, the files it imports.

    Args:
        read: reads an imported file (``None``: imports are refused).
        folder: the folder tree imported files must lie in.
    """

    def __init__(self, read: ReadFile | None, folder: Path) -> None:
        self.read = read
        self.folder = folder
        self.by_file: dict[str, Library] = {}
        self.begun = 0  # files begun: an import chain counts before its last file is read
        self.named: dict[Path, str] = {}
        self.loading: list[tuple[Path, str]] = []
        self.problems: list[Problem] = []

    def library(self, document: Document) -> Library:
        """The patterns of ``document`` and of its imports (problems noted)."""
        reader = _Declarations(document.origin)
        data = document.data if isinstance(document.data, dict) else {}
        library = Library(document, reader.patterns(data.get("patterns")))
        library.scope = {name: (document.file, p) for name, p in library.patterns.items()}
        entries = reader.imports(data.get("imports"))
        self.problems += reader.problems
        itself = Path(document.file)
        if itself.is_file():
            self.loading.append((itself.resolve(), document.file))
        imports = [self.imported(library, index, entry) for index, entry in entries]
        if itself.is_file():
            self.loading.pop()
        library.imports = tuple(imports)
        return library

    def imported(self, library: Library, index: int, entry: str) -> tuple[str, str | None]:
        """Read the import ``entry`` of ``library`` and add its patterns to the scope."""
        origin = library.document.origin

        def problem(message: str) -> Problem:
            return origin.problem(("imports", index), message)

        other = self.read_import(library.file, entry, problem)
        if other is None:
            return entry, None
        for name, pattern in other.patterns.items():
            defined = library.scope.setdefault(name, (other.file, pattern))
            if defined[1] is not pattern:
                self.problems.append(
                    problem(
                        f"{entry!r} defines the pattern {name!r}, and so does {defined[0]}: "
                        "rename one of them"
                    )
                )
        return entry, other.file

    def read_import(
        self, importer: str, entry: str, problem: Callable[[str], Problem]
    ) -> Library | None:
        """The library ``entry`` names, read once; ``None`` (a problem noted) if it cannot be."""
        path = Path(importer).parent / entry
        refusal = self.refusal(entry, path)
        if refusal is not None:
            self.problems.append(problem(refusal))
            return None
        resolved = path.resolve()
        if resolved in self.named:
            return self.by_file[self.named[resolved]]
        if self.begun >= MAX_IMPORTED_FILES:
            self.problems.append(problem(f"a chart reads at most {MAX_IMPORTED_FILES} files"))
            return None
        self.begun += 1
        document = self.document(os.path.normpath(path), entry, problem)
        if document is None:
            return None
        library = self.library(document)
        self.named[resolved] = document.file
        self.by_file[document.file] = library
        return library

    def refusal(self, entry: str, path: Path) -> str | None:
        """Why ``entry`` (found at ``path``) cannot be imported (``None``: it can)."""
        if self.read is None:
            return "imports are read only when a chart is loaded from a file or text"
        if Path(entry).is_absolute():
            return f"{entry!r}: an import is a path relative to the importing file"
        resolved = path.resolve()
        if not resolved.is_relative_to(self.folder):
            return (
                f"{entry!r} is outside the chart's folder tree: a chart imports only files "
                "in its own folder and the folders below it"
            )
        for start, (place, _) in enumerate(self.loading):
            if place == resolved:
                names = [name for _, name in self.loading[start:]]
                return f"import cycle: {' -> '.join([*names, names[0]])}"
        return None

    def document(self, name: str, entry: str, problem: Callable[[str], Problem]) -> Document | None:
        """The file ``name`` (imported as ``entry``) as read; ``None`` if it cannot be."""
        assert self.read is not None  # refusal() said so
        try:
            return self.read(name)
        except ChartError as error:
            unread = [found for found in error.problems if not found.line]
            if unread:
                reason = unread[0].message
                self.problems.append(problem(f"cannot import {entry!r}: {reason}"))
            self.problems += [found for found in error.problems if found.line]
            return None
