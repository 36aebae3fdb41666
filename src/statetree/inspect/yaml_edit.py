"""Structured edits of a YAML chart that keep every comment with the part it was written on.

``ruamel.yaml`` keeps comments in its round-trip tree, but stores a comment line with the
node *before* it: moving, removing or replacing that node would take along, or lose, the
comment of the state after it. So full-line comments (and blank lines) are taken out of the
text first, each run of them remembered with the node written just below it, and put back
above that node once the edit is made, wherever the node went: a state moved takes its
comments along, a state or field removed takes its own, and a list replaced by the page
keeps the comments of its items by position. End-of-line comments stay in the tree, on
their own line's node.

The text is already known to read as a chart document (:func:`read_document` checked its
size, nesting and aliases), with ``\\n`` line ends and no byte order mark.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ruamel.yaml import YAML
from ruamel.yaml.events import ScalarEvent
from ruamel.yaml.nodes import MappingNode, Node

from statetree.chart.document import Document
from statetree.inspect.adapters import InspectError
from statetree.inspect.chart_ops import apply_edit

__all__ = ["edit_yaml"]

Step = str | int
Path = tuple[Step, ...]


@dataclass(frozen=True)
class _Place:
    """A key of a mapping or an item of a list, with the collections that lead to it."""

    nodes: tuple[Any, ...]  # the document, then each collection down to the container
    steps: Path  # the key or index taken from each of ``nodes``
    value: Any  # what was there when the place was found


@dataclass
class _Run:
    """Comment and blank lines, and the place written just below them: a key or an item, or
    the start of the document (above its ``---``) or its end."""

    lines: list[str]
    indent: int  # of the line just below them
    place: _Place | Literal["start", "end"]


def edit_yaml(text: str, edit: Mapping[str, Any], document: Document | None = None) -> str:
    """``text`` with the structured ``edit`` applied, indented as it was, comments kept
    (``document``: ``text`` as read, which detaching a pattern's use expands).

    Raises:
        InspectError: the edit is malformed or names no state (see ``apply_edit``), or the
            text has line breaks other than ``\\n`` (see ``_check_breaks``).
    """
    _check_breaks(text)
    head, tail = _HEAD.match(text), _TAIL.search(text)
    if head is not None or tail is not None:  # the markers: the dump would move or drop them
        start = 0 if head is None else head.end()
        end = len(text) if tail is None else tail.start()
        body = edit_yaml(text[start:end], edit, document)
        return text[:start] + body + text[end:]
    lines = text.splitlines(keepends=True)
    comments = _comment_lines(text, lines)
    kept = [index for index in range(len(lines)) if index not in comments]
    bare = "".join(lines[index] for index in kept)
    reader = YAML(typ="rt")
    reader.preserve_quotes = True  # a quoted value stays quoted as it was
    tree = reader.load(bare)
    places = _places(tree)
    runs = _runs(lines, comments, kept, places)
    bare_lines = [lines[index] for index in kept]
    indents = _indents(tree, bare_lines)
    marked = _marked(bare_lines)
    apply_edit(tree, edit, document)
    paths = _paths(tree)
    moved = [(run, _resolve(run.place, tree, paths)) for run in runs]
    # Runs that end up above the same line (items of a flow list written on one line) go in
    # the order of their places in the edited document.
    order = {place.steps: index for index, (place, _) in enumerate(_walk(tree))}
    moved.sort(key=lambda pair: order.get(pair[1], -1) if isinstance(pair[1], tuple) else -1)
    written = _dump(tree, indents, marked)
    _check_breaks(written, "the edit writes")
    return _put_back(written, moved)


_ODD_BREAKS = re.compile("[\r\x85\u2028\u2029]")
_HEAD = re.compile(r"(?:(?:%[^\n]*|#[^\n]*|[ \t]*)\n)*---[ \t]*(?:#[^\n]*)?\n")
"""The lines before a document's content: ``%`` directives, comments and blank lines, up
to its ``---`` marker alone on its line (kept as they are by an edit)."""
_TAIL = re.compile(r"^\.\.\.[ \t]*(?:#[^\n]*)?\n(?:(?:#[^\n]*|[ \t]*)\n)*\Z", re.MULTILINE)
"""A document's ``...`` end marker and the comment or blank lines after it (kept too)."""


def _check_breaks(text: str, holder: str = "the chart holds") -> None:
    """Refuse a text with line breaks other than ``\\n`` (a lone ``\\r``, U+0085, U+2028,
    U+2029): YAML parsers count its lines differently, so no comment could be put back
    for sure.

    Raises:
        InspectError: there is one; its line is named.
    """
    found = _ODD_BREAKS.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise InspectError(
            f"{holder} the line break U+{ord(found.group()):04X} on line {line}, which YAML "
            "readers count differently: edit this chart as text"
        )


def _comment_lines(text: str, lines: list[str]) -> set[int]:
    """The indexes of the blank and comment lines (never a line inside a scalar)."""
    inside = _scalar_lines(text)
    return {
        index
        for index, line in enumerate(lines)
        if index not in inside and (not line.strip() or line.lstrip().startswith("#"))
    }


def _scalar_lines(text: str) -> dict[int, int]:
    """The lines inside multi-line scalars (a block scalar's text, a quoted string's later
    lines), each with the line its scalar starts on."""
    inside: dict[int, int] = {}
    for event in YAML(typ="safe").parse(text):
        start, end = event.start_mark, event.end_mark
        if not isinstance(event, ScalarEvent) or end.line == start.line:
            continue
        last = end.line if end.column > 0 else end.line - 1
        for line in range(start.line + 1, last + 1):
            inside[line] = start.line
    return inside


def _walk(tree: Any) -> Iterator[tuple[_Place, Any]]:
    """Each key and item of ``tree``, outermost first, with its value."""
    pending: list[tuple[Any, tuple[Any, ...], Path]] = [(tree, (), ())]
    while pending:
        node, nodes, steps = pending.pop()
        if not isinstance(node, (dict, list)):
            continue
        found = []
        for step in node if isinstance(node, dict) else range(len(node)):
            place = _Place((*nodes, node), (*steps, step), node[step])
            yield place, place.value
            found.append((place.value, place.nodes, place.steps))
        pending.extend(reversed(found))


def _position(container: Any, step: Step) -> tuple[int, int]:
    """The 0-based line and column where the key or item ``step`` of a round-trip
    ``container`` starts."""
    lines: Any = container.lc
    line, column = lines.key(step) if isinstance(container, dict) else lines.item(step)
    return line, column


def _line(container: Any, step: Step) -> int:
    return _position(container, step)[0]


def _places(tree: Any) -> dict[int, _Place]:
    """The outermost key or item that starts on each line of the text ``tree`` was read
    from."""
    places: dict[int, _Place] = {}
    for place, _ in _walk(tree):
        places.setdefault(_line(place.nodes[-1], place.steps[-1]), place)
    return places


def _runs(
    lines: list[str], comments: set[int], kept: list[int], places: dict[int, _Place]
) -> list[_Run]:
    """The runs of comment lines, each with the place written below it."""
    bare = {line: index for index, line in enumerate(kept)}
    runs: list[_Run] = []
    run: list[str] = []
    for index, line in enumerate(lines):
        if index in comments:
            run.append(line)
        elif run:
            runs.append(_Run(run, _indent(line), _below(bare[index], lines, kept, places)))
            run = []
    if run:
        runs.append(_Run(run, 0, "end"))
    return runs


def _below(
    line: int, lines: list[str], kept: list[int], places: dict[int, _Place]
) -> _Place | Literal["start", "end"]:
    """The place that starts on the first line at or after ``line`` (of the text without
    comments, which ``kept`` maps to the text's own) where a place starts: a lone "-"
    starts none, nor does "---", which starts the document."""
    if line == 0 and lines[kept[0]].startswith("---"):
        return "start"
    for below in range(line, len(kept)):
        if below in places:
            return places[below]
    return "end"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _paths(tree: Any) -> dict[int, Path]:
    """The path of each list and mapping in ``tree``, by identity."""
    paths: dict[int, Path] = {id(tree): ()}
    for place, value in _walk(tree):
        if isinstance(value, (dict, list)):
            paths[id(value)] = place.steps
    return paths


def _resolve(
    place: _Place | Literal["start", "end"], tree: Any, paths: dict[int, Path]
) -> Path | Literal["start", "end"] | None:
    """Where ``place`` is after the edit, or ``None`` if it went with what was removed."""
    if isinstance(place, str):
        return place
    step, target = place.steps[-1], place.value
    if isinstance(target, (dict, list)) and id(target) in paths:
        return paths[id(target)]
    depth = max(k for k, node in enumerate(place.nodes) if id(node) in paths)
    node = place.nodes[depth]
    if isinstance(node, list):
        # An item of a list that is still there: a list item (a state, a transition) left
        # it, or a plain value is kept where it was.
        if depth == len(place.nodes) - 1 and not isinstance(target, (dict, list)):
            return (*paths[id(node)], step) if step < len(node) else None  # type: ignore[operator]
        return None
    # A field of a mapping that is still there was replaced: the same place in its new
    # value, if it has one (a list item past the new list's end went with it).
    path = paths[id(node)]
    current = _at(tree, path)
    for step in place.steps[depth:]:
        if not _has(current, step):
            return None
        path = (*path, step)
        current = current[step]
    return path


def _has(node: Any, step: Step) -> bool:
    if isinstance(node, dict):
        return step in node
    return isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)


