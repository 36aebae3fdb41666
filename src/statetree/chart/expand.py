"""Expanding pattern uses: a chart document with ``use:`` states becomes a plain one.

This is the first step of loading, on plain data: each state written ``use: Pattern`` (with
arguments under ``with``) is replaced by the pattern's state, its ``$param`` references
filled in with the arguments (each checked against the parameter's type), named as the
use says, and with the ``pre``, ``post`` or ``transitions`` the use gives in place of the
pattern's. Uses inside a pattern are expanded in turn, in the scope of the pattern's own
file. The expanded document is then read and validated like any other, and the
:class:`~statetree.chart.Origin` built here locates every problem where it was written: at
the use, or at the line inside the pattern, naming the uses it came through.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from statetree.chart.document import Document
from statetree.chart.errors import ChartError
from statetree.chart.library import Libraries, Library, ReadFile, chart_folder
from statetree.chart.model import (
    NAME_PATTERN,
    DataPath,
    Origin,
    PatternDef,
    UseDef,
    UseSite,
)
from statetree.chart.parse import STATE_KEYS, USE_KEYS, kind_of
from statetree.chart.registry import ParamValue, signature
from statetree.chart.template import fill
from statetree.chart.text import MAX_DEPTH

__all__ = ["MAX_EXPANDED_SIZE", "Expanded", "expand_document"]

MAX_EXPANDED_SIZE = 1 << 16
"""The most values (mappings, lists and scalars) all the uses of a chart may expand into:
thousands of states, more than a large chart file holds. A pattern used twice inside
another used twice, and so on, doubles the size at each level; this bounds it, and the
time loading takes (about a second at the limit)."""

_PLACEMENT = ("pre", "post", "transitions")
"""What a use may set itself: how its parent reads the state, which the pattern cannot know."""


@dataclass(frozen=True, slots=True)
class Expanded:
    """A chart document with its uses expanded.

    Attributes:
        document: the expanded document (same file and lines as the one read).
        origin: where each place of it was written, every use and imported file listed.
        library: the chart file's own patterns and imports, and what they can use.
    """

    document: Document
    origin: Origin
    library: Library

    @property
    def patterns(self) -> tuple[PatternDef, ...]:
        """The patterns the chart's own file defines."""
        return tuple(self.library.patterns.values())

    @property
    def imports(self) -> tuple[str, ...]:
        """The chart's imports, as written."""
        return tuple(entry for entry, _ in self.library.imports)


@dataclass(frozen=True, slots=True)
class _At:
    """Where a state being expanded is: its place in the expanded chart, where it is
    written (a file and a place in it), the uses it lies in (innermost first), and the
    file whose patterns it can use."""

    where: DataPath
    file: str
    written: DataPath
    chain: tuple[UseSite, ...]
    library: Library

    def child(self, index: int) -> _At:
        """The place of the child ``index`` of this state."""
        inner = ("states", index)
        return _At(
            (*self.where, *inner), self.file, (*self.written, *inner), self.chain, self.library
        )


