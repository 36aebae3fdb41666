"""Checking a chart file as ``statetree run`` would load it, with or without the host's registry.

With the host's registry everything is checked. Without it, everything built in is still
checked (the structure, the policies, built-in trigger and action types and their
parameters); names only a host registry can define (``play_animation``, a custom trigger)
are reported as warnings, once per name, at their first use.

Patterns the file defines and never uses, parameters a pattern never refers to, and
imports no use needs are warnings too. A file of patterns only (a pattern library) is
checked for its declarations and imports.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from difflib import get_close_matches

from statetree.chart.document import Document
from statetree.chart.errors import ChartError, Problem
from statetree.chart.expand import Expanded, expand_document
from statetree.chart.loading import (
    format_of,
    parse_expanded,
    read_chart_file,
    read_document,
    read_file,
)
from statetree.chart.model import (
    Chart,
    DataPath,
    Origin,
    Place,
    StateDef,
    format_path,
    triggers_of,
)
from statetree.chart.policy import definition, resumes
from statetree.chart.registry import (
    DEFAULT_REGISTRY,
    Registry,
)
from statetree.chart.stand_in import stand_in_registry
from statetree.chart.structure import chart_structure
from statetree.chart.template import referenced
from statetree.chart.validation import validate
from statetree.errors import DefinitionError
from statetree.structure import Issue, Location, Severity, Structure

__all__ = [
    "NOT_CHECKED",
    "NO_EFFECT",
    "SHARED_TIMER",
    "UNHEARD_EVENT",
    "UNUSED_IMPORT",
    "UNUSED_PARAMETER",
    "UNUSED_PATTERN",
    "ChartCheck",
    "check_chart_file",
    "problem_issue",
]

NOT_CHECKED = "not-checked"
"""The code of the warnings about names only the host's registry can check."""
UNUSED_PATTERN = "unused-pattern"
"""The code of the warnings about patterns a chart file defines and never uses."""
UNUSED_PARAMETER = "unused-parameter"
"""The code of the warnings about parameters a pattern's state never refers to."""
UNUSED_IMPORT = "unused-import"
"""The code of the warnings about imported files no use of a pattern needs."""
NO_EFFECT = "no-effect"
"""The code of the warnings about actions that can change nothing where they stand."""
SHARED_TIMER = "shared-timer"
"""The code of the warnings about one timer name started by two states that can be active
at once: each one's triggers hear the other's expiry."""
UNHEARD_EVENT = "unheard-event"
"""The code of the warnings about an event raised that no trigger hears, and an ``event``
trigger named as an ``input`` one (a bare name in a condition is an ``event`` trigger)."""


@dataclass(frozen=True, slots=True)
class ChartCheck:
    """What checking a chart file found.

    Attributes:
        structure: the chart's structure, ``None`` when the file is not a chart at all
            (or is a pattern library).
        issues: the chart's problems (errors) and unchecked names (warnings).
        valid: whether the chart loads; only then is its structure worth checking.
        library: the patterns of a file of patterns only (a pattern library), else ``None``.
    """

    structure: Structure | None
    issues: tuple[Issue, ...]
    valid: bool
    library: tuple[str, ...] | None = None


def problem_issue(problem: Problem) -> Issue:
    """A chart problem as an error of a check report (its path only when it has no line)."""
    if problem.line:
        location = Location(problem.file, problem.line)
        return Issue(Severity.ERROR, "chart", "", problem.described, location)
    at = f" at {problem.path}" if problem.path else ""
    return Issue(Severity.ERROR, "chart", "", f"{problem.file}{at}: {problem.described}")


def _read_file(path: str) -> Document:
    """The document of the file at ``path``, not checked yet.

    Raises:
        ChartError: the file cannot be read or does not parse.
    """
    format = format_of(path) or "yaml"
    return read_document(read_chart_file(path), format, path)


def _is_library(document: Document) -> bool:
    data = document.data
    return isinstance(data, dict) and "patterns" in data and "root" not in data


