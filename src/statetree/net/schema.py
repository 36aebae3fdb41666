"""Wire schemas: what decides a codec's bits, as plain data, and its fingerprint.

A codec's *wire description* holds exactly what its bits depend on: the header mode, the
states of every place of the codec tree in order (their indexes), and the layout of every
payload field. Its *fingerprint* is a short digest of that description, so two codecs have
the same fingerprint exactly when they write the same bits for the same configurations.
The *schema* is the readable form a project keeps in version control (``statetree net
schema``): the description with names, widths and the fingerprint, compared line by line.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from statetree.errors import UsageError
from statetree.net.fields import Field
from statetree.net.path_codec import PathHeader
from statetree.net.shape import Pick
from statetree.net.tables import all_picks
from statetree.net.tree import CodecTree, Level, Node, Option, RegionSet

if TYPE_CHECKING:
    from statetree.net.codec import Codec

__all__ = [
    "FORMAT",
    "codec_schema",
    "fingerprint",
    "schema_diff",
    "schema_text",
    "wire_description",
]

FORMAT = "statetree.net schema 1"
"""The ``format`` entry of every schema: the version of the schema file's own layout."""
_NOTHING = "(nothing)"
_REGIONS = "(regions)"


def fingerprint(description: object) -> str:
    """The fingerprint of a wire description: 16 hex digits of its SHA-256."""
    text = json.dumps(description, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def wire_description(codec: Codec) -> dict[str, Any]:
    """Exactly what decides ``codec``'s bits: nothing that can change without them."""
    return {
        "header": _wire_mode(codec),
        "places": [[place, list(choices)] for place, choices in _places(codec.tree)],
        "payloads": [
            [node.name, [field.layout() for field in node.spec.fields]]
            for node in _stateful(codec.tree)
        ],
    }


def _wire_mode(codec: Codec) -> str:
    """The header mode, as ``path`` when the leaf index happens to give the path's values."""
    mode = codec.header_mode.value
    if mode == "path":
        return mode
    path = PathHeader(codec.tree)
    picks = all_picks(codec.tree)  # in leaf-index order
    same = path.width == codec.header_bits and all(
        path.value(pick) == index for index, pick in enumerate(picks)
    )
    return "path" if same else mode


def codec_schema(codec: Codec) -> dict[str, Any]:
    """The readable wire layout of ``codec`` (see the module doc), JSON-ready."""
    schema: dict[str, Any] = {
        "format": FORMAT,
        "machine": codec.structure.initial,
        "header": {
            "mode": codec.header_mode.value,
            "bits": codec.header_bits,
            "configurations": codec.configurations,
            "minimum_bits": codec.minimum_bits,
        },
        "places": {
            place: {choice: index for index, choice in enumerate(choices)}
            for place, choices in _places(codec.tree)
        },
    }
    if codec.header_mode.value == "leaf":
        schema["leaves"] = {
            str(index): _leaf_path(pick) for index, pick in enumerate(all_picks(codec.tree))
        }
    schema["payloads"] = {
        node.name: list(map(_field, _parameters(node), node.spec.fields))
        for node in _stateful(codec.tree)
    }
    schema["fingerprint"] = codec.fingerprint
    return schema


def _leaf_path(pick: Pick | None) -> str:
    names = []
    while pick is not None:
        names.append(pick.node.name)
        pick = pick.inner
    return "/".join(names)


def _parameters(node: Node) -> list[str]:
    return [name.split(".", 1)[-1] for name in node.spec.names]


def _field(name: str, field: Field[Any]) -> dict[str, Any]:
    return {
        "field": name,
        "declared": field.describe(),
        "bits": field.width if field.width is not None else "varies",
        **field.layout(),
    }


def _places(tree: CodecTree) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each place of the tree once, depth first: its name and its choices in index order."""
    yield "top", tuple(node.name for node in tree.top.nodes)
    seen: set[str] = set()
    for node in _nodes(tree):
        if node.options and node.name not in seen:
            seen.add(node.name)
            yield node.name, tuple(map(_choice, node.options))
        for option in node.options:
            if isinstance(option, RegionSet):
                for number, level in enumerate(option.levels):
                    yield f"{node.name}[region {number}]", tuple(n.name for n in level.nodes)


def _stateful(tree: CodecTree) -> list[Node]:
    """The nodes with a payload, by name: their layouts do not depend on where they are, so
    a new order of states leaves this part of a schema alone."""
    return sorted((node for node in _nodes(tree) if node.spec.fields), key=lambda n: n.name)


def _choice(option: Option) -> str:
    if isinstance(option, Node):
        return option.name
    return _REGIONS if isinstance(option, RegionSet) else _NOTHING


def _nodes(tree: CodecTree) -> Iterator[Node]:
    """Every node of the tree once, depth first in option order."""
    seen: set[str] = set()

    def level(at: Level) -> Iterator[Node]:
        for node in at.nodes:
            yield from visit(node)

    def visit(node: Node) -> Iterator[Node]:
        if node.name in seen:
            return
        seen.add(node.name)
        yield node
        for option in node.options:
            if isinstance(option, Node):
                yield from visit(option)
            elif isinstance(option, RegionSet):
                for region in option.levels:
                    yield from level(region)

    return level(tree.top)


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as the JSON text of a schema file (two-space indents, a final newline)."""
    return json.dumps(schema, indent=2) + "\n"


def schema_diff(expected: str, actual: str, expected_name: str, actual_name: str) -> str:
    """A unified diff of two schema texts (empty when they are the same).

    Raises:
        UsageError: a schema is not text (see :func:`schema_text`).
    """
    for text in (expected, actual):
        if not isinstance(text, str):
            raise UsageError(
                "schema_diff() compares schema texts (schema_text(schema)), "
                f"got {type(text).__name__}"
            )
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        expected_name,
        actual_name,
    )
    return "".join(lines)