class _Expander:
    def __init__(self, libraries: Libraries, top: Library) -> None:
        self.libraries = {top.file: top, **libraries.by_file}
        imported = {name: found.document.lines for name, found in libraries.by_file.items()}
        self.origin = Origin(top.file, top.document.lines, (), imported)
        self.sites: list[UseSite] = []
        self.problems = libraries.problems
        self.size = 0
        self.sizes: dict[tuple[str, str], int] = {}
        self.too_deep = False  # said once: a pattern used twice nests twice as many uses

    def problem(self, at: _At, suffix: DataPath, message: str) -> None:
        place = (*at.written, *suffix)
        self.problems.append(self.origin.problem_at(at.file, place, message, at.chain))

    def chart(self, data: object, top: Library) -> object:
        if not isinstance(data, dict) or "root" not in data:
            return data
        return {
            **data,
            "root": self.state(data["root"], _At(("root",), top.file, ("root",), (), top)),
        }

    def state(self, value: object, at: _At) -> object:
        """``value`` with the uses in it expanded (anything not a state is left to the
        reader, which says what is wrong with it)."""
        if not isinstance(value, dict) or len(at.where) >= MAX_DEPTH:
            return value
        if "use" in value:
            return self.use(value, at)
        if "with" in value:
            message = "'with' gives the arguments of a use: add 'use: PATTERN', or remove it"
            self.problem(at, ("with",), message)
        return self.children(dict(value), at)

    def children(self, state: dict[str, object], at: _At) -> dict[str, object]:
        children = state.get("states")
        if isinstance(children, list):
            state["states"] = [self.state(child, at.child(i)) for i, child in enumerate(children)]
        return state

    def use(self, value: dict[str, object], at: _At) -> object:
        """The state a use becomes; a stand-in naming the use when it has a problem."""
        found = self.pattern(value, at)
        stand_in = {"name": value.get("name", "_")}
        if found is None:
            return stand_in
        file, pattern = found
        arguments = self.arguments(value, pattern, at, file)
        if arguments is None or not self.within_limits(file, pattern, at):
            return stand_in
        given = tuple(key for key in value if key in _PLACEMENT)
        written = tuple((key, arguments[key]) for key in _given(value))
        used = UseDef(pattern.name, written, given)
        path = ("patterns", pattern.name)
        site = UseSite(pattern.name, at.where, at.file, at.written, file, path, used)
        self.sites.append(site)
        body = fill(pattern.body, arguments)
        assert isinstance(body, dict)  # a pattern's body is a mapping
        state: dict[str, object] = {"name": value.get("name", pattern.name), **body}
        state.update((key, value[key]) for key in given)
        inside = _At(at.where, file, path, (site, *at.chain), self.libraries[file])
        return self.children(state, inside)

    def pattern(self, value: dict[str, object], at: _At) -> tuple[str, PatternDef] | None:
        """The pattern a use names, and the file defining it (problems noted)."""
        extra = [key for key in value if key not in USE_KEYS]
        for key in extra:
            self.problem(at, (key,), _not_at_use(key))
        name = value["use"]
        if not isinstance(name, str) or not NAME_PATTERN.match(name):
            shown = repr(name) if isinstance(name, str) else kind_of(name)
            self.problem(at, ("use",), f"'use' names a pattern, got {shown}")
            return None
        found = at.library.scope.get(name)
        if found is None:
            known = ", ".join(at.library.scope) or "none"
            message = f"unknown pattern {name!r}; the patterns {at.library.file} can use: {known}"
            self.problem(at, ("use",), message)
            return None
        if any(site.pattern == name and site.pattern_file == found[0] for site in at.chain):
            outer = [site.pattern for site in reversed(at.chain)]
            cycle = " -> ".join([*outer[outer.index(name) :], name])
            self.problem(at, ("use",), f"the pattern {name} uses itself: {cycle}")
            return None
        return None if extra else found

    def arguments(
        self, value: dict[str, object], pattern: PatternDef, at: _At, file: str
    ) -> dict[str, ParamValue] | None:
        """The value of each parameter: the use's argument or the default (``None``: a
        problem was noted)."""
        given = value.get("with", {})
        named = signature(pattern.name, pattern.params)
        if not isinstance(given, dict):
            message = f"'with' maps the parameters of {named} to values; got {kind_of(given)}"
            self.problem(at, ("with",), message)
            return None
        count = len(self.problems)
        for key, argument in given.items():
            refusal = self.refusal(pattern, key, argument, file)
            if refusal is not None:
                self.problem(at, ("with", key), refusal)
        for param in pattern.params:
            if param.name not in given and param.default is None:
                self.problem(at, (), f"{named} needs {param.name!r} under 'with'")
        if len(self.problems) > count:
            return None
        # Every parameter now has a value of its type: the argument, or else its default.
        chosen = {param: given.get(param.name, param.default) for param in pattern.params}
        return {param.name: param.convert(cast(ParamValue, v)) for param, v in chosen.items()}

    def refusal(self, pattern: PatternDef, key: str, argument: object, file: str) -> str | None:
        """Why ``argument`` cannot be the parameter ``key`` of ``pattern`` (``None``: it can)."""
        param = pattern.param(key)
        if param is None:
            return f"{signature(pattern.name, pattern.params)} has no parameter {key!r}"
        scalar = isinstance(argument, (str, int, float, bool))
        refusal = param.refusal(argument) if scalar else f"got {kind_of(argument)}"
        if refusal is None:
            return None
        line = self.origin.line_in(file, ("patterns", pattern.name, "params", key))
        return f"{pattern.name}: {key!r} {refusal} (declared at {file}:{line})"

    def within_limits(self, file: str, pattern: PatternDef, at: _At) -> bool:
        """Whether one more expansion of ``pattern`` at ``at`` stays within the limits."""
        if self.size > MAX_EXPANDED_SIZE:
            return False  # said once: the uses left are not expanded
        key = (file, pattern.name)
        size = self.sizes.get(key)
        if size is None:
            size = self.sizes[key] = _size(pattern.body)
        self.size += size
        if self.size > MAX_EXPANDED_SIZE:
            message = (
                f"the uses of patterns expand into more than {MAX_EXPANDED_SIZE:,} values (a "
                "pattern used several times inside another multiplies its size)"
            )
        elif len(at.where) + 2 >= MAX_DEPTH:
            if self.too_deep:
                return False
            self.too_deep = True
            message = f"patterns used inside patterns nest more than {MAX_DEPTH} levels deep"
        else:
            return True
        self.problem(at, ("use",), message)
        return False


def _given(value: dict[str, object]) -> tuple[str, ...]:
    given = value.get("with", {})
    return tuple(given) if isinstance(given, dict) else ()


def _not_at_use(key: str) -> str:
    if key in STATE_KEYS:
        return (
            f"a use takes its {key!r} from its pattern: change the pattern, or detach this "
            "use into plain states"
        )
    return f"unknown key {key!r}; a use has {', '.join(USE_KEYS)}"


def _size(data: object) -> int:
    """How many values ``data`` holds, itself included."""
    if isinstance(data, Mapping):
        return 1 + sum(_size(item) for item in data.values())
    if isinstance(data, (list, tuple)):
        return 1 + sum(_size(item) for item in data)
    return 1


def expand_document(document: Document, read: ReadFile | None = None) -> Expanded:
    """``document`` with its uses of patterns expanded (see the module's documentation).

    Args:
        read: reads the files the document imports (``None``: imports are refused).

    Raises:
        ChartError: a declaration, an import or a use is wrong; each problem names its
            file and line, and the uses it came through.
    """
    libraries = Libraries(read, chart_folder(document.file))
    top = libraries.library(document)
    if libraries.problems:
        raise ChartError(libraries.problems)
    expander = _Expander(libraries, top)
    data = expander.chart(document.data, top)
    if expander.problems:
        raise ChartError(expander.problems)
    origin = Origin(document.file, document.lines, tuple(expander.sites), expander.origin.imported)
    expanded = Document(data, document.file, document.lines, document.editable)
    return Expanded(expanded, origin, top)