def check_chart_file(path: str, registry: Registry | None) -> ChartCheck:
    """Check the chart at ``path`` as ``statetree run`` would load it with ``registry``.

    Without a registry (``None``), names only the host's registry can define are warnings,
    their types taken as the chart uses them (as ``run`` takes them: see
    :mod:`statetree.chart.stand_in`), and everything else is checked as usual.

    Raises:
        ImportError: the chart's format needs a library that is not installed.
    """
    try:
        document = _read_file(path)
        expanded = expand_document(document, read_file)
        if _is_library(document):
            unused = tuple(_unused_params(expanded))
            return ChartCheck(None, unused, True, tuple(expanded.library.patterns))
        chart = parse_expanded(expanded, registry or DEFAULT_REGISTRY)
    except ChartError as error:
        return ChartCheck(None, tuple(map(problem_issue, error.problems)), False)
    uses = {} if registry is not None else _host_names(chart)
    issues = [_not_checked(chart, kind, name, uses) for kind, name in uses]
    issues += _unused(expanded, chart)
    issues += _shared_timers(chart)
    issues += _no_effect(chart)
    issues += _unheard_events(chart)
    try:
        validate(chart, registry or stand_in_registry(chart))  # as `run` loads it
    except ChartError as error:
        errors = list(map(problem_issue, error.problems))
        return ChartCheck(_structure_of(chart), (*errors, *issues), False)
    return ChartCheck(chart_structure(chart), tuple(issues), True)


def _structure_of(chart: Chart) -> Structure | None:
    """The structure of a chart that did not validate, when it has one (two states of one
    name, say, make none: the chart's errors say so)."""
    try:
        return chart_structure(chart)
    except DefinitionError:
        return None


def _warning(code: str, place: Place, message: str) -> Issue:
    """A warning at ``place`` (its path named when it has no line)."""
    if not place.line:
        return Issue(Severity.WARNING, code, "", f"at {format_path(place.path)}: {message}")
    return Issue(Severity.WARNING, code, "", message, Location(place.file, place.line))


def _own(origin: Origin, path: DataPath) -> Place:
    """The place ``path`` of the chart's own file."""
    return Place(origin.file, path, origin.line(path))


def _unused(expanded: Expanded, chart: Chart) -> Iterator[Issue]:
    """The patterns, parameters and imports of the chart's own file that nothing needs."""
    origin = chart.origin
    written = [site for site in origin.uses if site.file == origin.file]
    used = {(site.pattern_file, site.pattern) for site in origin.uses}
    for name in expanded.library.patterns:
        if (origin.file, name) not in used:
            message = f"the pattern {name!r} is never used"
            yield _warning(UNUSED_PATTERN, _own(origin, ("patterns", name)), message)
    yield from _unused_params(expanded)
    needed = {site.pattern_file for site in written}
    for index, (entry, file) in enumerate(expanded.library.imports):
        if file not in needed:
            message = f"no pattern of {entry!r} is used here: remove the import"
            yield _warning(UNUSED_IMPORT, _own(origin, ("imports", index)), message)


def _shared_timers(chart: Chart) -> Iterator[Issue]:
    """A warning for each timer name two states start that can be active at once: a state
    and one inside it, or states in two regions of a concurrent state. A timer's expiry is
    an event every active trigger of its name hears."""
    starts: dict[str, list[tuple[str, DataPath]]] = {}
    hosts = {
        path
        for path, state, _ in chart.walk()
        if state.policy is not None and definition(state.policy).regions
    }
    for path, state, where in chart.walk():
        for index, action in enumerate(state.enter):
            name = action.arguments.get("name")
            if action.type == "start_timer" and isinstance(name, str):
                starts.setdefault(name, []).append((path, (*where, "enter", index)))
    for name, places in starts.items():
        found = _first_together(places, hosts)
        if found is not None:
            (path, where), other = found
            message = (
                f"{path} starts timer {name!r} as {other} does, and both can be active at "
                "once: each one's triggers hear the other's expiry; give them different names"
            )
            yield _warning(SHARED_TIMER, chart.origin.place(where), message)


