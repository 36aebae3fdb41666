"""The JSON Schema of the chart format, shipped with the package as ``schema.json``.

Editors and other tools can validate chart files with it; the loader itself checks the
same rules (and more: names, targets, policies) without needing a schema library.

What the schema says of policies is generated from their definitions
(:mod:`statetree.chart.policy`): the names a ``policy`` may take, what each does, and which
parents read a child's ``pre``, ``post`` and ``transitions``. ``make schema`` (``python -m
statetree.chart.json_schema PATH``) writes the file again after a definition changed;
``--check`` says whether it is up to date.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from statetree.chart.model import DEFAULT_POLICY
from statetree.chart.parts import readers_named
from statetree.chart.policy import DEFINITIONS, Part

__all__ = ["generated", "render", "schema", "schema_text"]

WIDTH = 100
"""Containers whose one-line form fits this width are written on one line."""


def schema_text() -> str:
    """The text of ``schema.json``."""
    return resources.files("statetree.chart").joinpath("schema.json").read_text(encoding="utf-8")


@cache
def _parsed() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_text())
    return loaded


def schema() -> dict[str, Any]:
    """The JSON Schema of the chart format, as data (a fresh copy each call)."""
    copied: dict[str, Any] = json.loads(json.dumps(_parsed()))
    return copied


def readers(part: Part) -> str:
    """``a priority or sequential parent``: the parents whose policy reads ``part``."""
    named = readers_named(part)
    return f"{'an' if named[0] in 'aeiou' else 'a'} {named} parent"


def generated(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a chart schema) with what it says of policies taken from their definitions."""
    state = data["$defs"]["state"]["properties"]
    summaries = " ".join(f"{name}: {found.summary}" for name, found in DEFINITIONS.items())
    state["policy"] = {
        "description": (
            f"How the state activates its children ({DEFAULT_POLICY} when it has children "
            f"and no policy). {summaries}"
        ),
        "enum": list(DEFINITIONS),
    }
    state["pre"]["description"] = (
        f"Pre-conditions, read by {readers('pre')}: a list means all of them."
    )
    state["post"]["description"] = (
        f"Post-conditions, read by {readers('post')}: a list means any of them."
    )
    state["transitions"]["description"] = (
        f"Explicit transitions to siblings, tried in order, read by {readers('transitions')}."
    )
    return data


def render(value: object, indent: str = "", before: int = 0) -> str:
    """``value`` as the schema file writes JSON: two spaces a level, and a list or object on
    one line where the line (``before`` characters precede it) fits :data:`WIDTH`."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or len(indent) + before + len(flat) < WIDTH:
        return flat
    inner = indent + "  "
    if isinstance(value, list):
        items = [inner + render(item, inner) for item in value]
        return "[\n" + ",\n".join(items) + f"\n{indent}]"
    items = []
    for key, item in value.items():
        name = json.dumps(key, ensure_ascii=False) + ": "
        items.append(inner + name + render(item, inner, len(name)))
    return "{\n" + ",\n".join(items) + f"\n{indent}}}"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the schema file at PATH from itself and the policy definitions, or ``--check``."""
    parser = argparse.ArgumentParser(prog="python -m statetree.chart.json_schema")
    parser.add_argument("path", type=Path, help="the schema.json to write")
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    args = parser.parse_args(argv)
    text = args.path.read_text(encoding="utf-8")
    wanted = render(generated(json.loads(text))) + "\n"
    if text == wanted:
        return 0
    if args.check:
        print(f"{args.path} is out of date: run make schema", file=sys.stderr)
        return 1
    args.path.write_text(wanted, encoding="utf-8")
    print(f"wrote {args.path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
