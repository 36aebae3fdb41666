"""The JSON Schema of the chart format, shipped with the package as ``schema.json``.

Editors and other tools can validate chart files with it; the loader itself checks the
same rules (and more: names, targets, policies) without needing a schema library.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["schema", "schema_text"]


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