def _first_together(
    places: list[tuple[str, DataPath]], hosts: set[str]
) -> tuple[tuple[str, DataPath], str] | None:
    """The first place whose state can be active with that of an earlier place, and the
    first such earlier state: one holds the other, or they are in two regions of a host
    (each place looked at once along its ancestors, not against every earlier one)."""
    starter: dict[str, int] = {}  # an earlier place's state: its first index
    holder: dict[str, int] = {}  # a state holding an earlier place's: the first index
    regions: dict[str, dict[str, int]] = {}  # a host: the first index in each region
    for index, (path, _) in enumerate(places):
        parts = path.split(".")
        outer = [".".join(parts[:depth]) for depth in range(1, len(parts))]
        earlier = [holder.get(path), *(starter.get(state) for state in outer)]
        for depth, host in enumerate(outer, 1):
            others = regions.get(host, {}) if host in hosts else {}
            earlier += [at for region, at in others.items() if region != parts[depth]]
        hits = [at for at in earlier if at is not None]
        if hits:
            return places[index], places[min(hits)][0]
        starter.setdefault(path, index)
        for depth, state in enumerate(outer, 1):
            holder.setdefault(state, index)
            if state in hosts:
                regions.setdefault(state, {}).setdefault(parts[depth], index)
    return None


def _no_effect(chart: Chart) -> Iterator[Issue]:
    """A warning for each action that can change nothing where it stands: a timer started
    as its state exits (it is stopped with it), a history cleared where none is kept (a
    state whose policy does not resume a child)."""
    for path, state, where in chart.walk():
        for index, action in enumerate(state.exit):
            if action.type == "start_timer":
                message = (
                    f"{path} starts a timer as it exits: the timer stops with its state, so "
                    "it never fires; start it on enter, or in the state entered next"
                )
                yield _warning(NO_EFFECT, chart.origin.place((*where, "exit", index)), message)
        for key, actions in (("enter", state.enter), ("exit", state.exit)):
            for index, action in enumerate(actions):
                if action.type == "clear_history" and not resumes(state):
                    kind = "has no children" if state.policy is None else f"is {state.policy}"
                    message = (
                        f"{path} clears its history, but it {kind}: it resumes no child, so "
                        "there is none to clear"
                    )
                    place = chart.origin.place((*where, key, index))
                    yield _warning(NO_EFFECT, place, message)


def _unheard_events(chart: Chart) -> Iterator[Issue]:
    """A warning for each ``raise`` of an event no trigger of the chart hears (a misspelt
    name breaks the chart silently), and for each ``event`` trigger no action raises whose
    name an ``input`` trigger has (a bare name in a condition means an ``event``) or is
    close to a raised one."""
    heard: dict[str, dict[str, DataPath]] = {"event": {}, "input": {}}
    for kind, trigger, where in _triggers(chart):
        if kind in heard:
            heard[kind].setdefault(trigger, where)
    raised: set[str] = set()
    for path, name, where in _raises(chart):
        raised.add(name)
        if name not in heard["event"]:
            close = _close(name, list(heard["event"]))
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            message = (
                f"{path} raises event {name!r}, which no trigger of the chart hears{hint}: "
                "only a host's event listener would"
            )
            yield _warning(UNHEARD_EVENT, chart.origin.place(where), message)
    for name, where in heard["event"].items():
        if name in raised:
            continue
        # Close to a raised event some trigger hears (one no trigger hears was named above).
        close = _close(name, sorted(raised & heard["event"].keys()))
        if name in heard["input"]:
            message = (
                f"the condition hears the event {name!r}, which no action raises, while "
                f"another hears the input {name!r}: a bare name is an event; write "
                f"{{input: {name}}} for the input"
            )
        elif close:  # an event only the host sends is seldom named as a raised one
            message = (
                f"the condition hears the event {name!r}, which no action raises: did you "
                f"mean {close[0]!r}, which one raises?"
            )
        else:
            continue
        yield _warning(UNHEARD_EVENT, chart.origin.place(where), message)


