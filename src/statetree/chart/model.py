"""The chart model: immutable, format-independent definitions of a chart's states.

Every input format (YAML, TOML, JSON, Python data, the builder) is read into these frozen
dataclasses; compiling, plotting and the CLI only ever see this model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import Any, TypeAlias

from statetree.chart.errors import Problem, UsedAt
from statetree.chart.registry import DEFAULT_REGISTRY, Param, ParamValue, Registry

__all__ = [
    "DEFAULT_POLICY",
    "NAME_PATTERN",
    "NAME_RULE",
    "ActionDef",
    "AllOf",
    "AnyOf",
    "Chart",
    "Condition",
    "DataPath",
    "NotOf",
    "Origin",
    "ParamValue",
    "PatternDef",
    "Place",
    "StateDef",
    "TransitionDef",
    "TriggerDef",
    "UseDef",
    "UseSite",
    "childless_policy",
    "format_path",
    "freeze",
    "thaw",
    "triggers_of",
]

NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
"""What a name in a chart (a state, a trigger's name, a pattern, a parameter) must match."""
NAME_RULE = "a name must be ASCII letters, digits and _, not starting with a digit"
""":data:`NAME_PATTERN` in words, for messages."""

DataPath: TypeAlias = "tuple[str | int, ...]"
"""A place in a chart document: keys and list indexes from the top, e.g. ``("root", "name")``."""


def format_path(path: DataPath) -> str:
    """``root.states[0].name`` for ``("root", "states", 0, "name")``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


DEFAULT_POLICY = "explicit"
"""The policy of a state with children that names none. The policies a chart may name, and
what each means, are their definitions in :mod:`statetree.chart.policy`."""


def childless_policy(name: object, policy: str) -> str:
    """Why a state without children cannot have ``policy`` (none of them can: a policy
    chooses among children)."""
    article = "an" if policy[0] in "aeiou" else "a"
    return (
        f"{name!r} is {article} {policy} state with no children; give it 'states' or "
        "remove its policy"
    )


@dataclass(frozen=True, slots=True)
class TriggerDef:
    """A trigger: true when an event of kind ``type`` named ``name`` is latched.

    ``TriggerDef("input", "Jump")`` responds to the event ``Event("input", "Jump")``.
    """

    type: str
    name: str

    def __str__(self) -> str:
        return f"{self.type} {self.name}"


@dataclass(frozen=True, slots=True)
class AllOf:
    """True when every one of ``conditions`` is."""

    conditions: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    """True when at least one of ``conditions`` is."""

    conditions: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class NotOf:
    """True when ``condition`` is not."""

    condition: Condition


Condition: TypeAlias = "TriggerDef | AllOf | AnyOf | NotOf"
"""A condition tree whose leaves are triggers."""


def triggers_of(condition: Condition) -> Iterator[TriggerDef]:
    """Every trigger in ``condition``, depth first."""
    if isinstance(condition, TriggerDef):
        yield condition
    elif isinstance(condition, NotOf):
        yield from triggers_of(condition.condition)
    else:
        for item in condition.conditions:
            yield from triggers_of(item)


@dataclass(frozen=True, slots=True)
class ActionDef:
    """An enter or exit action: its type and its parameters (in the type's declared order)."""

    type: str
    params: tuple[tuple[str, ParamValue], ...] = ()

    @property
    def arguments(self) -> Mapping[str, ParamValue]:
        """The parameters as a read-only mapping."""
        return MappingProxyType(dict(self.params))

    def __str__(self) -> str:
        inside = ", ".join(f"{name}={value!r}" for name, value in self.params)
        return f"{self.type}({inside})"


@dataclass(frozen=True, slots=True)
class TransitionDef:
    """An explicit transition: when ``on`` holds, the state is replaced by sibling ``to``."""

    on: Condition
    to: str


@dataclass(frozen=True, slots=True)
class UseDef:
    """How a state was written: as a use of a pattern, expanded into the state at load.

    Attributes:
        pattern: the pattern's name.
        arguments: the arguments the use gives, as written (parameters left at their
            default are not listed).
        given: the keys the use sets itself in place of the pattern's (``pre``,
            ``post``, ``transitions``), in the order written.
    """

    pattern: str
    arguments: tuple[tuple[str, ParamValue], ...] = ()
    given: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StateDef:
    """One state of a chart.

    Attributes:
        name: unique among its siblings; the state's path joins the names with dots.
        policy: how it activates its children; ``None`` for a state without children.
        states: the children, in order (the order means something to every policy).
        pre: pre-conditions (all must hold), read by its parent's policy if it reads them
            (:mod:`statetree.chart.parts` says which do).
        post: post-conditions (any one suffices), read by its parent's policy likewise.
        enter: actions run when the state is entered, in order.
        exit: actions run when it is exited, in order.
        transitions: explicit transitions to siblings, tried in order, read by its parent's
            policy likewise.
        use: the pattern use this state was written as (``None``: written out); states
            compare by what they define, so this is not compared.
    """

    name: str
    policy: str | None = None
    states: tuple[StateDef, ...] = ()
    pre: tuple[Condition, ...] = ()
    post: tuple[Condition, ...] = ()
    enter: tuple[ActionDef, ...] = ()
    exit: tuple[ActionDef, ...] = ()
    transitions: tuple[TransitionDef, ...] = ()
    use: UseDef | None = field(default=None, compare=False)

    def child(self, name: str) -> StateDef | None:
        """The child called ``name``, or ``None``."""
        for state in self.states:
            if state.name == name:
                return state
        return None


def freeze(data: object) -> object:
    """Plain data made read-only: mappings as read-only views, lists as tuples."""
    if isinstance(data, Mapping):
        return MappingProxyType({key: freeze(value) for key, value in data.items()})
    if isinstance(data, (list, tuple)):
        return tuple(freeze(item) for item in data)
    return data


def thaw(data: object) -> object:
    """Read-only data (see :func:`freeze`) as plain dicts and lists again."""
    if isinstance(data, Mapping):
        return {key: thaw(value) for key, value in data.items()}
    if isinstance(data, tuple):
        return [thaw(item) for item in data]
    return data


@dataclass(frozen=True, slots=True)
class PatternDef:
    """A named state subtree with typed parameters, used by states written ``use: Name``.

    Attributes:
        name: the pattern's name, unique among the patterns a file can use.
        params: its parameters, in order (``Param``: name, type, default, minimum,
            choices; no default makes one required).
        body: the state's keys (all but ``name``, which each use gives) as read-only
            plain data, ``$param`` (or ``${param}`` inside a text) where a parameter's
            value goes. A body is checked when it is used, with the use's arguments.
    """

    name: str
    params: tuple[Param, ...] = ()
    body: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(self.params))
        object.__setattr__(self, "body", freeze(self.body))

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, or ``None``."""
        return next((param for param in self.params if param.name == name), None)


@dataclass(frozen=True, slots=True)
class UseSite:
    """Where one use of a pattern is written, and where its pattern is defined.

    Attributes:
        pattern: the pattern's name.
        path: the place of the state the use became, in the chart's expanded data.
        file: the file the use is written in.
        written: the place of the use in ``file``.
        pattern_file: the file that defines the pattern.
        pattern_path: the place of the pattern in ``pattern_file`` (``patterns.Name``).
        use: the use as written (its arguments and the keys it sets itself).
    """

    pattern: str
    path: DataPath
    file: str
    written: DataPath
    pattern_file: str
    pattern_path: DataPath
    use: UseDef


@dataclass(frozen=True, slots=True)
class Place:
    """Where a place of a chart's expanded data was written.

    Attributes:
        file: the file it was written in.
        path: its place in that file.
        line: its line there (0: unknown).
        uses: the pattern uses it lies in, innermost first (empty: written in the chart).
    """

    file: str
    path: DataPath
    line: int
    uses: tuple[UseSite, ...] = ()


def _line(lines: Mapping[DataPath, int], path: DataPath) -> int:
    """The line of ``path``, or of its nearest enclosing place that has one (0: none)."""
    for end in range(len(path), -1, -1):
        line = lines.get(path[:end])
        if line:
            return line
    return 0


def _by_path(uses: tuple[UseSite, ...]) -> Mapping[DataPath, UseSite]:
    return MappingProxyType({site.path: site for site in uses})


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a chart came from: its file, and the line of each place in the document.

    Attributes:
        file: the chart's file.
        lines: the line of each place of ``file``, by data path.
        uses: every pattern use expanded into the chart, outer uses first.
        imported: the lines of every other file the chart was read from (its imports),
            by file name.
    """

    file: str
    lines: Mapping[DataPath, int] = field(default_factory=lambda: MappingProxyType({}))
    uses: tuple[UseSite, ...] = ()
    imported: Mapping[str, Mapping[DataPath, int]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    _sites: Mapping[DataPath, UseSite] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_sites", _by_path(self.uses))

    @property
    def files(self) -> tuple[str, ...]:
        """Every file the chart was read from: its own first, then its imports."""
        return (self.file, *self.imported)

    def line(self, path: DataPath) -> int:
        """The line of ``path`` in the chart's own file, or of its nearest enclosing place
        that has one (0: none); a place a pattern wrote has the line of its use."""
        return _line(self.lines, path)

    def lines_of(self, file: str) -> Mapping[DataPath, int]:
        """The lines of ``file``, one of :attr:`files` (empty for any other)."""
        if file == self.file:
            return self.lines
        return self.imported.get(file, MappingProxyType({}))

    def line_in(self, file: str, path: DataPath) -> int:
        """The line of ``path`` in ``file``, one of :attr:`files` (as :meth:`line` does)."""
        return _line(self.lines_of(file), path)

    def sites(self, path: DataPath) -> tuple[UseSite, ...]:
        """The uses whose expansion holds ``path`` (the use itself included), innermost first."""
        sites = self._sites
        if not sites:
            return ()
        return tuple(sites[path[:end]] for end in range(len(path), -1, -1) if path[:end] in sites)

    def use_at(self, path: DataPath) -> UseSite | None:
        """The use written at ``path`` (the state it became is there), or ``None``."""
        return self._sites.get(path)

    def place(self, path: DataPath) -> Place:
        """Where the place ``path`` of the chart's expanded data was written: in the chart,
        at a use (its name and the keys it sets) or inside a pattern."""
        sites = self.sites(path)
        if not sites:
            return Place(self.file, path, _line(self.lines, path))
        site, rest = sites[0], path[len(sites[0].path) :]
        if not rest or rest[0] in _AT_USE or rest[0] in site.use.given:
            file, inner, uses = site.file, (*site.written, *rest), sites[1:]
        else:
            file, inner, uses = site.pattern_file, (*site.pattern_path, *rest), sites
        return Place(file, inner, _line(self.lines_of(file), inner), uses)

    def used_at(self, site: UseSite) -> UsedAt:
        """The use ``site`` as a problem names it: its pattern, file and line."""
        return UsedAt(site.pattern, site.file, self.line_in(site.file, site.written))

    def problem(self, path: DataPath, message: str) -> Problem:
        """A problem at ``path`` of the chart's expanded data, located where it was written."""
        place = self.place(path)
        return self.problem_at(place.file, place.path, message, place.uses)

    def problem_at(
        self, file: str, path: DataPath, message: str, uses: tuple[UseSite, ...] = ()
    ) -> Problem:
        """A problem at ``path`` of ``file`` (one of :attr:`files`), written inside the
        pattern ``uses`` (innermost first)."""
        line = self.line_in(file, path)
        return Problem(message, format_path(path), file, line, tuple(map(self.used_at, uses)))


_AT_USE = ("name", "use", "with")
"""The keys of a use that are written at the use, whatever the pattern says."""


@dataclass(frozen=True, slots=True)
class Chart:
    """A whole chart: its name and its root state.

    Charts compare by the machine they define. ``origin`` (files and lines), ``registry``
    (the types it was validated with), and ``patterns`` and ``imports`` (how it was
    written: the root holds every use already expanded) are not compared, so a chart
    written with patterns equals its twin written out by hand.

    Attributes:
        patterns: the patterns the chart's own file defines, in order.
        imports: the files it imports patterns from, as written (relative to its file).
    """

    name: str
    root: StateDef
    origin: Origin = field(default=Origin("<data>"), compare=False, repr=False)
    registry: Registry = field(default=DEFAULT_REGISTRY, compare=False, repr=False)
    patterns: tuple[PatternDef, ...] = field(default=(), compare=False, repr=False)
    imports: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def walk(self) -> Iterator[tuple[str, StateDef, DataPath]]:
        """Every state as ``(path, definition, data path)``, parents before children."""
        yield from _walk(self.root, self.root.name, ("root",))

    def used_patterns(self) -> dict[str, tuple[str, str]]:
        """For each state a use of a pattern wrote (the use's own state included), the
        pattern and the path of the use, the innermost use for nested ones."""
        found: dict[str, tuple[str, str]] = {}
        for path, state, _ in self.walk():
            if state.use is not None:
                found[path] = (state.use.pattern, path)
            else:
                parent = found.get(path.rpartition(".")[0])
                if parent is not None:
                    found[path] = parent
        return found

    def find(self, path: str) -> StateDef | None:
        """The state at ``path`` (names joined with dots, root first), or ``None``."""
        first, *rest = path.split(".")
        state: StateDef | None = self.root if first == self.root.name else None
        for name in rest:
            state = state.child(name) if state is not None else None
        return state

    # Immutable: copies share it.

    def __copy__(self) -> Chart:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its data (see :mod:`statetree.chart.saving`)."""
        # Imported when first needed: saving needs the whole chart package.
        saving = import_module("statetree.chart.saving")
        return saving.reduce_chart(self)  # type: ignore[no-any-return]

    def __deepcopy__(self, memo: dict[int, Any]) -> Chart:
        return self


def _walk(state: StateDef, path: str, where: DataPath) -> Iterator[tuple[str, StateDef, DataPath]]:
    yield path, state, where
    for index, child in enumerate(state.states):
        yield from _walk(child, f"{path}.{child.name}", (*where, "states", index))