def _at(tree: Any, path: Path) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def _put_back(written: str, runs: list[tuple[_Run, Path | Literal["start", "end"] | None]]) -> str:
    """``written`` with each run of comment lines above the line of its place's new path,
    or at the start or the end (a run whose place was removed is dropped)."""
    out = written.splitlines(keepends=True)
    # Only lines are needed now: the node graph of the (C, when installed) safe parser.
    document = YAML(typ="safe").compose(written)
    inside = _scalar_lines(written)
    above: dict[int, list[str]] = {}
    head: list[str] = []
    tail: list[str] = []
    for run, path in runs:
        if path == "start":
            head.extend(run.lines)
        elif path == "end":
            tail.extend(run.lines)
        elif path is not None:
            line = _line_of(document, path)
            line = inside.get(line, line)  # never inside a scalar written on many lines
            shift = _indent(out[line]) - run.indent
            above.setdefault(line, []).extend(_shifted(text, shift) for text in run.lines)
    result = [text for index, line in enumerate(out) for text in (*above.get(index, ()), line)]
    return "".join(head + result + tail)


def _line_of(document: Node, path: Path) -> int:
    """The 0-based line where the key or item at ``path`` of a composed ``document``
    starts."""
    node = start = document
    for step in path:
        if isinstance(node, MappingNode):
            start, node = next((k, v) for k, v in node.value if k.value == str(step))
        else:
            start = node = node.value[step]
    line: int = start.start_mark.line
    return line