def _raises(chart: Chart) -> Iterator[tuple[str, str, DataPath]]:
    """Every ``raise`` action of the chart: ``(state path, event name, where)``."""
    for path, state, where in chart.walk():
        for key, actions in (("enter", state.enter), ("exit", state.exit)):
            for index, action in enumerate(actions):
                name = action.arguments.get("name")
                if action.type == "raise" and isinstance(name, str):
                    yield path, name, (*where, key, index)


def _triggers(chart: Chart) -> Iterator[tuple[str, str, DataPath]]:
    """Every trigger of the chart's conditions: ``(type, name, where)``."""
    for _, state, where in chart.walk():
        yield from _state_triggers(state, where)


def _state_triggers(state: StateDef, where: DataPath) -> Iterator[tuple[str, str, DataPath]]:
    for key, conditions in (("pre", state.pre), ("post", state.post)):
        for index, condition in enumerate(conditions):
            for trigger in triggers_of(condition):
                yield trigger.type, trigger.name, (*where, key, index)
    for index, transition in enumerate(state.transitions):
        place = (*where, "transitions", index, "on")
        yield from ((t.type, t.name, place) for t in triggers_of(transition.on))


def _unused_params(expanded: Expanded) -> Iterator[Issue]:
    origin = expanded.origin
    for pattern in expanded.library.patterns.values():
        needed = referenced(pattern.body)
        for param in pattern.params:
            if param.name not in needed:
                message = f"the pattern {pattern.name!r} never uses its parameter {param.name!r}"
                where = ("patterns", pattern.name, "params", param.name)
                yield _warning(UNUSED_PARAMETER, _own(origin, where), message)


def _uses(chart: Chart) -> Iterator[tuple[str, str, DataPath]]:
    """Every trigger and action type the chart names: ``(kind, name, where)``."""
    for _, state, where in chart.walk():
        yield from (("trigger", kind, place) for kind, _, place in _state_triggers(state, where))
        yield from _actions(state, where)


def _actions(state: StateDef, where: DataPath) -> Iterator[tuple[str, str, DataPath]]:
    for key, actions in (("enter", state.enter), ("exit", state.exit)):
        for index, action in enumerate(actions):
            yield "action", action.type, (*where, key, index)


def _host_names(chart: Chart) -> dict[tuple[str, str], list[DataPath]]:
    """The names that are not built in, with the places they are used, in document order."""
    built_in = {"trigger": DEFAULT_REGISTRY.triggers, "action": DEFAULT_REGISTRY.actions}
    found: dict[tuple[str, str], list[DataPath]] = {}
    for kind, name, where in _uses(chart):
        if name not in built_in[kind]:
            found.setdefault((kind, name), []).append(where)
    return found


def _not_checked(
    chart: Chart, kind: str, name: str, uses: dict[tuple[str, str], list[DataPath]]
) -> Issue:
    """The warning for a host ``name`` of ``kind``; a name close to a built-in one, or to
    another host name used more often (``play_sund`` once, ``play_sound`` three times),
    is likely a typo."""
    paths = uses[kind, name]
    known = DEFAULT_REGISTRY.triggers if kind == "trigger" else DEFAULT_REGISTRY.actions
    likelier = [n for (k, n), p in uses.items() if k == kind and len(p) > len(paths)]
    close = _close(name, [*known, *likelier])
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    count = f", {len(paths)} uses" if len(paths) > 1 else ""
    message = f"{kind} type {name!r} is not built in{hint}{count}: not checked without --registry"
    return _warning(NOT_CHECKED, chart.origin.place(paths[0]), message)


MAX_HINTS = 256
"""Names a "did you mean" hint is looked for among, at most: past that (charts of
thousands of events) the search would cost more than the whole check, and gives none."""


def _close(name: str, candidates: list[str]) -> list[str]:
    """The candidate ``name`` is likely a typo of, if any (see :data:`MAX_HINTS`)."""
    if len(candidates) > MAX_HINTS:
        return []
    return get_close_matches(name, candidates, n=1)