def _shifted(line: str, shift: int) -> str:
    """A comment line moved ``shift`` columns right (left when negative, never past 0)."""
    if not line.strip():
        return line
    return " " * max(0, _indent(line) + shift) + line.lstrip(" ")


def _marked(lines: list[str]) -> tuple[bool, bool]:
    """Whether the document (its lines without comments) starts with ``---`` and ends with
    ``...``."""
    return (
        bool(lines) and lines[0].startswith("---"),
        bool(lines) and lines[-1].rstrip() == "...",
    )


def _dump(tree: Any, indents: tuple[int, int, int], marked: tuple[bool, bool]) -> str:
    """``tree`` as YAML, with the ``(mapping, sequence, offset)`` indents of ruamel.yaml,
    and the document's start and end markers if it had them."""
    mapping, sequence, offset = indents
    writer = YAML(typ="rt")
    writer.explicit_start, writer.explicit_end = marked
    writer.default_flow_style = False
    writer.width = 4096  # lines are never folded: a long flow list stays on its line
    writer.brace_single_entry_mapping_in_flow_sequence = True  # [{name: A}] stays so
    writer.indent(mapping=mapping, sequence=sequence, offset=offset)
    out = io.StringIO()
    writer.dump(tree, out)
    return out.getvalue()


def _indents(tree: Any, lines: list[str]) -> tuple[int, int, int]:
    """The file's indents, measured on its first block mapping and list nested in a
    mapping: mapping keys, and list items with their dashes (``"  - name"`` is 4 and 2)."""
    mapping = sequence = offset = None
    for place, value in _walk(tree):
        container, step = place.nodes[-1], place.steps[-1]
        if not isinstance(container, dict) or not _block(value):
            continue
        column = _position(container, step)[1]
        if isinstance(value, dict) and mapping is None:
            mapping = _position(value, next(iter(value)))[1] - column
        elif isinstance(value, list) and sequence is None:
            line, content = _position(value, 0)
            dash = lines[line].rfind("-", 0, content)
            if dash >= 0 and not lines[line][:dash].strip():  # not a lone "-" line before
                sequence, offset = content - column, dash - column
        if mapping is not None and sequence is not None:
            break
    # A file without block lists (or without any block collection) says nothing of some
    # indents: the block parts an edit adds get the usual ones.
    mapping = max(1, mapping or 2)
    offset = mapping if offset is None or offset < 0 else offset
    return mapping, max(sequence or 0, offset + 2), offset


def _block(value: Any) -> bool:
    """Whether ``value`` is a non-empty mapping or list written in block style."""
    return isinstance(value, (dict, list)) and bool(value) and not _flow(value)


def _flow(node: Any) -> bool:
    return bool(node.fa.flow_style())
